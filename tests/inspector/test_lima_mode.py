"""Lima mode's panes in a host app wired the way a screen wires them: the list posts the
instruction the user asked for, the host selects it (list cursor, breakdown, history),
the breakdown posts the bits of the range the user chose."""

from __future__ import annotations

import sys
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

import lima
from inspector.lima_document import InstructionHistory, LimaDocument, RowKind
from inspector.widgets.lima_breakdown import LimaBreakdown
from inspector.widgets.lima_header import LimaHeader
from inspector.widgets.lima_list import GotoIndexScreen, LimaInstructionList
from themes import DEFAULT_THEME, PALETTES, THEMES

sys.path.insert(0, str(Path(__file__).parents[1] / "lima"))
from lima_words import REAL_INSTRUCTION, mbs_file, to_bytes  # noqa: E402

PROGRAM = """\
load.v $0 0.xy, load.u 1.y
top:
mov.v0 $1 $0, add.v1 $2 $1 $0
branch_lt $0.x $1.y top
texld 0, mov.v0 $0 ^texture
load.u 0, mov.v0 $0 ^uniform
stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0
"""


def program_words() -> list[int]:
    words, diagnostics = lima.assemble(PROGRAM)
    assert diagnostics == []
    return words


class LimaHost(App):
    """The list and the breakdown side by side (stacked when narrow), the header above."""

    CSS = """
    LimaHeader { height: 8; border: round $primary; }
    LimaInstructionList { width: 1fr; border: round $primary; }
    LimaBreakdown { width: 1fr; border: round $primary; }
    Screen.-narrow LimaHeader { display: none; }
    Screen.-narrow Horizontal { layout: vertical; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(self, data: bytes, name: str = "shader.mbs") -> None:
        super().__init__()
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME
        self.document = LimaDocument(data, name)
        self.history = InstructionHistory()
        self.chosen_bits: list[LimaBreakdown.FieldSelected] = []
        self.chosen_bytes: list[int] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield LimaHeader(self.document)
            with Horizontal():
                yield LimaInstructionList(self.document)
                yield LimaBreakdown()

    def on_mount(self) -> None:
        self.query_one(LimaInstructionList).focus()
        if self.document.instructions:
            self.select(0)

    @property
    def selected(self) -> int | None:
        return self.query_one(LimaInstructionList).selected

    def select(self, index: int) -> None:
        self.query_one(LimaInstructionList).selected = index
        self.query_one(LimaBreakdown).show(self.document.breakdown(index))

    @on(LimaInstructionList.InstructionSelected)
    def instruction_selected(self, message: LimaInstructionList.InstructionSelected) -> None:
        if message.jump and self.selected is not None:
            self.history.record(self.selected)
        self.select(message.index)

    @on(LimaInstructionList.BackRequested)
    def back(self) -> None:
        if self.selected is not None:
            previous = self.history.back(self.selected)
            if previous is not None:
                self.select(previous)

    @on(LimaBreakdown.FieldSelected)
    def field_selected(self, message: LimaBreakdown.FieldSelected) -> None:
        self.chosen_bits.append(message)

    @on(LimaHeader.ByteSelected)
    def byte_selected(self, message: LimaHeader.ByteSelected) -> None:
        self.chosen_bytes.append(message.byte_offset)


async def test_stepping_forward_and_back_with_arrows_and_n_p():
    app = LimaHost(to_bytes(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", "n", "down")
        assert app.selected == 3
        await pilot.press("p", "up")
        assert app.selected == 1
        await pilot.press("up", "up", "up")
        assert app.selected == 0
        await pilot.press("end")
        assert app.selected == len(app.document.instructions) - 1
        assert app.query_one(LimaBreakdown).breakdown.index == app.selected


async def test_enter_follows_a_branch_and_back_returns():
    app = LimaHost(to_bytes(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("right_square_bracket")
        assert app.selected == 2  # the next branch
        await pilot.press("enter")
        assert app.selected == 1  # its target, labelled L4
        assert app.document.row_text(app.document.instruction_row(1) - 1) == "L4:"
        await pilot.press("backspace")
        assert app.selected == 2


async def test_units_and_go_to_index():
    app = LimaHost(to_bytes(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list = app.query_one(LimaInstructionList)
        await pilot.press("u")
        assert lima_list.step_unit == "varying"
        await pilot.press("u", "u", "u", "u", "u")
        assert lima_list.step_unit == "texture"
        await pilot.press("right_curly_bracket")
        assert app.selected == 3
        await pilot.press("colon")
        assert isinstance(app.screen, GotoIndexScreen)
        await pilot.press("9", "enter")
        assert "not an index" in str(app.screen.query_one("#lima-goto-error").render())
        app.screen.query_one(Input).value = ""
        await pilot.press("5", "enter")
        assert app.selected == 5
        await pilot.press("backspace")
        assert app.selected == 3


async def test_mesa_and_seed_syntax_toggle():
    app = LimaHost(mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list = app.query_one(LimaInstructionList)
        doc = app.document
        row = doc.instruction_row(1)
        assert lima_list.shown_text(row) == "mov.v0 $1 $0, add.v1 $2 $1 $0"
        await pilot.press("m")
        assert lima_list.style == "mesa"
        assert lima_list.shown_text(row) == lima.mesa_line(doc.instructions[1])
        assert lima_list.shown_text(doc.instruction_row(4)) == lima.mesa_line(doc.instructions[4]) + "   # u_color"
        await pilot.press("m")
        assert lima_list.shown_text(row) == "mov.v0 $1 $0, add.v1 $2 $1 $0"


async def test_breakdown_shows_every_label_of_the_selected_instruction():
    app = LimaHost(to_bytes(REAL_INSTRUCTION))
    async with app.run_test(size=(120, 40)):
        panel = app.query_one(LimaBreakdown)
        text = "\n".join(panel.rendered_text())
        for strip, label in app.document.breakdown(0).labels():
            assert f"{label.name:<18}{label.value_text:>10}  {label.meaning}" in text, label.name
        assert "vec4_mul .v0 · 43 bits from bit 32 (word 1 bit 0)" in text
        assert "control · 32 bits from bit 0 (word 0 bit 0)" in text


async def test_selecting_a_field_gives_exactly_its_bits():
    app = LimaHost(to_bytes(REAL_INSTRUCTION))
    async with app.run_test(size=(120, 40)) as pilot:
        app.query_one(LimaBreakdown).focus()
        await pilot.press("right_square_bracket")  # the vec4_mul strip as a whole
        whole = app.chosen_bits[-1]
        assert (whole.strip.name, whole.label) == ("vec4_mul", None)
        # instruction bits 32..74: all of word 1, bits 0..10 of word 2
        assert whole.bits.words == ((1, 0xFFFFFFFF), (2, 0x7FF))
        await pilot.press("down")
        first = app.chosen_bits[-1]
        assert (first.label.name, first.bits.words) == ("arg0_source", ((1, 0xF),))
        await pilot.press("home", "down")
        assert (app.chosen_bits[-1].label.name, app.chosen_bits[-1].bits.words) == ("count", ((0, 0x1F),))


async def test_the_breakdown_keeps_the_chosen_range_while_stepping():
    app = LimaHost(to_bytes(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        panel = app.query_one(LimaBreakdown)
        panel.focus()
        await pilot.press("down", "down", "down", "down")  # the strip, count, stop, sync, fields
        assert panel.selected.label.name == "fields"
        app.query_one(LimaInstructionList).focus()
        await pilot.press("n")
        assert panel.breakdown.index == 1 and panel.selected.label.name == "fields"


async def test_a_damaged_stream_opens_with_its_diagnostics():
    words = program_words()
    app = LimaHost(to_bytes(words[:-3]) + b"\xff", "broken.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        doc = app.document
        assert doc.diagnostics
        lima_list = app.query_one(LimaInstructionList)
        undecoded = [r for r in range(doc.row_count) if doc.rows[r].kind is RowKind.UNDECODED]
        assert lima_list.shown_text(undecoded[0]).endswith("(not decoded)")
        await pilot.press("end")
        assert app.selected == len(doc.instructions) - 1
        header = app.query_one(LimaHeader)
        labels = [str(node.label) for node in header.root.children]
        assert any(label.startswith("diagnostics: ") for label in labels)


async def test_header_tree_posts_the_byte_of_the_chosen_chunk():
    app = LimaHost(mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        header = app.query_one(LimaHeader)
        header.focus()
        root = next(node for node in header.root.children if str(node.label).startswith("MBS1"))
        header.move_cursor(root.children[0])
        await pilot.press("enter")
        assert app.chosen_bytes[-1] == 8  # CFRA starts right after the MBS1 chunk header


def test_snapshot_120x40(snap_compare):
    app = LimaHost(mbs_file(program_words()))
    assert snap_compare(app, terminal_size=(120, 40), press=["n", "n", "tab", "right_square_bracket", "right_square_bracket", "down"])


def test_snapshot_80x24(snap_compare):
    app = LimaHost(to_bytes(REAL_INSTRUCTION))
    assert snap_compare(app, terminal_size=(80, 24), press=["m", "tab", "right_square_bracket", "down"])


def segment_colour(strip, text: str):
    """The colour of the first segment of a rendered strip whose text is `text`."""
    for segment in strip:
        if segment.text == text:
            return segment.style.color
    raise AssertionError(f"{text!r} not in {strip.text!r}")


async def test_ops_and_ranges_are_coloured_by_their_unit():
    app = LimaHost(to_bytes(program_words()))
    async with app.run_test(size=(120, 40)):
        semantic = PALETTES[DEFAULT_THEME].semantic
        lima_list = app.query_one(LimaInstructionList)
        row = lima_list._row_strip(app.document.instruction_row(3))
        assert segment_colour(row, "texld").triplet.hex == semantic["lima-unit-texture"]
        assert segment_colour(row, "mov.v0").triplet.hex == semantic["lima-unit-vec4-mul"]
        panel = app.query_one(LimaBreakdown)
        panel.show(app.document.breakdown(3))
        rows = panel._lines
        name_units = {text.strip(): unit for line in rows for text, unit, _ in line[1:2]}
        assert name_units["index_offset"] == "texture" and name_units["unknown_12"] == "unknown"
        assert panel._style("texture").color.triplet.hex == semantic["lima-unit-texture"]
        assert panel._style("unknown").color.triplet.hex == semantic["lima-unknown-bits"]
