"""Live editing in the app: `e` opens the editor on the selected instruction, typing
re-assembles and the panes follow, errors show at their line:col while the last good
binary stays, undo and redo, validation, saving with FILE.bak, the changed-on-disk and
quit questions, and Lima mode's editor saving an MBS."""

from __future__ import annotations

import struct

import pytest

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.lima_document import LimaDocument
from spvinspect.screens.edit_dialogs import Question, SaveChoice
from spvinspect.widgets.asm_editor import EditorMessages
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.instruction_list import InstructionList
from edit_pilot import (
    TIMEOUT, TWO_MOVES, chunk, ctrl_s_after_a_change_on_disk, edit_a_float, insert_a_move, lima_opened_from,
    mbs_of, open_editor, opened_from, raw_stream, save_as, settled,
)
from inspector_apps import make_app
from waiting import PATIENCE, until


def row_of_line(screen, line: int) -> int:
    """The list row showing the instruction on a line of the text."""
    return screen.document.select_word(screen.editing.edit_session.location_of_line(line)).row


async def test_e_opens_the_editor_on_the_selected_instruction(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"jjjjjjjjjjjj")
        selected = app.screen.selection
        editor = await open_editor(pilot)
        line = editor.first_line + editor.cursor_location[0]
        assert app.screen.editing.edit_session.location_of_line(line) == selected.word
        assert editor.has_focus and not app.screen.query_one(InstructionList).display
        await pilot.press("slash")  # typed, not the search bar
        assert editor.document.get_line(editor.cursor_location[0]).startswith("/")
        await pilot.press("backspace")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one(InstructionList).has_focus and not editor.display


async def test_the_editor_opens_ahead_of_the_index_and_the_panes_follow_it_once_painted(example_bytes):
    """`e`: the index worker rests from the key until a frame has shown the editor. Cursor
    moves in the editor: the frame that shows the cursor's new line comes first, the panes
    follow after it, once for all the moves made by then (of the last)."""
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        frames: list[tuple[tuple[int, int] | None, int | None]] = []
        """Each frame painted: the editor's cursor (when shown) and the selected word."""

        def seen():
            editor = screen.editing.editor
            shown = editor is not None and editor.display and editor.is_mounted
            return (editor.cursor_location if shown else None, screen.selection.word)

        paint = screen._compositor_refresh

        def painted() -> None:
            paint()
            frames.append(seen())

        screen._compositor_refresh = painted
        pauses = []
        pause = screen.view.pause_background
        screen.view.pause_background = lambda paused: (pauses.append((paused, len(frames))), pause(paused))
        editor = await open_editor(pilot)
        await until(pilot, lambda: pauses and not pauses[-1][0], "the index worker resumed after the editor")
        opened = next(k for k, (cursor, _) in enumerate(frames) if cursor is not None)
        assert [paused for paused, _ in pauses] == [True, False] and pauses[0][1] <= opened < pauses[1][1]

        session = screen.editing.edit_session
        rows = [k for k, line in enumerate(session.lines) if "OpLabel" in line or "OpReturn" in line][:3]
        follows = []
        select = screen.select
        screen.select = lambda selection, jump=False: (follows.append(selection.word), select(selection, jump))
        before = screen.selection.word
        for row in rows:
            editor.move_cursor((row - editor.first_line, 0))
        await until(pilot, lambda: follows and frames[-1][1] == screen.selection.word,
                    "the panes followed the cursor and a frame showed it")
        last = session.location_of_line(editor.first_line + rows[-1])
        assert follows == [last] and screen.selection.word == last != before
        cursor = (rows[-1] - editor.first_line, 0)
        first = next(k for k, (shown, _) in enumerate(frames) if shown == cursor)
        assert frames[first][1] == before and frames[-1] == (cursor, last)


async def test_typing_reassembles_and_the_panes_follow_with_the_changed_words_marked(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"= OpConstant %float \d")
        screen = app.screen
        line = editor.first_line + editor.cursor_location[0]
        before = screen.document.row_text(row_of_line(screen, line))
        await pilot.press("7")
        await settled(pilot)
        session = screen.editing.edit_session
        assert screen.document.data == session.binary != example_bytes
        row = row_of_line(screen, line)
        assert screen.document.row_text(row) != before and session.lines[line].strip().endswith("7")
        words = [w for start, end in session.changed.ranges for w in range(start, end)]
        assert words and all(w in screen.query_one(HexView).changed for w in words)
        assert screen.selection.row == row  # the panes are on the editor's line
        assert screen.editing.edit_latencies


