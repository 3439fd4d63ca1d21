"""Friendly names follow an edit (issue #27 item 8): a constant whose value changes is
named as spirv-dis names the edited module, in the list, the word detail and the search,
while the editor is open and after the save; and the editor opens in the style the list
shows (item 15)."""

from __future__ import annotations

from oracle import run_tool

from spvinspect.app import InspectorApp
from spvinspect.document import Document
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.status_line import StatusLine
from spvinspect.widgets.word_detail import WordDetailPanel
from test_app import rendered
from test_edit_app import open_editor, settled


def spirv_dis(data: bytes) -> str:
    """spirv-dis's text of a binary (friendly names, no header)."""
    run = run_tool("spirv-dis", "--no-header", "--no-color", "-", input=data)
    assert run.returncode == 0, run.stderr.decode()
    return run.stdout.decode()


async def test_a_changed_constant_is_renamed_as_spirv_dis_names_it(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    path.write_bytes(example_bytes)
    app = InspectorApp(Document(path.read_bytes(), path))
    async with app.run_test(size=(140, 44)) as pilot:
        await open_editor(pilot, r"%float_512 = OpConstant %float 512$")
        await pilot.press("3")
        await settled(pilot)
        screen = app.screen
        dis = spirv_dis(screen.editing.edit_session.binary)
        assert "%float_5123 = OpConstant %float 5123" in dis and "%float_512 " not in dis
        document = screen.document
        # Live, before any save: the list (its every line is spirv-dis's) and the word detail.
        lines = "\n".join(document.row_text(row) for row in range(document.instruction_count)).splitlines()
        assert [line.strip() for line in lines] == [line.strip() for line in dis.splitlines()]
        row = screen.selection.row
        assert "%float_5123 = OpConstant %float 5123" in document.row_text(row)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert path.read_bytes() == screen.editing.edit_session.binary
        await pilot.press("escape")  # back to the list
        await pilot.pause()
        listed = rendered(screen.query_one(InstructionList))
        assert "%float_5123 = OpConstant %float 5123" in listed and "%float_512 " not in listed
        for _ in range(3):  # the operand cursor onto the result id: the word detail names it anew
            selection = screen.selection
            if selection.operand is not None and document.module.instruction(selection.instruction).operands[selection.operand].kind == "IdResult":
                break
            await pilot.press("l")
        detail = rendered(screen.query_one(WordDetailPanel))
        assert "%float_5123" in detail and "%float_512 " not in detail
        await pilot.press("g", "g")
        await pilot.press("slash", *"%float_5123", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "No match" not in "".join(str(n.message) for n in app._notifications)
        assert screen.selection.row == row and "id %float_5123: match 1 of" in screen.query_one(StatusLine).detail
        # A use of it: the new name everywhere it is used, as spirv-dis prints it.
        uses = [line for line in dis.splitlines() if "%float_5123" in line and "OpConstant " not in line]
        assert uses and all(any(use.strip() == line.strip() for line in lines) for use in uses)


async def test_the_lima_editor_opens_in_the_style_the_list_shows(tmp_path):
    from spvinspect import lima
    from spvinspect.lima_document import LimaDocument
    from spvinspect.widgets.lima_list import LimaInstructionList
    from lima_apps import to_bytes as struct_words

    words, _ = lima.assemble("mov.v0 $0 $1\nstop, mov.v0 $1 $0")
    path = tmp_path / "code.bin"
    path.write_bytes(struct_words(words))
    app = InspectorApp(LimaDocument(path.read_bytes(), str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        listing = app.screen.query_one(LimaInstructionList)
        await pilot.press("e")  # seed syntax, as listed
        await settled(pilot)
        editor = app.screen.editing.editor
        assert editor.text.splitlines()[-1].startswith("stop,")
        first = next(row for row in range(app.screen.document.row_count) if "$1" in listing.shown_text(row))
        line = next(n for n, text in enumerate(editor.text.splitlines()) if "mov.v0 $0 $1" in text)
        editor.replace("$2", (line, editor.document.get_line(line).rindex("$1")), (line, editor.document.get_line(line).rindex("$1") + 2))
        await settled(pilot)
        assert "mov.v0 $0 $2" in listing.shown_text(first)  # the list shows the edited row
        editor.replace("$1", (line, editor.document.get_line(line).rindex("$2")), (line, editor.document.get_line(line).rindex("$2") + 2))
        await settled(pilot)
        assert "mov.v0 $0 $1" in listing.shown_text(first)
        await pilot.press("escape", "m")
        await pilot.pause()
        assert listing.style == "mesa"
        await pilot.press("e")  # nothing edited: the editor opens again in Mesa's syntax
        await settled(pilot)
        editor = app.screen.editing.editor
        mesa = [listing.shown_text(row) for row in range(app.screen.document.row_count)]
        assert [line.strip() for line in editor.text.splitlines()] == [line.strip() for line in mesa]
        editor.move_cursor((0, len(editor.document.get_line(0).rstrip())))
        editor.insert(" ")  # still assembles, and saves the same program
        await settled(pilot)
        assert app.screen.editing.edit_session.assembles
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert lima.decode(path.read_bytes()).instructions == lima.decode(struct_words(words)).instructions
        await pilot.press("escape", "m", "e")  # saved: the editor follows the list's style again
        await settled(pilot)
        assert app.screen.editing.editor.text.splitlines()[-1].startswith("stop,")
        app.screen.editing.editor.insert("\n", (0, 0))  # an unsaved edit keeps the style it was made in
        await settled(pilot)
        await pilot.press("escape", "m", "e")
        await settled(pilot)
        assert app.screen.editing.editor.text.splitlines()[-1].startswith("stop,") and app.screen.editing.unsaved
        assert "seed syntax" in "".join(str(n.message) for n in app._notifications)


def test_an_edited_documents_names_are_those_of_the_edited_module(example_bytes):
    """Edit after edit (literals, added and removed lines, new names), the document the
    panes get names every id as a fresh naming of its binary does, shared or not."""
    import random

    from spvinspect.codec.text.names import module_names
    from spvinspect.editing.follow import edited_document
    from spvinspect.editing.spirv_assembler import open_spirv_session
    from test_edit_spliced_module import edits

    session = open_spirv_session(example_bytes)
    document = Document(example_bytes, "example.spv")
    shared = renamed = 0
    for start, end, text in edits(session, random.Random(8), count=16):
        session.edit(start, end, text)
        while (job := session.request()) is not None:
            outcome = job.run()
            change = session.assembler.change_since_shown(outcome.state) if outcome.state is not None else None
            session.accept(outcome)
        if outcome.state is None:
            continue
        previous, document = document, edited_document(document, outcome.state.binary, change)
        fresh = module_names(Document(outcome.state.binary).module)
        ids = range(document.module.header.bound)
        assert [document.names(False).name(i) for i in ids] == [fresh.name(i) for i in ids]
        if document._names.get(False) is previous._names.get(False):
            shared += 1
        else:
            renamed += 1
    assert shared and renamed  # both ways were taken
