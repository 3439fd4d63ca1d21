"""The hex pane and the word detail panel in the app, as a user drives them: `4` focuses
the hex pane, its keys move the word cursor, and the screen's selection (the list, the
highlight, the detail) follows."""

from __future__ import annotations

import struct

import pytest
from rich.style import Style
from textual.widgets import Input, Label

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.word_detail import WordKind
from inspector_apps import after_keys, byte_swapped, ext_inst_module_bytes, make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.screens.grammar_card import GrammarCardScreen
from spvinspect.screens.go_to import GoToDialog, parse_offset
from spvinspect.widgets.hex_view import GUTTER, WORD_CELL, HexView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.word_detail import WordDetailPanel

SIZE = (120, 40)


async def open_hex_pane(pilot) -> HexView:
    """Let the index finish (the pane marks what it found), then focus the hex pane."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.press("4")
    await pilot.pause()
    hex_view = pilot.app.screen.query_one(HexView)
    assert hex_view.has_focus
    return hex_view


def select_word(app, word: int) -> None:
    """Select `word` as any pane would: through the screen."""
    app.screen.select(app.document.select_word(word))


def instruction_named(app, opname: str):
    """The first instruction of the app's module with that opcode name."""
    return next(i for i in app.document.module.instructions() if i.opname == opname)


def selected_cells(hex_view: HexView) -> set[int]:
    """Word offsets drawn with the selection's background, read from the rendered rows."""
    background = hex_view._style("selected").bgcolor
    found = set()
    per_row = hex_view.words_per_row
    for row in range(hex_view.virtual_size.height):
        strip = hex_view._render_row(row, Style())
        for column in range(per_row):
            x = GUTTER + column * WORD_CELL
            if style_at(strip, x).bgcolor == background:
                found.add(row * per_row + column)
    return found


def style_at(strip, x: int) -> Style:
    """The style of the cell at column `x` of a rendered strip."""
    position = 0
    for segment in strip:
        if position <= x < position + len(segment.text):
            return segment.style or Style()
        position += len(segment.text)
    return Style()