async def test_a_syntax_error_shows_at_its_line_and_column_and_the_last_good_binary_stays(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"= OpTypeFloat 32$")
        screen = app.screen
        line = editor.first_line + editor.cursor_location[0]
        column = editor.cursor_location[1]
        await pilot.press("x")
        await settled(pilot)
        session = screen.editing.edit_session
        assert not session.assembles
        (message,) = session.messages()
        assert (message.line, message.column) == (line, column - 2)  # at the literal "32x"
        assert screen.document.data == example_bytes  # the last good binary stays
        listed = screen.query_one(EditorMessages)
        assert listed.display and listed.option_count == 1
        assert f"{line + 1}:{column - 1}" in str(listed.get_option_at_index(0).prompt)
        assert editor.message_lines == [line - editor.first_line]
        assert "error" in str(editor.border_subtitle)
        await pilot.press("backspace")
        await settled(pilot)
        assert session.assembles and session.messages() == [] and not listed.display
        assert screen.document.data == example_bytes


async def test_undo_and_redo_reassemble(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot, r"= OpConstant %int \d+$")
        screen = app.screen
        await pilot.press("9")
        await settled(pilot)
        edited = screen.document.data
        assert edited != example_bytes
        await pilot.press("ctrl+z")
        await settled(pilot)
        assert screen.document.data == example_bytes and not screen.editing.edit_session.changed
        await pilot.press("ctrl+y")
        await settled(pilot)
        assert screen.document.data == edited


async def test_the_validator_speaks_on_a_module_an_edit_made_invalid(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"^\s*OpReturn$")
        screen = app.screen
        lines = screen.editing.edit_session.lines
        row = editor.cursor_location[0]
        editor.replace("OpNop", (row, len(lines[editor.first_line + row]) - len("OpReturn")),
                       (row, len(lines[editor.first_line + row])))
        await settled(pilot)
        assert screen.editing.edit_session.assembles
        await until(pilot, lambda: screen.editing.edit_session.validation is not None, "the validator's verdict", TIMEOUT)
        validation = screen.editing.edit_session.validation
        assert validation is not None and validation.unavailable is None and not validation.valid
        found = [m for m in screen.editing.edit_session.messages() if m.diagnostic.message.startswith("spirv-val:")]
        assert found and screen.query_one(EditorMessages).option_count >= len(found)


async def test_closing_the_editors_screen_stops_the_validator_it_started(example_bytes, tmp_path, monkeypatch):
    """spirv-val takes seconds of a core on a huge module: the editing jobs stopped (the
    screen closing, a region's session dropped when it moves) end its run, which would
    otherwise go on beside the next session's."""
    import os
    import stat
    import subprocess

    from spvinspect.editing import validation

    monkeypatch.setattr(validation, "TIMEOUT_SECONDS", 600.0)  # not ended by its time limit
    slow = tmp_path / "spirv-val"
    slow.write_text("#!/bin/sh\nexec sleep 600\n")
    slow.chmod(slow.stat().st_mode | stat.S_IXUSR)
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"^\s*OpReturn$")
        screen = app.screen
        screen.editing.edit_session.assembler.validator = os.fspath(slow)
        lines = screen.editing.edit_session.lines
        row = editor.cursor_location[0]
        editor.replace("OpNop", (row, len(lines[editor.first_line + row]) - len("OpReturn")),
                       (row, len(lines[editor.first_line + row])))
        await until(pilot, lambda: validation.RUNNING, "spirv-val runs on the edit")
        (process,) = list(validation.RUNNING)
    try:
        process.wait(timeout=PATIENCE)  # a condition: it ends at once once killed
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("the closed screen's spirv-val still runs") from None


