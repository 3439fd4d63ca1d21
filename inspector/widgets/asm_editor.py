"""The assembly editor: a `TextArea` highlighted by our Pygments lexers, with diagnostics.

It edits text only and posts intents: `TextEdited` for every change (typing, paste,
undo, redo, the Lima order fix; to the screen directly, see `edit`), in the whole
text's line numbers (the editor may show a
window of a huge module: `first_line` is the window's first line), `CursorLineChanged`
for the panes to follow, and `Closed` on escape. The screen drives the editing session
and hands back the messages to show (`show_messages`): a mark in the gutter on each
line that has one, the message of the cursor's line under the editor, `f8`/`shift+f8`
to step through them. In Lima mode, `ctrl+o` fixes the order diagnostics of the
cursor's line. `EditorMessages` lists the same messages to pick one from.

Highlighting: `TextArea` highlights with tree-sitter; here `_build_highlight_map` (its
hook) gives it a per-line highlight table filled from Pygments tokens as lines are
drawn, each distinct line lexed once and cached by its text: opening a long text or
editing it lexes only the lines on screen.
"""

from __future__ import annotations

from collections.abc import Iterable

from pygments.lexer import Lexer
from rich.segment import Segment
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.document._document import Document
from textual.document._document_navigator import DocumentNavigator
from textual.document._wrapped_document import WrappedDocument
from textual.strip import Strip
from textual.widgets import OptionList, TextArea
from textual.widgets.text_area import Edit, EditResult, TextAreaTheme

from spvinspect.codec.diagnostics import Severity
from spvinspect.editing.incremental import changed_lines
from spvinspect.editing.language import EditorLanguage
from spvinspect.editing.session import LineMessage
from spvinspect.themes import token_style
from spvinspect.widgets.border_text import set_border_subtitle_alone
from spvinspect.widgets.scrollbars import QuietScrollbars

LEX_CACHE_LINES = 50_000
"""Distinct lines whose highlights are kept; the cache is emptied past this."""

Highlight = tuple[int, int | None, str]


class CountedWrappedDocument(WrappedDocument):
    """A `WrappedDocument` whose height is counted once per (re)wrap: `TextArea` asks for
    it at every line it draws, and counting it walks every line of the text. Without soft
    wrapping and tabs (assembly text, always) each line is one row with no tab stops, so
    a wrap is a few list comprehensions rather than a regex and a loop per line: the
    editor wraps its text several times while it opens."""

    _height: int | None = None

    @property
    def height(self) -> int:
        if self._height is None:
            self._height = WrappedDocument.height.fget(self)
        return self._height

    def wrap(self, width: int, tab_width: int | None = None) -> None:
        self._height = None
        lines = self.document.lines
        if width or any("\t" in line for line in lines):
            super().wrap(width, tab_width)
            self._height = None
            return
        self._width = width
        if tab_width:
            self._tab_width = tab_width
        count = len(lines)
        self._wrap_offsets = [[] for _ in range(count)]
        self._offset_to_line_info = [(row, 0) for row in range(count)]
        self._line_index_to_offsets = [[row] for row in range(count)]
        self._tab_width_cache = [[0] if line else [] for line in lines]  # as get_tab_widths gives them

    def wrap_range(self, start, old_end, new_end) -> None:
        self._height = None
        super().wrap_range(start, old_end, new_end)
        self._height = None


class JoinedOnceDocument(Document):
    """A `Document` whose whole text is joined once per change: `TextArea` asks for it at
    every line it draws (whether to show its placeholder), each time joining every line."""

    _joined: str | None = None

    @property
    def text(self) -> str:
        if self._joined is None:
            self._joined = Document.text.fget(self)
        return self._joined

    def replace_range(self, start, end, text):
        self._joined = None
        return super().replace_range(start, end, text)


class LineHighlights(dict):
    """Row → highlights of an editor's lines, each lexed when first asked for (by the
    TextArea drawing it) and cached by its text: only drawn lines are ever lexed."""

    def __init__(self, editor: AsmEditor) -> None:
        super().__init__()
        self._editor = editor

    def __bool__(self) -> bool:
        return True

    def __missing__(self, row: int) -> list[Highlight]:
        editor = self._editor
        document = editor.document
        if not 0 <= row < document.line_count:
            return []
        line = document.get_line(row)
        spans = editor._lexed.get(line)
        if spans is None:
            spans = editor._lexed[line] = editor._lex(line)
        self[row] = spans
        return spans


class EditorMessage(Message):
    """A message from one editor, which `control` names (so `@on(..., "#id")` can match it)."""

    def __init__(self, editor: AsmEditor) -> None:
        super().__init__()
        self.editor = editor

    @property
    def control(self) -> AsmEditor:
        return self.editor