def broken_module() -> bytes:
    """The example module with an instruction whose opcode nobody knows (its words stay
    raw), one at the end claiming more words than remain (the undecodable tail), and two
    bytes past the last whole word."""
    data = EXAMPLE_MODULE.read_bytes()
    count = len(data) // 4
    words = list(struct.unpack(f"<{count}I", data))
    module = open_module(data)
    module.ensure_indexed()
    victim = module.instruction(module.instruction_count // 2)
    words[victim.offset] = (victim.word_count << 16) | 0xFFF0
    nop = load_grammar().by_name["OpNop"].opcode
    words += [(40 << 16) | nop, 0xDEADBEEF, 0x12345678]
    return struct.pack(f"<{len(words)}I", *words) + b"\xab\xcd"


def test_offsets_typed_by_users():
    assert parse_offset("0x1348") == 0x1348
    assert parse_offset(" 100 ") == 100
    assert parse_offset("0X_10") == 16
    for bad in ("", "0xg", "12a", "-4"):
        with pytest.raises(ValueError):
            parse_offset(bad)


async def test_cursor_moves_by_word_row_and_page():
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        per_row = hex_view.words_per_row
        start = hex_view.cursor
        await pilot.press("right", "right", "down")
        assert hex_view.cursor == app.screen.selection.word == start + 2 + per_row
        assert not app.screen.history.can_go_back, "moving the cursor is not a jump"
        await pilot.press("left", "up")
        assert hex_view.cursor == start + 1
        await pilot.press("pagedown")
        assert hex_view.cursor == start + 1 + per_row * hex_view.page_rows
        assert hex_view.scroll_offset.y > 0
        await pilot.press("end")
        assert hex_view.cursor == len(hex_view.words) - 1
        assert app.screen.query_one(InstructionList).cursor_row == app.document.instruction_count - 1
        await pilot.press("home")
        assert hex_view.cursor == 0 and hex_view.scroll_offset.y == 0
        assert app.screen.selection.row is None, "the header is on no row"
        await pilot.press("up", "left")
        assert hex_view.cursor == 0
        assert not app.screen.history.can_go_back


async def test_the_pane_shows_four_words_a_row_beside_the_list_and_eight_zoomed():
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        assert hex_view.words_per_row == 4
        start = hex_view.cursor
        await pilot.press("down")
        assert hex_view.cursor == start + 4
        await pilot.press("z")
        await pilot.pause()
        assert hex_view.words_per_row == 8
        await pilot.press("down")
        assert hex_view.cursor == start + 12


async def test_g_goes_to_a_decimal_offset_and_refuses_what_is_not_one():
    data = EXAMPLE_MODULE.read_bytes()
    app = make_app(data)
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        await pilot.press("g", *"1000", "enter")
        assert hex_view.cursor == app.screen.selection.word == 250
        assert app.screen.history.can_go_back, "a `g` is a jump"
        await pilot.press("g", *"zz", "enter")
        assert isinstance(app.screen, GoToDialog)
        assert "not an offset" in str(app.screen.query_one("#goto-error", Label).render())
        app.screen.query_one(Input).value = hex(len(data))
        await pilot.press("enter")
        assert "past the end" in str(app.screen.query_one("#goto-error", Label).render())
        await pilot.press("escape")
        assert not isinstance(app.screen, GoToDialog)
        assert hex_view.cursor == app.screen.selection.word == 250


async def test_selection_highlights_exactly_the_instruction_words(corpus):
    path = min((corpus / "spv").glob("*.spv"), key=lambda p: p.stat().st_size)
    for module_bytes in (EXAMPLE_MODULE.read_bytes(), path.read_bytes()):
        app = make_app(module_bytes)
        async with app.run_test(size=SIZE) as pilot:
            hex_view = await open_hex_pane(pilot)
            for inst in list(app.document.module.instructions())[::2]:  # every other: both kinds of row start
                select_word(app, inst.offset)
                assert hex_view.highlighted == range(inst.offset, inst.end)
                assert selected_cells(hex_view) == set(range(inst.offset, inst.end))


async def test_operands_are_coloured_by_kind():
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        type_int = instruction_named(app, "OpTypeInt")
        select_word(app, type_int.offset + 2)
        kinds = [WordKind.OPCODE, WordKind.RESULT_ID, WordKind.LITERAL, WordKind.LITERAL]
        assert list(hex_view.highlight_kinds) == [kind.value.replace("_", "-") for kind in kinds]
        per_row = hex_view.words_per_row
        for word, kind in zip(range(type_int.offset, type_int.end), kinds):
            row = hex_view._render_row(word // per_row, Style())
            colour = hex_view._style(kind.value.replace("_", "-")).color
            assert style_at(row, GUTTER + (word % per_row) * WORD_CELL).color == colour, kind
        cursor = type_int.offset + 2
        row = hex_view._render_row(cursor // per_row, Style())
        assert style_at(row, GUTTER + (cursor % per_row) * WORD_CELL).reverse


async def test_big_endian_module_shows_file_bytes_in_file_order():
    app = make_app(byte_swapped(EXAMPLE_MODULE.read_bytes()))
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        await pilot.press("home")
        assert hex_view.render_line(0).text.startswith("00000000  07230203 00010500")
        await pilot.press("b")
        assert hex_view.render_line(0).text.startswith("00000000  07 23 02 03 00 01 05 00")
        detail = app.screen.query_one(WordDetailPanel).detail
        assert detail.file_bytes == bytes.fromhex("07230203")
        assert detail.meaning.endswith("(SPIR-V, big-endian)")


async def test_broken_module_marks_faulty_words_tail_and_trailing_bytes():
    app = make_app(broken_module())
    async with app.run_test(size=SIZE) as pilot:
        hex_view = await open_hex_pane(pilot)
        faulty = {d.word_offset for d in app.document.diagnostics if d.word_offset is not None}
        assert faulty and hex_view.marked == faulty
        diagnostic = hex_view._style("diagnostic")
        assert diagnostic.underline
        per_row = hex_view.words_per_row
        for word in faulty:
            row = hex_view._render_row(word // per_row, Style())
            assert style_at(row, GUTTER + (word % per_row) * WORD_CELL).underline
        tail = hex_view._style("tail").color
        assert hex_view.tail_offset < len(hex_view.words)
        for word in range(hex_view.tail_offset, len(hex_view.words)):
            row = hex_view._render_row(word // per_row, Style())
            assert style_at(row, GUTTER + (word % per_row) * WORD_CELL).color in (tail, diagnostic.color)
        await pilot.press("end")
        assert hex_view.cursor == app.screen.selection.word == len(hex_view.words)
        panel = app.screen.query_one(WordDetailPanel)
        assert panel.detail.kind is WordKind.TRAILING
        assert panel.detail.file_bytes == b"\xab\xcd"
        last_row = hex_view.render_line(hex_view.cursor // per_row - round(hex_view.scroll_offset.y))
        assert "abcd" in last_row.text
        await pilot.press("left")
        assert panel.detail.kind is WordKind.TAIL
        assert panel.detail.diagnostics, "a tail word says why it was not decoded"


async def test_a_file_too_short_for_a_header_still_shows_its_bytes():
    app = make_app(b"\x03\x02\x23\x07\x00\x05\x01")
    async with app.run_test(size=(80, 24)) as pilot:
        hex_view = await open_hex_pane(pilot)
        assert hex_view.render_line(0).text.startswith("00000000  07230203 000501")
        await pilot.press("right", "right", "down", "end", "g", *"4", "enter")
        assert hex_view.cursor == 1
        assert app.screen.query_one(WordDetailPanel).detail.kind is WordKind.TRAILING


async def test_card_key_opens_the_grammar_card_of_the_word_under_the_hex_cursor():
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        await open_hex_pane(pilot)
        select_word(app, instruction_named(app, "OpTypeInt").offset)
        await pilot.press("c")
        assert isinstance(app.screen, GrammarCardScreen)
        assert app.screen.card.opname == "OpTypeInt"
        await pilot.press("escape")
        assert not isinstance(app.screen, GrammarCardScreen)
        assert app.screen.query_one(HexView).has_focus


async def test_card_shows_the_url_where_no_browser_can_open(monkeypatch):
    import spvinspect.screens.grammar_card as screen_module

    monkeypatch.setattr(screen_module, "open_in_browser", lambda url: False)
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        await open_hex_pane(pilot)
        select_word(app, instruction_named(app, "OpDecorate").operands[1].offset)
        await pilot.press("c")
        assert app.screen.card.kind == "Decoration"
        await pilot.press("o")
        assert any(app.screen.card.spec_url in n.message for n in app._notifications)


def test_no_terminal_browser_is_started_for_the_spec(monkeypatch):
    import webbrowser

    from spvinspect.screens.grammar_card import open_in_browser

    opened = []

    class Graphical(webbrowser.BackgroundBrowser):
        def open(self, url, new=0, autoraise=True):
            opened.append(url)
            return True

    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("lynx"))
    assert not open_in_browser("https://example.org")
    monkeypatch.setattr(webbrowser, "get", lambda: Graphical("firefox"))
    assert open_in_browser("https://example.org") and opened == ["https://example.org"]


async def test_card_of_an_extended_instruction_lists_its_operands():
    data = ext_inst_module_bytes()
    app = make_app(data)
    async with app.run_test(size=SIZE) as pilot:
        await open_hex_pane(pilot)
        ext_inst = instruction_named(app, "OpExtInst")
        select_word(app, ext_inst.operands[3].offset)  # 'Instruction': FMix
        await pilot.press("c")
        assert isinstance(app.screen, GrammarCardScreen)
        card = app.screen.card
        body = app.screen.query_one("#card-body")
        text = "\n".join(strip.text for strip in body.render_lines(body.region.reset_offset))
        assert "GLSL.std.450" in text and "FMix" in text and "'x' (IdRef)" in text and card.spec_url in text


def test_snapshot_120x40(snap_compare):
    """The hex pane beside the list, the cursor on an operand 30 words in."""
    app = make_app(EXAMPLE_MODULE.read_bytes(), name="example.spv")
    assert snap_compare(app, terminal_size=SIZE, run_before=after_keys("4", *["right"] * 30))


def test_snapshot_broken_120x40(snap_compare):
    """The cursor inside the words of an instruction nobody could decode."""
    data = broken_module()
    raw = next(i for i in open_module(data).instructions() if not i.valid)
    app = make_app(data, name="broken.spv")
    assert snap_compare(app, terminal_size=SIZE, run_before=after_keys("4", "g", *str(raw.offset * 4 + 4), "enter"))


def test_snapshot_broken_80x24(snap_compare):
    """Zoomed on a narrow screen: the trailing bytes, shown as bytes with ASCII."""
    app = make_app(broken_module(), name="broken.spv")
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys("4", "end", "b"))
