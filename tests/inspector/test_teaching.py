"""Teaching the format in the app (issue #24): the word table pane, the grammar card's
word-count rule and spec numbering, the colour legend, the guided tour."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector_apps import after_keys, byte_swapped, make_app
from spvinspect.codec.asm import assemble
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.screens.grammar_card import GrammarCardScreen
from spvinspect.screens.help import HelpScreen
from spvinspect.tour import EXAMPLE_TOUR, TourError, find_place, load_tour, parse_tour
from spvinspect.widgets.colour_legend import ColourLegend
from spvinspect.widgets.tour_pane import TourPane
from spvinspect.widgets.word_table_pane import WordTablePane

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codec"))
from test_word_table import MODULE  # noqa: E402  (the codec test's module: one source)

SIZE = (120, 40)


def module_bytes() -> bytes:
    return assemble(MODULE).binary


def shown_rows(pane: WordTablePane) -> list[str]:
    """Each row of the table as the user reads it, cells joined by ' | '."""
    return [" | ".join(str(cell) for cell in pane.get_row_at(row)) for row in range(pane.row_count)]


def index_of(app, opname: str) -> int:
    document = app.screen.document
    return next(i for i in range(document.instruction_count) if document.module.instruction(i).opname == opname)


async def select(pilot, opname: str, operand: int | None = None) -> WordTablePane:
    app = pilot.app
    app.screen.select(app.screen.document.select_instruction(index_of(app, opname), operand))
    await pilot.pause()
    return app.screen.query_one(WordTablePane)


async def test_the_word_table_shows_every_word_of_the_selected_instruction():
    app = make_app(module_bytes(), "teach.spv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pane = app.screen.pane("words")  # built on asking, hidden
        assert isinstance(pane, WordTablePane) and not pane.display
        await pilot.press("6")
        await pilot.pause()
        assert pane.display and pane.has_focus

        pane = await select(pilot, "OpStore", 2)
        rows = shown_rows(pane)
        assert "word count 3 + variable" in pane.border_title and "OpStore" in pane.border_title
        assert rows[0].startswith("0 | ") and "word count 5, opcode 62 (OpStore)" in rows[0]
        assert "0000000000000101 | 0000000000111110" in rows[0]
        assert "operand 3 (MemoryAccess)\nVolatile|Aligned" in rows[3]
        assert rows[4].endswith("4\ntied to MemoryAccess Aligned (bit 0x2)")
        assert pane.cursor_row == 3  # the selected operand's word

        rows = shown_rows(await select(pilot, "OpSwitch"))
        low, high = rows[3], rows[4]
        assert "4294967296, low word" in low and "4294967296, high word" in high
        assert "tied to pair 1 (case literal): 4294967296 -> %b" in low
        assert "tied to pair 1 (target label)" in rows[5]

        rows = shown_rows(await select(pilot, "OpPhi"))
        assert rows[6].endswith("%b\ntied to pair 2 (from block): value %x from block %b")

        pane = await select(pilot, "OpExtInst")
        assert pane.border_title.endswith("word count 6")  # Sqrt: OpExtInst's five words and x
        assert any("'Instruction'" in r and "Sqrt" in r for r in shown_rows(pane))

        rows = shown_rows(await select(pilot, "OpName"))
        assert "word 2 of 4: bytes 5-8 of 12: '_é_'" in rows[3]  # a string spanning words

        # The header: the version word as its bytes; the hex cursor's word is the row.
        await pilot.press("4", "home", "right")
        await pilot.pause()
        assert pane.border_title.startswith("Words · header")
        assert pane.cursor_row == 1 and "0 | 1 | 6 | 0" in shown_rows(pane)[1]
        await pilot.press("right")
        await pilot.pause()
        assert pane.cursor_row == 2
        # Moving in the table selects its word.
        await pilot.press("6", "down")
        await pilot.pause()
        assert app.screen.selection.word == 3


async def test_a_big_endian_module_and_the_grammar_card():
    app = make_app(byte_swapped(module_bytes()), "big.spv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("6")
        pane = await select(pilot, "OpStore")
        assert shown_rows(pane)[0].split(" | ")[2] == "00 05 00 3e"  # the file's byte order
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, GrammarCardScreen)
        body = app.screen.query_one("#card-body")
        shown = "\n".join(strip.text for strip in body.render_lines(body.region.reset_offset))
        assert "Word count  3 + variable" in shown
        assert "1 'Pointer' (IdRef)" in shown and "3 MemoryAccess (optional)" in shown
        await pilot.press("y")
        assert app.clipboard == app.screen.card.spec_url
        await pilot.press("escape")
        await select(pilot, "OpStore", 2)  # the mask: every set bit with its parameters
        await pilot.press("c")
        await pilot.pause()
        body = app.screen.query_one("#card-body")
        shown = "\n".join(strip.text for strip in body.render_lines(body.region.reset_offset))
        assert app.screen.card.title == "MemoryAccess Volatile|Aligned (0x3)"
        assert "0x1 Volatile" in shown and "0x2 Aligned, then LiteralInteger" in shown

        # Folding: the block at the cursor, then the function; the selection stays.
        await pilot.press("escape", "2")
        screen, document = app.screen, app.screen.document
        rows = document.row_count
        kept = await select(pilot, "OpStore", 2) and screen.selection
        await pilot.press("f")
        await pilot.pause()
        folded = screen.selection
        assert (folded.word, folded.instruction, folded.operand) == (kept.word, kept.instruction, kept.operand)
        assert document.row_text(folded.row).strip() == "▸ block %a: 6 instructions"
        assert document.row_count == rows - 5 and screen.query_one("#list").cursor_row == folded.row
        await pilot.press("f")
        await pilot.pause()
        assert screen.selection == kept and document.row_count == rows
        await pilot.press("left_square_bracket", "f")
        await pilot.pause()
        assert document.row_text(screen.selection.row).strip().endswith(": 13 instructions in 3 blocks")
        assert document.row_count == rows - 12
        await pilot.press("k", "j")  # off the summary row and back onto it
        await pilot.pause()
        assert document.module.instruction(screen.selection.instruction).opname == "OpFunction"
        await pilot.press("f")
        await pilot.pause()
        assert document.row_count == rows and document.row_text(screen.selection.row).strip().startswith("%main")


async def test_the_tour_selects_what_each_step_names_and_leaving_keeps_the_selection():
    tour = load_tour(EXAMPLE_TOUR)
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", tour=tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        document = screen.document
        pane = screen.pane("tour")  # built on asking, hidden
        assert isinstance(pane, TourPane)
        for number, step in enumerate(tour.steps, 1):
            await pilot.press("t")
            await pilot.pause()
            word, missed = find_place(document, step.place)
            assert not missed and screen.selection.word == word
            selection = screen.selection
            if step.place.instruction:
                instruction = document.module.instruction(selection.instruction)
                assert instruction.opname == step.place.instruction
                assert word - instruction.offset == step.place.word
            else:
                assert selection.instruction is None and word == step.place.word
            if step.pane:
                assert screen.pane(step.pane).display
            assert f"step {number} of {len(tour.steps)}" in pane.border_title
        assert "A decoration" in [s.title for s in tour.steps]
        assert "Binding 0" in document.row_text(document.select_word(find_place(document, tour.steps[6].place)[0]).row)
        await pilot.press("T")
        await pilot.pause()
        kept = screen.selection
        assert kept.word == find_place(document, tour.steps[-2].place)[0]
        await pilot.press("escape")
        await pilot.pause()
        assert not pane.display and screen.selection == kept

        # The legend: L shows and hides it, in the theme's colours; the help has it too.
        legend = screen.pane("legend")  # built on asking, hidden
        assert isinstance(legend, ColourLegend) and not legend.display
        await pilot.press("L")
        await pilot.pause()
        assert legend.display
        body = legend.query_one("#legend-body")
        text = "\n".join(strip.text for strip in body.render_lines(body.region.reset_offset))
        assert "Hex pane: header count|opcode" in text and "Instruction list: defined-id opcode" in text
        await pilot.press("L", "question_mark")
        await pilot.pause()
        assert not legend.display and isinstance(app.screen, HelpScreen)
        help_legend = app.screen.query_one("#help-legend")
        text = "\n".join(strip.text for strip in help_legend.render_lines(help_legend.region.reset_offset))
        assert "the word under the cursor" in text and "an <id> the instruction reads" in text


def test_a_bad_tour_says_what_and_where():
    with pytest.raises(TourError, match=r"^t.toml: not TOML: "):
        parse_tour("[[step]\n", "t.toml")
    with pytest.raises(TourError, match=r"^t.toml: step 2: 'text' is missing"):
        parse_tour('[[step]]\ntitle="a"\ntext="b"\nat={word=0}\n[[step]]\ntitle="c"\nat={word=1}\n', "t.toml")
    with pytest.raises(TourError, match=r"^t.toml: step 1: at: nth = 0: a whole number from 1"):
        parse_tour('[[step]]\ntitle="a"\ntext="b"\nat={instruction="OpString", nth=0}\n', "t.toml")
    with pytest.raises(TourError, match=r"^t.toml: step 1: pane 'nope' is no pane: one of hex, words"):
        parse_tour('[[step]]\ntitle="a"\ntext="b"\npane="nope"\nat={word=0}\n', "t.toml", frozenset({"hex", "words"}))
    with pytest.raises(TourError, match=r"^t.toml: no steps"):
        parse_tour('title = "empty"\n', "t.toml")


def test_snapshot_word_table_legend_and_tour_120x40(snap_compare):
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark", tour=load_tour(EXAMPLE_TOUR))
    assert snap_compare(app, terminal_size=(120, 40), run_before=after_keys(*"tttt", "L", one_by_one=True))


def test_snapshot_tour_step_80x24(snap_compare):
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark", tour=load_tour(EXAMPLE_TOUR))
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys(*"tttt", one_by_one=True))


def test_snapshot_word_table_80x24(snap_compare):
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark", tour=load_tour(EXAMPLE_TOUR))
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys(*"tttt", "6", one_by_one=True))


def test_snapshot_legend_80x24(snap_compare):
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys("L"))


def test_folded_rows_map_to_their_instructions_and_back():
    from spvinspect.folding import FoldedLayout
    from spvinspect.layouts import PlainLayout

    layout = FoldedLayout(PlainLayout(100, 2), [(40, 49, "▸ b"), (10, 19, "▸ a")])
    assert layout.count == 102 - 18
    assert [layout.instruction(r) for r in (9, 10, 11, 30, 31, 32)] == [9, 10, 20, 39, 40, 50]
    assert layout.text(10) == "▸ a" and layout.text(31) == "▸ b" and layout.text(11) is None
    assert [layout.row_of(i) for i in (9, 10, 15, 19, 20, 45, 50, 99)] == [9, 10, 10, 10, 11, 31, 32, 81]
    assert all(layout.row_of(layout.instruction(r)) == r for r in range(layout.count - 2))
    assert layout.tail(82) == 0 and layout.tail_row(1) == 83
