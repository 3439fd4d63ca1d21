"""The assembly editor in a small host app: typing posts edits the session assembles,
Pygments highlighting, gutter marks and the cursor line's message, undo/redo, the Lima
order fix."""

from __future__ import annotations

from spvinspect import lima
from textual.app import App, ComposeResult
from textual.document._document import Document as TextDocument
from textual.document._wrapped_document import WrappedDocument
from textual.widgets import Static

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.editing.session import EditSession, LineMessage
from spvinspect.editing.spirv_assembler import open_spirv_session
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.asm_editor import AsmEditor, CountedWrappedDocument


class EditorHost(App):
    """Drives a session from the editor as the main screen does."""

    def __init__(self, session: EditSession | None = None, text: str = "", lima_mode: bool = False) -> None:
        super().__init__()
        self.session = session
        self.text = session.text if session is not None else text
        self.lima_mode = lima_mode
        self.edits: list[AsmEditor.TextEdited] = []
        self.closed: list[int] = []
        self.cursor_lines: list[int] = []

    def compose(self) -> ComposeResult:
        yield AsmEditor(self.text, syntax=(LimaDocument if self.lima_mode else Document).editor_language())
        yield Static(id="status")

    def on_asm_editor_text_edited(self, message: AsmEditor.TextEdited) -> None:
        self.edits.append(message)
        if self.session is None:
            return
        self.session.replace_lines(message.start, message.end, message.lines)
        while (job := self.session.request()) is not None:  # in the app: a thread worker
            self.session.accept(job.run())
        message.editor.show_messages(self.session.messages())

    def on_asm_editor_closed(self, message: AsmEditor.Closed) -> None:
        self.closed.append(message.line)

    def on_asm_editor_cursor_line_changed(self, message: AsmEditor.CursorLineChanged) -> None:
        self.cursor_lines.append(message.line)


def example_session() -> EditSession:
    session = open_spirv_session(EXAMPLE_MODULE.read_bytes())
    while (job := session.request()) is not None:
        session.accept(job.run())
    return session


async def test_typing_reassembles_and_marks_the_changed_word():
    session = example_session()
    row = next(i for i, line in enumerate(session.lines) if "OpConstant %float " in line)
    async with EditorHost(session).run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        editor.move_cursor((row, len(session.lines[row])))
        await pilot.press("5")
        await pilot.pause()
        assert [(e.start, e.end) for e in pilot.app.edits] == [(row, row + 1)]
        assert session.text == editor.text and session.assembles
        assert session.changed.count == 1


async def test_a_syntax_error_is_marked_in_the_gutter_and_shown_for_the_cursor_line():
    session = example_session()
    row = next(i for i, line in enumerate(session.lines) if "= OpFMul %v4float" in line)
    column = session.lines[row].index("%v4float")
    async with EditorHost(session).run_test(size=(100, 30)) as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        editor.select_line(row)
        editor.move_cursor((row, column))
        editor.replace("7", (row, column), (row, column + len("%v4float")))
        await pilot.pause()
        assert not session.assembles
        assert editor.message_lines == [row]
        assert editor.border_subtitle.startswith(f"{row + 1}:{column + 1} error: expected an id")
        y = row - editor.scroll_offset.y
        assert editor.render_line(y).text.startswith("●")
        other = next(y for y in range(editor.size.height) if y + editor.scroll_offset.y != row)
        assert not editor.render_line(other).text.startswith("●")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert session.assembles and editor.message_lines == [] and editor.border_subtitle == ""
        assert session.binary == EXAMPLE_MODULE.read_bytes()
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert not session.assembles


async def test_f8_steps_through_the_lines_with_messages():
    text = "\n".join(f"OpNop ; {n}" for n in range(20))
    async with EditorHost(text=text).run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        editor.show_messages([LineMessage(12, 2, Diagnostic("late")), LineMessage(4, 0, Diagnostic("early"))])
        await pilot.press("f8")
        assert editor.cursor_location == (4, 0)
        await pilot.press("f8")
        assert editor.cursor_location == (12, 2)
        assert editor.border_subtitle == "13:3 error: late"
        await pilot.press("shift+f8")
        assert editor.cursor_location == (4, 0)


