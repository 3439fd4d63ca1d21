"""Folds in the instruction list (issue #24) survive what re-lays out the rows: the
reading aids switched on and off, the naming switched, and an edit that re-assembles
the module (each fold is kept by the id of the function or block it folds)."""

from __future__ import annotations

from edit_pilot import edit_a_float
from inspector_apps import make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.folding import FOLD_MARK
from waiting import until as wait_until


def summaries(document) -> list[str]:
    """The folded rows' text, top to bottom."""
    return [document.row_text(row).strip() for row in range(document.row_count)
            if document.row_text(row).strip().startswith(FOLD_MARK)]


async def until(pilot, condition, what: str) -> None:
    """Wait until `condition()` holds, then for every message it was part of to land."""
    await wait_until(pilot, condition, what)
    await pilot.pause()


async def test_folds_are_kept_through_the_reading_aids_the_naming_and_an_edit():
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        document = screen.document
        block = next(i for i in range(document.instruction_count)
                     if document.module.instruction(i).opname == "OpLabel" and document.module.instruction(i).result_id == 85)
        screen.select(document.select_instruction(block + 1))
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        folded = summaries(screen.document)
        assert folded == ["▸ block %85: 6 instructions"]
        kept = screen.selection

        await pilot.press("a")  # the reading aids: the fold is laid out in their rows
        await until(pilot, lambda: screen.document.layout.aided, "the reading aids")
        assert summaries(screen.document) == folded
        assert screen.selection.word == kept.word and screen.document.row_text(screen.selection.row).strip() == folded[0]
        await pilot.press("a")
        await until(pilot, lambda: not screen.document.layout.aided, "the plain rows")
        assert summaries(screen.document) == folded and screen.selection == kept

        main = next(i for i in range(document.instruction_count) if document.module.instruction(i).opname == "OpFunction")
        screen.select(screen.document.select_instruction(main))
        await pilot.pause()
        await pilot.press("f", "r")  # the function folded, then raw ids: the summary in the new naming
        await pilot.pause()
        assert summaries(screen.document) == ["▸ %5: 63 instructions in 8 blocks"]
        await pilot.press("r", "f")  # names again, the function open
        await pilot.pause()
        assert summaries(screen.document) == []
        screen.select(screen.document.select_instruction(block + 1))
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        assert summaries(screen.document) == folded

        rows = screen.document.row_count
        await edit_a_float(pilot)  # re-assembles: a new document, the same folds
        assert screen.document is not document
        assert summaries(screen.document) == summaries(document) and screen.document.row_count == rows