async def test_ctrl_s_saves_keeping_the_original_as_bak(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await edit_a_float(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert path.read_bytes() == app.screen.editing.edit_session.binary != example_bytes
        assert (tmp_path / "module.spv.bak").read_bytes() == example_bytes
        assert not app.screen.editing.unsaved


async def test_a_file_changed_on_disk_is_overwritten_only_when_the_user_says_so(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await ctrl_s_after_a_change_on_disk(pilot, path, b"someone else's bytes")
        assert isinstance(app.screen, SaveChoice)
        await pilot.press("n")
        await pilot.pause()
        assert path.read_bytes() == b"someone else's bytes" and app.screen.editing.unsaved
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert path.read_bytes() == app.screen.editing.edit_session.binary


async def test_a_failed_save_says_why_and_keeps_the_edit(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await edit_a_float(pilot)
        await save_as(pilot, tmp_path / "missing" / "out.spv")
        assert app.screen.editing.unsaved and not (tmp_path / "missing").exists()
        notices = [n.message for n in app._notifications]
        assert any("cannot save" in n and "still in memory" in n for n in notices)


async def test_save_as_spvasm_writes_the_text(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot)
        await save_as(pilot, tmp_path / "module.spvasm")
        assert (tmp_path / "module.spvasm").read_text() == app.screen.editing.edit_session.text


async def test_quitting_with_unsaved_changes_asks(example_bytes):
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await edit_a_float(pilot)
        await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, Question)
        await pilot.press("n")
        await pilot.pause()
        assert app.return_code is None and not isinstance(app.screen, Question)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.return_code == 0


async def test_lima_mode_edits_and_saves_an_mbs(tmp_path):
    fins = chunk(b"FINS", struct.pack("<III", 0, 2, 0))
    path = tmp_path / "shader.mbs"
    app = lima_opened_from(path, mbs_of(raw_stream(TWO_MOVES), fins))
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await insert_a_move(pilot)
        screen = app.screen
        assert screen.editing.edit_session.assembles and len(screen.document.instructions) == 3
        assert screen.selection.instruction == 1 and editor.has_focus
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = lima.decode(path.read_bytes())
        assert len(saved.instructions) == 3 and (tmp_path / "shader.mbs.bak").exists()


async def test_lima_mode_lists_the_edited_program():
    """After an edit the Lima list shows the new rows, not the ones it drew before."""
    app = InspectorApp(LimaDocument(raw_stream(TWO_MOVES), "code.bin"))
    async with app.run_test(size=(120, 40)) as pilot:
        from spvinspect.widgets.lima_list import LimaInstructionList

        listing = app.screen.query_one(LimaInstructionList)
        before = listing.shown_text(0)
        await insert_a_move(pilot)
        await pilot.press("escape")
        await pilot.pause()
        document = app.screen.document
        shown = [listing.shown_text(row) for row in range(document.row_count)]
        assert shown == [document.row_text(row, listing.style) for row in range(document.row_count)]
        assert len(shown) == 3 and shown[0] == before


@pytest.mark.parametrize("size", [(120, 40)])
def test_editor_snapshot(snap_compare, size):
    async def edit(pilot) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()  # the index: the header's counts are final
        await pilot.press(*"jjjjjjjjjjjjjjjjjjjj")
        editor = await open_editor(pilot, r"= OpTypeFloat 32$")
        editor.cursor_blink = False
        await pilot.press("x")
        await settled(pilot)

    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark")
    assert snap_compare(app, terminal_size=size, run_before=edit)


async def test_the_cfg_pane_follows_the_selection_after_an_edit(example_bytes):
    """After an edit the CFG pane takes the new binary and keeps following the selection,
    unfolding inside a function and folding outside every function."""
    app = make_app(example_bytes, "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"= OpConstant %float \d")
        await pilot.press("7")
        await settled(pilot)
        screen = app.screen
        cfg = screen.query_one(CfgView)
        box = screen.query_one("#cfg-box")

        async def followed(where: str) -> None:
            span = screen.view.function_graphs().span_at(screen.selection.instruction)
            wanted = span.result_id if span is not None else None
            await until(pilot, lambda: cfg.function_id == wanted and box.has_class("-idle") == (wanted is None),
                        f"the CFG pane following {where}", TIMEOUT)
            assert cfg.function_id == wanted, f"the CFG pane stayed on {cfg.function_id} {where}"
            assert box.has_class("-idle") == (wanted is None), f"the CFG pane did not fold or unfold {where}"

        lines = screen.editing.edit_session.lines
        label = next(k for k, line in enumerate(lines) if "OpLabel" in line)
        editor.move_cursor((label - editor.first_line, 0))
        await followed("on the editor's move into a function")
        await pilot.press("escape")
        for key in ("]", "]", "[", "g", "g"):
            await pilot.press(key)
            await followed(f"after {key}")
