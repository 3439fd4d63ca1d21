"""A save never loses data, and nothing in the background ends the app: a file changed on
disk (before or after `e`) is never overwritten without asking, the change is told while
the app is open and `ctrl+r` reloads it, "save as" onto an existing file asks and keeps a
`.bak`, an `.mbs` name never gets a raw stream, a damaged MBS and a failing worker are
messages, and strings that are not UTF-8 go through the editor byte for byte."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from textual.widgets import Input

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.editing import spirv_assembler
from spvinspect.lima_document import LimaDocument
from spvinspect.screens.edit_dialogs import SaveChoice
from spvinspect.widgets.header_pane import HeaderPane
from spvinspect.widgets.instruction_list import InstructionList
from waiting import until
from edit_pilot import (
    TIMEOUT, TWO_MOVES, ctrl_s_after_a_change_on_disk, edit_a_float, insert_a_move, lima_opened_from, mbs_of,
    open_editor, opened_from, raw_stream, save_as, settled,
)


def another_module() -> bytes:
    """A different valid module: the example with its bound raised by one."""
    data = bytearray(EXAMPLE_MODULE.read_bytes())
    struct.pack_into("<I", data, 12, struct.unpack_from("<I", data, 12)[0] + 1)
    return bytes(data)


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def wait_for(pilot, condition, what: str) -> None:
    await until(pilot, condition, what, TIMEOUT)
    await pilot.pause()


async def save_an_edit_onto(pilot, existing: Path, answer: str) -> None:
    """An edit saved as a file that exists: the app asks, and `answer` is pressed."""
    await edit_a_float(pilot)
    await save_as(pilot, existing)
    assert isinstance(pilot.app.screen, SaveChoice) and "exists" in pilot.app.screen.question
    await pilot.press(answer)
    await pilot.pause()


# -- 1. a file changed on disk ---------------------------------------------------------------


async def test_a_module_replaced_before_e_is_not_overwritten_without_asking(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    other = another_module()
    async with app.run_test(size=(120, 40)) as pilot:
        path.write_bytes(other)  # from a shell, before the editor opens
        await edit_a_float(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveChoice) and "changed on disk" in app.screen.question
        await pilot.press("c")
        await pilot.pause()
        assert path.read_bytes() == other and app.screen.editing.unsaved
        assert not (tmp_path / "module.spv.bak").exists()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert path.read_bytes() == app.screen.editing.edit_session.binary
        assert (tmp_path / "module.spv.bak").read_bytes() == other  # nothing lost
        assert not app.screen.editing.unsaved


async def test_save_elsewhere_after_a_change_on_disk_leaves_the_file(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await ctrl_s_after_a_change_on_disk(pilot, path, another_module())
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "mine.spv")
        await pilot.press("enter")
        await pilot.pause()
        assert path.read_bytes() == another_module()
        assert (tmp_path / "mine.spv").read_bytes() == app.screen.editing.edit_session.binary


async def test_a_change_on_disk_is_told_while_open_and_ctrl_r_reloads_it(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    other = another_module()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen.document.data == example_bytes  # nothing changed: nothing reloaded
        path.write_bytes(other)
        await wait_for(pilot, lambda: any("changed on disk" in n and "ctrl+r" in n for n in notices(app)), "the notice")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.screen.document.data == other, "the reload")
        assert app.screen.query_one(HeaderPane).document.data == other
        assert app.screen.query_one(InstructionList).document.data == other
        await pilot.press("e")
        await settled(pilot)
        await pilot.press("ctrl+s")  # what is saved now is the reloaded file: no question
        await pilot.pause()
        assert not isinstance(app.screen, SaveChoice) and path.read_bytes() == other


async def test_ctrl_r_with_an_unsaved_edit_keeps_the_edit(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await edit_a_float(pilot)
        path.write_bytes(another_module())
        await wait_for(pilot, lambda: any("The edit is not saved" in n for n in notices(app)), "the notice")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen.editing.unsaved and any("Not reloaded" in n for n in notices(app))


# -- 2. save as onto an existing file ----------------------------------------------------------


async def test_save_as_onto_an_existing_file_asks_and_keeps_a_bak(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    other_path = tmp_path / "other.spv"
    other = another_module()
    other_path.write_bytes(other)
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await save_an_edit_onto(pilot, other_path, "escape")
        assert other_path.read_bytes() == other
        await save_as(pilot, other_path)
        await pilot.press("o")
        await pilot.pause()
        assert other_path.read_bytes() == app.screen.editing.edit_session.binary
        assert (tmp_path / "other.spv.bak").read_bytes() == other


# -- 3. .mbs names, 4. damaged MBS files, worker failures -------------------------------------


async def test_save_as_mbs_of_a_raw_stream_is_refused_in_words(tmp_path):
    path = tmp_path / "shader.bin"
    app = lima_opened_from(path, raw_stream(TWO_MOVES))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot)
        await save_as(pilot, tmp_path / "shader.mbs")
        assert not (tmp_path / "shader.mbs").exists()
        assert any("raw stream with no MBS container" in n for n in notices(app))


async def test_save_as_mbs_of_an_mbs_writes_the_container(tmp_path):
    path = tmp_path / "shader.mbs"
    app = lima_opened_from(path, mbs_of(raw_stream(TWO_MOVES)))
    async with app.run_test(size=(120, 40)) as pilot:
        await insert_a_move(pilot)
        await save_as(pilot, tmp_path / "copy.mbs")
        saved = (tmp_path / "copy.mbs").read_bytes()
        assert saved.startswith(b"MBS1") and len(lima.decode(saved).instructions) == 3
        assert not lima.decode(saved).diagnostics


async def test_editing_and_saving_a_damaged_mbs_is_a_message_not_a_crash(tmp_path):
    damaged = mbs_of(raw_stream(TWO_MOVES), code_chunk=b"XBIN")
    path = tmp_path / "shader.mbs"
    path.write_bytes(damaged)
    app = InspectorApp(LimaDocument(damaged, str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot)
        editor.insert("mov.v0 $2 $0\n")
        await settled(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.return_code is None and app.screen.editing.unsaved
        assert path.read_bytes() == damaged
        assert any("no fragment program code chunk" in n and "still in memory" in n for n in notices(app))
        await save_as(pilot, tmp_path / "shader.bin")  # the code is not lost: saved raw
        assert lima.decode((tmp_path / "shader.bin").read_bytes()).instructions


async def test_a_worker_that_fails_is_a_message_and_the_app_goes_on(example_bytes, monkeypatch):
    def broken_open(*args, **kwargs):
        raise RuntimeError("the session could not be built")

    monkeypatch.setattr(spirv_assembler, "open_spirv_session", broken_open)
    app = InspectorApp(Document(example_bytes, "example.spv"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("e")
        await wait_for(pilot, lambda: app.worker_failures, "the failure")
        assert any("Opening the editor failed: RuntimeError" in n for n in notices(app))
        await pilot.press("j", "j")
        assert app.return_code is None and app.screen.selection.row == 2


# -- 5. strings that are not UTF-8 -------------------------------------------------------------


def module_with_a_string_not_utf8() -> bytes:
    data = EXAMPLE_MODULE.read_bytes()
    at = data.index(b"example.frag")
    return data[:at] + b"ex\xffmple.frag" + data[at + 12 :]


async def test_a_string_that_is_not_utf8_goes_through_the_editor_byte_for_byte(tmp_path):
    path = tmp_path / "module.spv"
    data = module_with_a_string_not_utf8()
    app = opened_from(path, data)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"OpString")
        shown = editor.document.get_line(editor.cursor_location[0])
        assert "ex\u28ffmple.frag" in shown  # a braille stand-in for 0xff
        assert any("not UTF-8" in n for n in notices(app))
        await pilot.press("escape")
        await edit_a_float(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = path.read_bytes()
        assert b"ex\xffmple.frag\0" in saved and saved == app.screen.editing.edit_session.binary != data
        await save_as(pilot, tmp_path / "module.spvasm")
        assert b'"ex\xffmple.frag"' in (tmp_path / "module.spvasm").read_bytes()


# -- 15. the editor after a save that changed an MBS's length ----------------------------------


async def test_after_a_save_that_grows_an_mbs_the_editor_shows_its_new_sizes(tmp_path):
    path = tmp_path / "shader.mbs"
    app = lima_opened_from(path, mbs_of(raw_stream(TWO_MOVES)))
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await insert_a_move(pilot)
        await pilot.press("ctrl+s")
        await settled(pilot)
        size = len(path.read_bytes()) - 8
        assert editor.document.get_line(0) == f"# MBS1 at byte 0x0, {size} bytes"
        assert app.screen.editing.edit_session.lines[0] == editor.document.get_line(0)
        assert not app.screen.editing.unsaved
        await pilot.press("ctrl+s")  # saving again writes the same bytes
        await settled(pilot)
        assert len(path.read_bytes()) - 8 == size


async def test_a_module_not_opened_from_a_file_asks_before_its_first_save_replaces_one(tmp_path, example_bytes):
    other_path = tmp_path / "other.spv"
    other_path.write_bytes(another_module())
    app = InspectorApp(Document(example_bytes, tmp_path / "never-written.spv"))
    async with app.run_test(size=(120, 40)) as pilot:
        await save_an_edit_onto(pilot, other_path, "c")
        assert other_path.read_bytes() == another_module()


@pytest.mark.parametrize("edited_first", [False, True])
async def test_ctrl_r_reloads_a_lima_program_changed_on_disk(tmp_path, edited_first):
    path = tmp_path / "shader.bin"
    app = lima_opened_from(path, raw_stream(TWO_MOVES))
    three = raw_stream("mov.v0 $0 $1\nmov.v0 $2 $0\nstop, mov.v0 $1 $0")
    async with app.run_test(size=(120, 40)) as pilot:
        if edited_first:
            await open_editor(pilot)
            await pilot.press("escape")
        path.write_bytes(three)
        await wait_for(pilot, lambda: any("ctrl+r reloads" in n for n in notices(app)), "the notice")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(app.screen.document.instructions) == 3, "the reload")
        assert app.return_code is None and app.screen.editing.edit_session is None