class EditorLineMessage(EditorMessage):
    """A message from an editor about a line of its whole text."""

    def __init__(self, editor: AsmEditor, line: int) -> None:
        super().__init__(editor)
        self.line = line
        """The cursor's line in the whole text, for the panes to select."""


class AsmEditor(QuietScrollbars, TextArea):
    """SPIR-V or Lima assembly text under edit (see the module's docstring)."""

    DEFAULT_CSS = """
    AsmEditor { border-subtitle-align: left; }
    AsmEditor > .asm-editor--error-mark { color: $error; text-style: bold; }
    AsmEditor > .asm-editor--warning-mark { color: $warning; text-style: bold; }
    """
    COMPONENT_CLASSES = {"asm-editor--error-mark", "asm-editor--warning-mark"}

    BINDINGS = [
        Binding("escape", "close", "Back to panes", id="editor.close", tooltip="Leave the editor; the text is kept"),
        Binding("f8", "next_message", "Next problem", id="editor.next_message",
                tooltip="Move to the next line with a diagnostic"),
        Binding("shift+f8", "previous_message", "Previous problem", id="editor.previous_message",
                tooltip="Move to the previous line with a diagnostic"),
        Binding("ctrl+o", "fix_order", "Fix order", id="editor.fix_order",
                tooltip="Lima: put the line's ops in control-word order and destinations first"),
    ]

    _editing: tuple[int, int, int] | None = None
    """While `edit` runs: its first and last row, and the line count before it."""
    _colour_theme: tuple[str, bool] | None = None
    """The app theme's name and darkness whose Pygments colours highlight, once mounted."""

    class TextEdited(EditorMessage):
        """Lines [start, end) of the whole text now read `lines`."""

        def __init__(self, editor: AsmEditor, start: int, end: int, lines: list[str]) -> None:
            super().__init__(editor)
            self.start = start
            self.end = end
            self.lines = lines

    class CursorLineChanged(EditorLineMessage):
        """The cursor moved to another line (of the whole text)."""

    class Closed(EditorLineMessage):
        """Leave the editor for the panes (the text stays in the session)."""

    def __init__(
        self,
        text: str = "",
        *,
        syntax: EditorLanguage,
        first_line: int = 0,
        lines_before: int = 0,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        # Set before TextArea's __init__, which loads the text and moves the cursor.
        self.syntax = syntax
        """The format's lexer and line fix (`Format.editor_language`)."""
        self.first_line = first_line
        """The whole text's line shown as this editor's first (a huge module's window)."""
        self.lines_before = lines_before
        """The module's text's lines before the whole text's first (a region's): the
        gutter and the messages number lines from there, as spirv-dis's text does."""
        self._lexer: Lexer = syntax.lexer
        self._lexed: dict[str, list[Highlight]] = {}
        self._messages: dict[int, list[LineMessage]] = {}
        self._last_cursor_line = -1
        self._after_paint: list = []
        """Callbacks waiting for the next frame that shows the editor (`after_paint`)."""
        self._unpainted = True
        """The editor changed (a refresh is due) since a frame last showed it."""
        super().__init__(
            "", language=None, soft_wrap=False, show_line_numbers=True, tab_behavior="focus",
            name=name, id=id, classes=classes,
        )
        self._set_document(text, None)  # once: TextArea's __init__ wraps its text more often
        self.line_number_start = lines_before + first_line + 1

    # ------------------------------------------------------------ content

    def _set_document(self, text: str, language: str | None) -> None:
        """A plain-text document (the highlights are ours, not tree-sitter's), wrapped by
        `CountedWrappedDocument` from the start: `TextArea`'s own would wrap it twice more."""
        self._highlight_query = None
        self.document = JoinedOnceDocument(text)
        self.wrapped_document = CountedWrappedDocument(self.document, tab_width=self.indent_width)
        self.navigator = DocumentNavigator(self.wrapped_document)
        self._build_highlight_map()
        self.move_cursor((0, 0))
        self._rewrap_and_refresh_virtual_size()

    def after_paint(self, callback) -> None:
        """Run `callback` once a frame has shown the editor as it is now: for work that
        would hold up that frame (the panes following the cursor, a region's first job,
        which takes the GIL on its thread)."""
        if self._unpainted:
            self._after_paint.append(callback)
        else:
            self.call_after_refresh(callback)

    def refresh(self, *regions, **kwargs):
        self._unpainted = True
        return super().refresh(*regions, **kwargs)

    def render_lines(self, crop):
        strips = super().render_lines(crop)
        self._unpainted = False
        if self._after_paint:
            waiting, self._after_paint = self._after_paint, []
            for callback in waiting:
                self.call_after_refresh(callback)
        return strips

    def load_window(self, text: str, first_line: int, cursor_line: int | None = None, lines_before: int = 0) -> None:
        """Show `text` as the whole text's lines from `first_line`, numbered after
        `lines_before` lines (clears undo)."""
        self.first_line = first_line
        self.lines_before = lines_before
        self.line_number_start = lines_before + first_line + 1
        self.load_text(text)
        if cursor_line is not None:
            self.move_cursor((max(0, cursor_line - first_line), 0), center=True)

    def edit(self, edit: Edit) -> EditResult:
        """Apply an edit and post the lines it changed."""
        top, bottom = edit.top, edit.bottom
        self._editing = (top[0], bottom[0], self.document.line_count)
        try:
            result = super().edit(edit)
        finally:
            self._editing = None
        lines = [self.document.get_line(row) for row in range(top[0], result.end_location[0] + 1)]
        # To the screen at once (the screen acts on it): bubbling up through the containers
        # would wait for a repaint of the editor at each step, on every keystroke.
        self.screen.post_message(self.TextEdited(self, self.first_line + top[0], self.first_line + bottom[0] + 1, lines))
        return result

    def undo(self) -> None:
        """Undo the last batch of edits and post what changed."""
        self._post_difference(super().undo)

    def redo(self) -> None:
        """Redo the last undone batch and post what changed."""
        self._post_difference(super().redo)

    def _post_difference(self, action) -> None:
        before = list(self.document.lines)
        action()
        after = list(self.document.lines)
        change = changed_lines(before, after)
        if change is not None:
            first, old_end, new_end = change
            offset = self.first_line
            self.screen.post_message(self.TextEdited(self, offset + first, offset + old_end, after[first:new_end]))

    # ---------------------------------------------------------- highlighting

    def _build_highlight_map(self) -> None:
        """Highlights from Pygments tokens, made when a line is first drawn (`LineHighlights`):
        loading or editing a long text lexes only the lines on screen. An edit within lines
        (as many lines after as before) redraws those lines only: the rest of the rows, drawn
        from the same text, are kept (a keystroke redraws one row, not the whole editor)."""
        editing = self._editing
        if editing is not None and editing[2] == self.document.line_count:
            first, last, _ = editing
            cache = self._line_cache
            for key in [key for key in cache.keys() if first <= key[2] <= last]:
                cache.discard(key)
        else:
            self._line_cache.clear()
        if self._colour_theme is None:  # not mounted yet: on_mount highlights
            self._highlights = {}
            return
        if len(self._lexed) > LEX_CACHE_LINES:
            self._lexed.clear()
        self._highlights = LineHighlights(self)

    def _lex(self, line: str) -> list[Highlight]:
        """(start byte, end byte, style name) of each token of one line."""
        spans: list[Highlight] = []
        ascii_only = line.isascii()
        styles = self._theme.syntax_styles if self._theme is not None else {}
        for index, token_type, value in self._lexer.get_tokens_unprocessed(line):
            if not value or value.isspace():
                continue
            name = str(token_type)
            if name not in styles:
                styles[name] = token_style(*self._colour_theme, token_type)
            start = index if ascii_only else len(line[:index].encode("utf-8", "surrogateescape"))
            end = start + (len(value) if ascii_only else len(value.encode("utf-8", "surrogateescape")))
            spans.append((start, end, name))
        return spans

    def _use_theme(self) -> None:
        """A TextArea theme whose syntax styles come from the app theme's Pygments style."""
        app_theme = self.app.current_theme
        self._colour_theme = (self.app.theme, app_theme.dark)
        name = f"spvinspect-editor-{self.app.theme}"
        self.register_theme(TextAreaTheme(name, syntax_styles={}))
        self._lexed.clear()
        self.theme = name

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._theme_changed, init=False)
        self._use_theme()
        self._build_highlight_map()

    def _theme_changed(self, _theme: str) -> None:
        self._use_theme()
        self._build_highlight_map()
        self.refresh()

    # ------------------------------------------------------------ messages

    def show_messages(self, messages: Iterable[LineMessage]) -> None:
        """Show diagnostics (whole-text lines): gutter marks and the cursor line's message."""
        by_line: dict[int, list[LineMessage]] = {}
        for message in messages:
            row = message.line - self.first_line
            if 0 <= row < self.document.line_count:
                by_line.setdefault(row, []).append(message)
        if by_line == self._messages:
            return
        self._messages = by_line
        self._line_cache.clear()
        self._show_cursor_message()
        self.refresh()

    @property
    def message_lines(self) -> list[int]:
        """Rows (of this editor) that carry a message, in order."""
        return sorted(self._messages)

    def _render_line(self, y: int) -> Strip:
        strip = super()._render_line(y)
        if not self._messages or not self.show_line_numbers:
            return strip
        info = self.wrapped_document._offset_to_line_info
        offset = y + self.scroll_offset.y
        if offset >= len(info) or info[offset] is None:
            return strip
        row, section = info[offset]
        messages = self._messages.get(row)
        if not messages or section != 0:
            return strip
        error = any(m.diagnostic.severity is Severity.ERROR for m in messages)
        style = self.get_component_rich_style("asm-editor--error-mark" if error else "asm-editor--warning-mark")
        mark = Strip([Segment("●" if error else "▲", style)], 1)
        return Strip.join([mark, strip.crop(1, strip.cell_length)])

    def _show_cursor_message(self) -> None:
        messages = self._messages.get(self.cursor_location[0])
        if not messages:
            set_border_subtitle_alone(self, "")
            return
        first = messages[0]
        more = f" (+{len(messages) - 1})" if len(messages) > 1 else ""
        where = f"{self.lines_before + first.line + 1}:{first.column + 1}"
        # Plain text, not markup (`set_border_subtitle_alone`): a message quotes the user's text (`found '[/b'`).
        set_border_subtitle_alone(self, f"{where} {first.diagnostic.severity.value}: {first.diagnostic.message}{more}")

    def _watch_selection(self, previous_selection, selection) -> None:
        super()._watch_selection(previous_selection, selection)
        self._show_cursor_message()
        row = selection.end[0]
        if row != self._last_cursor_line:
            self._last_cursor_line = row
            self.post_message(self.CursorLineChanged(self, self.first_line + row))

    # ------------------------------------------------------------- actions

    def action_close(self) -> None:
        """Back to the panes (what waited for a frame of the editor runs now: none may come)."""
        waiting, self._after_paint = self._after_paint, []
        for callback in waiting:
            self.call_later(callback)
        self.post_message(self.Closed(self, self.first_line + self.cursor_location[0]))

    def action_next_message(self) -> None:
        """To the next line with a message (wrapping round)."""
        rows = self.message_lines
        if rows:
            here = self.cursor_location[0]
            row = next((r for r in rows if r > here), rows[0])
            self._go_to_message(row)

    def action_previous_message(self) -> None:
        """To the previous line with a message (wrapping round)."""
        rows = self.message_lines
        if rows:
            here = self.cursor_location[0]
            row = next((r for r in reversed(rows) if r < here), rows[-1])
            self._go_to_message(row)

    def _go_to_message(self, row: int) -> None:
        self.move_cursor((row, self._messages[row][0].column), center=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The fix key is the language's: without a fix it goes on to the screen."""
        if action == "fix_order" and self.syntax.fix_line is None:
            return False
        return super().check_action(action, parameters)

    def action_fix_order(self) -> None:
        """Fix the cursor line as its messages ask (Lima: field and destination order)."""
        row = self.cursor_location[0]
        messages = [m.diagnostic.message for m in self._messages.get(row, [])]
        line = self.document.get_line(row)
        fixed = self.syntax.fix_line(line, messages)
        if fixed is None:
            self.notify("Nothing to fix on this line", severity="information")
            return
        self.replace(fixed, (row, 0), (row, len(line)))


class EditorMessages(OptionList):
    """The editor's messages (assembler and validator) as a list to pick from: picking
    one posts `Chosen` with its place, for the screen to put the editor's cursor there."""

    DEFAULT_CSS = """
    EditorMessages { height: auto; max-height: 6; border-title-align: left; }
    """

    class Chosen(Message):
        """Go to this place of the whole text (0-based line and column)."""

        def __init__(self, line: int, column: int) -> None:
            super().__init__()
            self.line = line
            self.column = column

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)  # messages quote the user's text as written
        self._places: list[tuple[int, int]] = []
        self._shown: list[LineMessage] = []
        self._lines_before = 0
        self.border_title = "Problems"

    def show_messages(self, messages: list[LineMessage], lines_before: int = 0) -> None:
        """List `messages` (whole-text lines), one a line: `line:col severity: message`,
        the lines numbered after `lines_before` (a region's, see `AsmEditor.lines_before`)."""
        if messages == self._shown and lines_before == self._lines_before:
            return
        self._shown = list(messages)
        self._lines_before = lines_before
        self._places = [(m.line, m.column) for m in messages]
        self.clear_options()
        self.add_options(
            f"{lines_before + m.line + 1}:{m.column + 1} {m.diagnostic.severity.value}: {m.diagnostic.message}"
            for m in messages
        )

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(*self._places[event.option_index]))
