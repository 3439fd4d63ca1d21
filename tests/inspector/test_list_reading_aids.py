"""The reading aids in the list (`a`): the rows `spvinspect dis --comment --nested-indent
--reorder-blocks` prints, every instruction still on one row with its offset."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style

from spvinspect.cli import main
from spvinspect.codec.binary.decoder import decode
from inspector_apps import make_app
from spvinspect.document import Document
from spvinspect.widgets.instruction_list import CONTROL_PICTURES, GUTTER_WIDTH, InstructionList

ROOT = Path(__file__).resolve().parents[2]
AIDS = ("--comment", "--nested-indent", "--reorder-blocks", "--no-header")
UNDO_PICTURES = {ord(picture): code for code, picture in CONTROL_PICTURES.items()}


def dis_with_aids(capsysbinary, path: Path, raw: bool = False) -> str:
    """What `spvinspect dis` prints with every reading aid (its `main`, run in this process:
    a new interpreter per module would cost more than the comparison)."""
    capsysbinary.readouterr()
    code = main(["dis", *AIDS, *(["--raw-id"] if raw else []), str(path)])
    out = capsysbinary.readouterr()
    assert code == 0, out.err.decode("utf-8", "replace")
    return out.out.decode("utf-8", "surrogateescape")


def aided(path: Path, raw: bool = False) -> Document:
    document = Document(path.read_bytes(), path)
    document.use_layout(document.reading_aids_layout(raw))
    return document


def test_rows_are_dis_with_reading_aids(corpus, example_bytes, capsysbinary):
    modules = sorted((corpus / "spv").glob("*.spv"))[::25]
    for path in [ROOT / "inspector/examples/example.spv", *modules]:
        for raw in (False, True):
            document = aided(path, raw)
            shown = "".join(document.row_text(row, raw) + "\n" for row in range(document.row_count))
            assert shown == dis_with_aids(capsysbinary, path, raw), path.name


def test_every_instruction_keeps_its_row_and_offset(example_bytes):
    document = aided(ROOT / "inspector/examples/example.spv")
    module = decode(example_bytes)
    rows = [document.layout.row_of(k) for k in range(len(module.instructions))]
    assert len(set(rows)) == len(rows)
    for k, inst in enumerate(module.instructions):
        assert document.row_word(rows[k]) == inst.offset
        assert document.row_instruction(rows[k]) == k
        assert document.select_word(inst.offset + 1).row == rows[k] or inst.word_count == 1
    comments = [row for row in range(document.row_count) if document.row_instruction(row) is None]
    assert any(document.row_text(row).strip() == "; Function main" for row in comments)
    assert all(document.row_word(row) is None for row in comments)


def test_blocks_and_functions_move_by_row(example_bytes):
    document = aided(ROOT / "inspector/examples/example.spv")
    first_function = document.function_starts[0]
    assert document.row_text(first_function).endswith("= OpFunction %void None %4")
    label = document.block_row(first_function, 1)
    assert document.row_text(label).strip().startswith("%6 = OpLabel")
    assert document.function_row(first_function, 1) == document.function_starts[1]


async def test_the_key_toggles_the_reading_aids_and_keeps_the_selection(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        document = app.screen.document
        module = decode(example_bytes)
        store = next(k for k, i in enumerate(module.instructions) if i.opname == "OpStore")
        app.screen.select(document.select_instruction(store, 0))
        await pilot.press("a")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert document.layout.aided
        selection = app.screen.selection
        assert (selection.instruction, selection.operand) == (store, 0)
        assert document.row_text(selection.row).split() == document.listing().line(store).split()
        widget = app.screen.query_one(InstructionList)
        for row in range(document.row_count):
            text = widget.render_row(row, 0, GUTTER_WIDTH + 4 * len(document.row_text(row)) + 8, Style()).text
            assert text[GUTTER_WIDTH:].rstrip(" ").translate(UNDO_PICTURES) == document.row_text(row)
        assert "reading aids" in app.screen.query_one("StatusLine").mode
        await pilot.press("a")
        await pilot.pause()
        assert not document.layout.aided
        assert app.screen.selection.row == store


async def test_raw_ids_with_reading_aids_on_a_row_past_the_plain_rows(example_bytes):
    """`r` lays the rows out again (plain, then with the aids in the new naming): the
    list's old selection was a row of the old layout, past the plain layout's last row
    (an IndexError ended the app; found by benchmarks/fuzz_app.py)."""
    app = make_app(example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        document = app.screen.document
        module = decode(example_bytes)
        last = max(k for k, i in enumerate(module.instructions) if i.operands and i.opname == "OpReturnValue")
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.screen.select(document.select_instruction(last, 0))
        await pilot.pause()
        assert app.screen.selection.row >= len(module.instructions)  # past the plain rows
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.selection.instruction == last and document.layout.aided
        assert app.screen.raw and "OpReturnValue %" in document.row_text(app.screen.selection.row)
