"""The hex pane and the word detail panel, in a host app wired the way the main screen
wires them: the pane posts the word the user moved to, the host selects it (highlight,
detail) and the pane follows."""

from __future__ import annotations

import struct

import pytest
from rich.style import Style
from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label

from codec.binary.lazy import open_module
from codec.grammar import load_grammar
from codec.text.grammar_card import card_for, ext_instruction_card
from codec.text.listing import OperandFormatter
from codec.text.names import NameMap
from codec.text.word_detail import WordKind, locate, word_detail
from inspector.commands.open import EXAMPLE_MODULE
from inspector.screens.grammar_card import GrammarCardScreen
from inspector.widgets.hex_view import GUTTER, WORD_CELL, GotoOffsetScreen, HexView, parse_offset
from inspector.widgets.word_detail import WordDetailPanel
from themes import DEFAULT_THEME, THEMES


class HexHost(App):
    """The hex pane and the detail panel side by side, wired as the main screen does."""

    CSS = """
    HexView { width: 1fr; }
    WordDetailPanel { width: 36; height: 1fr; }
    Screen.-narrow Horizontal { layout: vertical; }
    Screen.-narrow WordDetailPanel { width: 1fr; height: 10; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(self, data: bytes) -> None:
        super().__init__()
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME
        self.module = open_module(data)
        self.module.check()  # the app's worker does this; the pane then marks what it found
        self.formatter = OperandFormatter(self.module.grammar, NameMap(self.module))
        self.definitions: dict[int, int] = {}
        for index, inst in enumerate(self.module.instructions()):
            self.definitions.setdefault(inst.result_id, index)
        self.selections: list[HexView.WordSelected] = []

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield HexView.for_module(self.module)
            yield WordDetailPanel()

    def on_mount(self) -> None:
        self.query_one(HexView).focus()
        self.select(0)

    @on(HexView.WordSelected)
    def word_selected(self, message: HexView.WordSelected) -> None:
        self.selections.append(message)
        self.select(message.word)

    @on(HexView.CardRequested)
    def card_requested(self, message: HexView.CardRequested) -> None:
        detail = word_detail(self.module, message.word, self.formatter)
        if detail.instruction is not None:
            card = card_for(load_grammar(), detail.instruction, detail.operand_index)
            self.push_screen(GrammarCardScreen(card))

    def select(self, word: int) -> None:
        found = locate(self.module, word)
        self.query_one(HexView).follow(word, found[1] if found is not None else None)
        detail = word_detail(self.module, word, self.formatter, definition=self.definitions.get)
        self.query_one(WordDetailPanel).show(detail)


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


def byte_swapped(data: bytes) -> bytes:
    """The same module stored big-endian."""
    count = len(data) // 4
    return struct.pack(f">{count}I", *struct.unpack(f"<{count}I", data))


def test_offsets_typed_by_users():
    assert parse_offset("0x1348") == 0x1348
    assert parse_offset(" 100 ") == 100
    assert parse_offset("0X_10") == 16
    for bad in ("", "0xg", "12a", "-4"):
        with pytest.raises(ValueError):
            parse_offset(bad)


async def test_cursor_moves_by_word_row_and_page():
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        hex_view = app.query_one(HexView)
        assert hex_view.words_per_row == 8
        await pilot.press("right", "right", "down")
        assert hex_view.cursor == 10
        assert [m.word for m in app.selections] == [1, 2, 10]
        assert not any(m.jump for m in app.selections)
        await pilot.press("left", "up")
        assert hex_view.cursor == 1
        await pilot.press("pagedown")
        assert hex_view.cursor == 1 + 8 * hex_view.page_rows
        assert hex_view.scroll_offset.y > 0
        await pilot.press("end")
        assert hex_view.cursor == len(app.module.words) - 1
        await pilot.press("home")
        assert hex_view.cursor == 0 and hex_view.scroll_offset.y == 0
        await pilot.press("up", "left")
        assert hex_view.cursor == 0


async def test_narrow_pane_shows_four_words_a_row():
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(80, 24)) as pilot:
        hex_view = app.query_one(HexView)
        assert hex_view.words_per_row == 4
        await pilot.press("down")
        assert hex_view.cursor == 4


async def test_g_goes_to_a_byte_offset():
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        hex_view = app.query_one(HexView)
        await pilot.press("g", *"0x40", "enter")
        assert hex_view.cursor == 16
        assert app.selections[-1].word == 16 and app.selections[-1].jump
        await pilot.press("g", *"1000", "enter")
        assert hex_view.cursor == 250
        await pilot.press("g", *"zz", "enter")
        assert isinstance(app.screen, GotoOffsetScreen)
        assert "not an offset" in str(app.screen.query_one("#goto-error", Label).render())
        app.screen.query_one(Input).value = hex(len(EXAMPLE_MODULE.read_bytes()))
        await pilot.press("enter")
        assert "past the end" in str(app.screen.query_one("#goto-error", Label).render())
        await pilot.press("escape")
        assert not isinstance(app.screen, GotoOffsetScreen)
        assert hex_view.cursor == 250


async def test_selection_highlights_exactly_the_instruction_words(corpus):
    path = min((corpus / "spv").glob("*.spv"), key=lambda p: p.stat().st_size)
    data = EXAMPLE_MODULE.read_bytes()
    for module_bytes in (data, path.read_bytes()):
        app = HexHost(module_bytes)
        async with app.run_test(size=(120, 40)):
            hex_view = app.query_one(HexView)
            for inst in app.module.instructions():
                app.select(inst.offset)
                assert hex_view.highlighted == range(inst.offset, inst.end)
                assert selected_cells(hex_view) == set(range(inst.offset, inst.end))


async def test_operands_are_coloured_by_kind():
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)):
        hex_view = app.query_one(HexView)
        type_int = next(i for i in app.module.instructions() if i.opname == "OpTypeInt")
        app.select(type_int.offset + 2)
        kinds = [WordKind.OPCODE, WordKind.RESULT_ID, WordKind.LITERAL, WordKind.LITERAL]
        assert list(hex_view.highlight_kinds) == kinds
        row = hex_view._render_row(type_int.offset // 8, Style())
        for word, kind in zip(range(type_int.offset, type_int.end), kinds):
            x = GUTTER + (word % 8) * WORD_CELL
            colour = hex_view._style(kind.value.replace("_", "-")).color
            assert style_at(row, x).color == colour, kind
        assert style_at(row, GUTTER + ((type_int.offset + 2) % 8) * WORD_CELL).reverse


async def test_big_endian_module_shows_file_bytes_in_file_order():
    data = byte_swapped(EXAMPLE_MODULE.read_bytes())
    app = HexHost(data)
    async with app.run_test(size=(120, 40)) as pilot:
        hex_view = app.query_one(HexView)
        assert hex_view.big_endian and "big-endian" in hex_view.border_title
        assert hex_view.render_line(0).text.startswith("00000000  07230203 00010500")
        await pilot.press("b")
        assert hex_view.render_line(0).text.startswith("00000000  07 23 02 03 00 01 05 00")
        panel = app.query_one(WordDetailPanel)
        assert panel.detail.file_bytes == bytes.fromhex("07230203")
        assert panel.detail.meaning.endswith("(SPIR-V, big-endian)")


async def test_broken_module_marks_faulty_words_tail_and_trailing_bytes():
    app = HexHost(broken_module())
    async with app.run_test(size=(120, 40)) as pilot:
        hex_view = app.query_one(HexView)
        module = app.module
        faulty = {d.word_offset for d in module.diagnostics if d.word_offset is not None}
        assert faulty and hex_view.marked == faulty
        diagnostic = hex_view._style("diagnostic")
        per_row = hex_view.words_per_row
        for word in faulty:
            row = hex_view._render_row(word // per_row, Style())
            assert style_at(row, GUTTER + (word % per_row) * WORD_CELL).underline
        assert diagnostic.underline
        tail = hex_view._style("tail").color
        for word in range(module.tail_offset, len(module.words)):
            row = hex_view._render_row(word // per_row, Style())
            assert style_at(row, GUTTER + (word % per_row) * WORD_CELL).color in (tail, diagnostic.color)
        await pilot.press("end")
        assert hex_view.cursor == len(module.words)
        panel = app.query_one(WordDetailPanel)
        assert panel.detail.kind is WordKind.TRAILING
        assert panel.detail.file_bytes == b"\xab\xcd"
        last_row = hex_view.render_line(hex_view.cursor // per_row - round(hex_view.scroll_offset.y))
        assert "abcd" in last_row.text
        await pilot.press("left")
        assert panel.detail.kind is WordKind.TAIL
        assert panel.detail.diagnostics, "a tail word says why it was not decoded"


async def test_a_file_too_short_for_a_header_still_shows_its_bytes():
    app = HexHost(b"\x03\x02\x23\x07\x00\x05\x01")
    async with app.run_test(size=(80, 24)) as pilot:
        hex_view = app.query_one(HexView)
        assert hex_view.render_line(0).text.startswith("00000000  07230203 000501")
        await pilot.press("right", "right", "down", "end", "g", *"4", "enter")
        assert hex_view.cursor == 1
        assert app.query_one(WordDetailPanel).detail.kind is WordKind.TRAILING


async def test_card_key_opens_the_grammar_card_of_the_operand():
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        type_int = next(i for i in app.module.instructions() if i.opname == "OpTypeInt")
        app.select(type_int.offset)
        await pilot.press("c")
        assert isinstance(app.screen, GrammarCardScreen)
        assert app.screen.card.opname == "OpTypeInt"
        await pilot.press("escape")
        assert not isinstance(app.screen, GrammarCardScreen)


async def test_card_shows_the_url_where_no_browser_can_open(monkeypatch):
    import inspector.screens.grammar_card as screen_module

    monkeypatch.setattr(screen_module, "open_in_browser", lambda url: False)
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        decorate = next(i for i in app.module.instructions() if i.opname == "OpDecorate")
        app.select(decorate.operands[1].offset)
        await pilot.press("c")
        assert app.screen.card.kind == "Decoration"
        await pilot.press("o")
        assert any(app.screen.card.spec_url in n.message for n in app._notifications)


def test_no_terminal_browser_is_started_for_the_spec(monkeypatch):
    import webbrowser

    from inspector.screens.grammar_card import open_in_browser

    opened = []

    class Graphical(webbrowser.BackgroundBrowser):
        def open(self, url, new=0, autoraise=True):
            opened.append(url)
            return True

    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("lynx"))
    assert not open_in_browser("https://example.org")
    monkeypatch.setattr(webbrowser, "get", lambda: Graphical("firefox"))
    assert open_in_browser("https://example.org") and opened == ["https://example.org"]


async def test_card_of_an_extended_instruction():
    card = ext_instruction_card(load_grammar(), "GLSL.std.450", "FMix")
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(GrammarCardScreen(card))
        await pilot.pause()
        body = app.screen.query_one("#card-body")
        text = "\n".join(strip.text for strip in body.render_lines(body.region.reset_offset))
        assert "GLSL.std.450" in text and "'x' (IdRef)" in text and card.spec_url in text


def test_snapshot_120x40(snap_compare):
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    assert snap_compare(app, terminal_size=(120, 40), press=["right"] * 30)


def test_snapshot_80x24(snap_compare):
    app = HexHost(EXAMPLE_MODULE.read_bytes())
    assert snap_compare(app, terminal_size=(80, 24), press=["down"] * 9)


def test_snapshot_broken_120x40(snap_compare):
    app = HexHost(broken_module())
    raw = next(i for i in app.module.instructions() if not i.valid)
    assert snap_compare(app, terminal_size=(120, 40), press=["g", *str(raw.offset * 4 + 4), "enter"])


def test_snapshot_broken_80x24(snap_compare):
    app = HexHost(broken_module())
    assert snap_compare(app, terminal_size=(80, 24), press=["end", "b"])