async def test_text_is_highlighted_from_the_spirv_lexer():
    more = "\n".join(f"%u{n} = OpUndef %int ; {n}" for n in range(3_000))
    async with EditorHost(text=f"%main = OpFunction %void None %fn\n; a comment\n{more}").run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        await pilot.pause()
        # Only the lines drawn are lexed; the text's height follows an edit.
        assert 0 < len(editor._lexed) < 100
        editor.focus()
        editor.move_cursor(editor.document.end)
        await pilot.press("enter")
        await pilot.pause()
        assert editor.wrapped_document.height == editor.document.line_count == 3_003
        assert len(editor._lexed) < 200
        names = {name for _, _, name in editor._highlights[0]}
        assert {"Token.Name.Function", "Token.Keyword", "Token.Name.Class"} <= names
        assert [name for _, _, name in editor._highlights[1]] == ["Token.Comment.Single"]
        styles = editor._theme.syntax_styles
        assert styles["Token.Keyword"] != styles["Token.Comment.Single"]
        strip = editor.render_line(0)
        colours = {segment.style.color for segment in strip if segment.text.strip() and segment.style}
        assert len(colours) >= 3


async def test_escape_leaves_with_the_cursor_line():
    async with EditorHost(text="OpNop\nOpNop\nOpNop").run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        editor.move_cursor((2, 0))
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.closed == [2]


async def test_the_lima_order_fix_rewrites_the_line_in_one_key():
    source = "load.u 1, load.v 1 $0"
    _, diagnostics = lima.assemble(source)
    assert len(diagnostics) == 2
    async with EditorHost(text=source, lima_mode=True).run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        editor.show_messages(LineMessage(d.line - 1, d.column - 1, d) for d in diagnostics)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert editor.text == "load.v $0 1, load.u 1"
        assert lima.assemble(editor.text)[1] == []
        assert pilot.app.edits[-1].lines == ["load.v $0 1, load.u 1"]
        await pilot.press("ctrl+z")
        assert editor.text == source


async def test_a_window_reports_edits_and_cursor_lines_in_the_whole_text():
    session = example_session()
    start, end = session.window(150, limit=40)
    window = "\n".join(session.lines[start:end])
    async with EditorHost(session).run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.load_window(window, start, cursor_line=start + 3)
        editor.focus()
        assert editor.cursor_location == (3, 0)
        editor.insert(" ", (3, 0))
        await pilot.pause()
        assert (pilot.app.edits[-1].start, pilot.app.edits[-1].end) == (start + 3, start + 4)
        assert session.lines[start + 3].startswith(" ") and session.assembles
        assert session.binary == EXAMPLE_MODULE.read_bytes()  # a blank changes no word
        editor.move_cursor((5, 0))
        await pilot.pause()
        assert pilot.app.cursor_lines[-1] == start + 5
        assert session.location_of_line(start + 5) is not None


async def test_the_order_fix_key_is_left_to_the_screen_in_spirv_text():
    async with EditorHost(text="OpNop").run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.focus()
        assert editor.check_action("fix_order", ()) is False
        await pilot.press("ctrl+o")
        assert editor.text == "OpNop"


def test_the_editor_wraps_its_text_as_textual_does():
    """The editor's quick wrap (no soft wrap, no tabs) gives the tables TextArea's own
    wrap gives, and so after an edit; text with tabs takes TextArea's way."""
    for text in ("    %1 = OpLabel\n\n; a comment\n        OpReturn\n", "a\tb\n\n\tc\t"):
        documents = TextDocument(text), TextDocument(text)
        wrapped = CountedWrappedDocument(documents[0], tab_width=4), WrappedDocument(documents[1], tab_width=4)

        def tables():
            return [(w._wrap_offsets, w._offset_to_line_info, w._line_index_to_offsets, w._tab_width_cache, w.height)
                    for w in wrapped]

        assert tables()[0] == tables()[1]
        for document, wrapping in zip(documents, wrapped):
            end = document.replace_range((1, 0), (1, 0), "x\n\n").end_location
            wrapping.wrap_range((1, 0), (1, 0), end)
        assert tables()[0] == tables()[1]
        for wrapping in wrapped:
            wrapping.wrap(0, 4)
        assert tables()[0] == tables()[1]
