"""Lima mode in the app, opened the way a user opens it (`spvinspect shader.mbs`,
`spvinspect --lima code.bin`): stepping, the breakdown against the decoder, the bits a
field selects in the hex pane, branches, syntax, damaged input, `--at` and `--pane`."""

from __future__ import annotations

import struct
import subprocess
import sys

import pytest
from lima_apps import REAL_INSTRUCTION, launched, mbs_file, program_words, to_bytes
from lima_words import chunk

from spvinspect import lima
from spvinspect import launch
from spvinspect.lima_document import LimaDocument, RowKind
from spvinspect.screens.help import HelpScreen
from spvinspect.screens.inspector import InspectorScreen
from spvinspect.screens.lima_view import LimaView, bit_ranges_text
from spvinspect.widgets.diagnostics_panel import DiagnosticsPanel
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.lima_breakdown import LimaBreakdown
from spvinspect.widgets.lima_header import LimaHeader
from spvinspect.screens.go_to import GoToDialog
from spvinspect.widgets.lima_list import LimaInstructionList
from test_launch import ROOT
from spvinspect.themes import DEFAULT_THEME, PALETTES


def panes(app):
    screen = app.screen
    return (
        screen.query_one(LimaInstructionList),
        screen.query_one(LimaBreakdown),
        screen.query_one(HexView),
    )


def expected_masks(base_word: int, instruction_word: int, first_bit: int, width: int) -> dict[int, int]:
    """Hex cells and masks of `width` bits from bit `first_bit` of an instruction whose
    control word is stream word `instruction_word`; the stream starts at cell `base_word`."""
    masks: dict[int, int] = {}
    for bit in range(first_bit, first_bit + width):
        word, low = divmod(bit, 32)
        cell = base_word + instruction_word + word
        masks[cell] = masks.get(cell, 0) | 1 << low
    return masks


# -- opening ---------------------------------------------------------------------------


async def test_an_mbs_file_opens_lima_mode_whatever_its_name(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()), name="shader.dat")
    async with app.run_test(size=(120, 40)):
        assert isinstance(app.screen, InspectorScreen) and isinstance(app.screen.view, LimaView)
        lima_list, breakdown, hex_view = panes(app)
        document = app.document
        assert document.is_mbs and len(document.instructions) == 6
        assert app.focused is lima_list and lima_list.selected == 0
        assert breakdown.breakdown.index == 0
        assert lima_list.shown_text(document.instruction_row(4)) == "load.u 0, mov.v0 $0 ^uniform   # u_color"
        header = [str(node.label) for node in app.screen.query_one(LimaHeader).root.children]
        assert header[0] == f"MBS file: {len(document.data)} bytes ({len(document.data) // 4} words)"
        assert any(label.startswith("MBS1  @0x0") for label in header)
        # The hex pane shows the file; the first instruction is framed where DBIN holds it.
        assert hex_view.words.tobytes() == document.data[: len(document.data) // 4 * 4]
        start = document.code_byte_offset // 4
        assert hex_view.highlighted == range(start, start + 4) and hex_view.cursor == start
        assert not any(hex_view.cell_kind(word) for word in range(len(hex_view.words)))  # no header words


def test_a_raw_stream_without_lima_is_refused_with_a_hint(monkeypatch, tmp_path, capsys):
    path = tmp_path / "code.bin"
    path.write_bytes(to_bytes(program_words()))
    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    assert launch.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "not a SPIR-V module" in err and "for a raw Lima PP stream, add --lima" in err
    assert err.count("\n") == 1


def test_a_wrong_pane_names_the_lima_panes(monkeypatch, tmp_path, capsys):
    path = tmp_path / "code.bin"
    path.write_bytes(to_bytes(program_words()))
    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    assert launch.main([str(path), "--lima", "--pane", "cfg"]) == 1
    assert "choose one of header, list, diagnostics, hex, breakdown" in capsys.readouterr().err
    from spvinspect.lima_document import LimaDocument

    assert set(launch.LIMA_PANE_NAMES) == {spec.name for spec in LimaDocument.PANES}


def test_in_a_pipe_it_prints_the_lima_disassembly(tmp_path):
    mbs = tmp_path / "shader.mbs"
    mbs.write_bytes(mbs_file(program_words()))
    raw = tmp_path / "code.bin"
    raw.write_bytes(to_bytes(program_words()))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "spvinspect.cli", *args], capture_output=True, cwd=ROOT, check=False)

    piped = run(str(mbs))
    assert piped.returncode == 0 and piped.stdout == run("lima", "dis", str(mbs)).stdout
    assert b"mov.v0 $1 $0, add.v1 $2 $1 $0" in piped.stdout
    piped_raw = run("--lima", str(raw))
    assert piped_raw.returncode == 0 and piped_raw.stdout == run("lima", "dis", str(raw)).stdout


# -- stepping ---------------------------------------------------------------------------


async def test_stepping_forward_and_back_from_any_pane(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, breakdown, hex_view = panes(app)
        await pilot.press("n", "n", "down")
        assert lima_list.selected == 3 and breakdown.breakdown.index == 3
        assert hex_view.highlighted == range(12, 17)  # texld + mov: five words from word 12
        await pilot.press("p", "up")
        assert lima_list.selected == 1
        await pilot.press("5")  # the breakdown has the focus; n and p still step
        assert app.focused is breakdown
        await pilot.press("n")
        assert lima_list.selected == 2 and breakdown.breakdown.index == 2
        await pilot.press("p", "p", "p")
        assert lima_list.selected == 0
        status = str(app.screen.query_one("#status").render_line(0).text)
        assert "instruction 0/5  w0 @0x0000  4 words" in status


async def test_go_to_an_index_and_the_next_instruction_using_a_unit(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, _ = panes(app)
        await pilot.press(*"uuuuuu")
        assert lima_list.step_unit == "texture"
        assert "step unit texture" in app.screen.query_one("#status").mode
        await pilot.press("right_curly_bracket")
        assert lima_list.selected == 3
        await pilot.press("colon")
        assert isinstance(app.screen, GoToDialog)
        await pilot.press("5", "enter")
        assert lima_list.selected == 5
        await pilot.press("backspace")
        assert lima_list.selected == 3


# -- the breakdown ----------------------------------------------------------------------


async def test_the_breakdown_of_the_real_instruction_equals_the_decoder(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(REAL_INSTRUCTION), "--lima", name="real.bin")
    async with app.run_test(size=(120, 40)):
        _, breakdown, _ = panes(app)
        (instr,) = lima.decode(to_bytes(REAL_INSTRUCTION)).instructions
        shown = breakdown.breakdown
        decoded = {"control": instr.control, **{f.name: f.ranges for f in instr.fields}}
        assert [s.name for s in shown.strips] == ["control", "vec4_mul", "vec4_const_0", "padding"]
        for strip in shown.strips[:-1]:
            labels = [(label.name, label.value, label.meaning, label.instruction_bit, label.width) for label in strip.labels]
            assert labels == [(r.name, r.value, r.meaning, r.instruction_bit, r.width) for r in decoded[strip.name]]
        padding = shown.strips[-1]
        assert (padding.instruction_bit, padding.width) == (instr.padding.instruction_bit, instr.padding.width)
        # ENCODING.md: count 5, stop, vec4_mul and const0 present, `mov $0 ^const0.xxxx`
        control = shown.strip("control")
        assert (control.label("count").value, control.label("stop").meaning) == (5, "yes")
        mul = shown.strip("vec4_mul")
        assert (mul.label("op").meaning, mul.label("dest").meaning, mul.label("arg0_source").meaning) == ("mov", "$0", "^const0")
        text = "\n".join(breakdown.rendered_text())
        for strip, label in shown.labels():
            assert f"{label.name:<18}{label.value_text:>10}  {label.meaning}" in text


async def test_every_bit_is_in_exactly_one_labelled_range(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, breakdown, _ = panes(app)
        for index, instr in enumerate(app.document.instructions):
            if index:
                await pilot.press("n")
            assert breakdown.breakdown.index == index
            held: dict[int, int] = {}
            for entry in breakdown.entries:
                if entry.label is None:
                    continue
                for word, mask in entry.label.bits.words:
                    assert held.get(word, 0) & mask == 0, (index, entry.label.name)
                    held[word] = held.get(word, 0) | mask
            assert held == {instr.word_offset + k: 0xFFFFFFFF for k in range(len(instr.words))}
            for entry in breakdown.entries:  # each strip is exactly its ranges
                if entry.label is None:
                    union: dict[int, int] = {}
                    for label in entry.strip.labels:
                        for word, mask in label.bits.words:
                            union[word] = union.get(word, 0) | mask
                    assert union == dict(entry.strip.bits.words), entry.strip.name


async def test_selecting_a_field_highlights_exactly_its_bits(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, breakdown, hex_view = panes(app)
        document = app.document
        base = document.code_byte_offset // 4
        await pilot.press("n", "5")  # instruction 1 (mov + add, from stream word 4), the breakdown
        assert hex_view.bit_masks == {}
        await pilot.press("right_square_bracket")  # the vec4_mul strip as a whole: bits 32-74
        assert hex_view.bit_masks == expected_masks(base, 4, 32, 43)
        for _ in range(len(breakdown.entries)):
            entry = breakdown.selected
            first = entry.strip.instruction_bit if entry.label is None else entry.label.instruction_bit
            width = entry.strip.width if entry.label is None else entry.label.width
            assert hex_view.bit_masks == expected_masks(base, 4, first, width), entry
            await pilot.press("down")
        await pilot.press("home", "down")  # count: bits 0-4 of the control word
        cell = base + 4
        assert hex_view.bit_masks == {cell: 0x1F}
        assert hex_view.cursor == cell
        assert hex_view.digit_marks(cell) == (None,) * 6 + ("bits-partial", "bits")
        assert "control.count = 4 4 words · " + bit_ranges_text(cell, 0x1F) in app.screen.query_one("#status").detail
        assert hex_view.border_subtitle == f"count · w{cell}[4:0]"
        await pilot.press("n")  # stepping keeps the chosen range: count of instruction 2
        assert lima_list.selected == 2 and hex_view.bit_masks == {base + 8: 0x1F}
        await pilot.press("4", "b")  # bytes mode, file order: the low byte comes first
        assert hex_view.digit_marks(base + 8) == ("bits-partial", "bits") + (None,) * 6


def test_bit_ranges_are_written_highest_first():
    assert bit_ranges_text(5, 0x7FF) == "w5[10:0]"
    assert bit_ranges_text(2, 0xF000000F) == "w2[31:28,3:0]"
    assert bit_ranges_text(0, 1 << 6) == "w0[6]"


# -- branches, syntax ----------------------------------------------------------------------


async def test_enter_follows_a_branch_and_back_returns(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, breakdown, hex_view = panes(app)
        await pilot.press("right_square_bracket")
        assert lima_list.selected == 2  # the next branch
        await pilot.press("enter")
        assert lima_list.selected == 1 and breakdown.breakdown.index == 1
        assert app.document.row_text(app.document.instruction_row(1) - 1) == "L4:"
        await pilot.press("4", "backspace")  # back works from the hex pane too
        assert lima_list.selected == 2
        await pilot.press("ctrl+n")
        assert lima_list.selected == 1


async def test_mesa_and_seed_syntax_toggle(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, _ = panes(app)
        document = app.document
        row = document.instruction_row(1)
        assert lima_list.shown_text(row) == "mov.v0 $1 $0, add.v1 $2 $1 $0"
        await pilot.press("m")
        assert lima_list.style == "mesa"
        assert lima_list.shown_text(row) == lima.mesa_line(document.instructions[1])
        assert app.screen.query_one("#status").mode == "mesa syntax"
        await pilot.press("5", "m")  # from the breakdown too
        assert lima_list.shown_text(row) == "mov.v0 $1 $0, add.v1 $2 $1 $0"
        assert app.screen.query_one("#status").mode == "seed syntax"



async def test_rows_highlighted_ahead_are_drawn_in_the_theme_shown(monkeypatch, tmp_path):
    """The list highlights the rows around the selection before they are drawn (a run's
    next steps draw them at once); a theme chosen in between is the one they show."""
    words, _ = lima.assemble("\n".join(["load.u 0, mul.s0 ^s0 $2.x ^uniform.y, add.s1 $3.x ^s0 $3.y"] * 40 + ["stop"]))
    app = launched(monkeypatch, tmp_path, to_bytes(words), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, _ = panes(app)
        await pilot.press("n")
        await pilot.pause()
        ahead = set(lima_list._prepared)
        assert ahead and all(lima_list._strips.get(key) is None for key in ahead)
        app.theme = "spvinspect-light"
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        drawn = [row for row, _ in ahead if lima_list._strips.get((row, "seed")) is not None]
        assert drawn
        for row in drawn:
            assert list(lima_list._row_strip(row)) == list(lima_list._highlighted(row))

# -- damaged input ----------------------------------------------------------------------------


async def test_a_damaged_stream_opens_with_its_diagnostics(monkeypatch, tmp_path):
    words = program_words()
    app = launched(monkeypatch, tmp_path, to_bytes(words[:-3]) + b"\xff", "--lima", name="broken.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, hex_view = panes(app)
        document = app.document
        panel = app.screen.query_one(DiagnosticsPanel)
        assert panel.display and panel.option_count == 2
        assert [d.word_offset for d in document.located_diagnostics] == [23, 21]
        assert hex_view.marked == {21, 23}  # the claimed instruction, the trailing byte
        assert hex_view.tail_offset == 21 and hex_view.trailing_bytes == b"\xff"
        undecoded = [r for r in range(document.row_count) if document.rows[r].kind is RowKind.UNDECODED]
        assert lima_list.shown_text(undecoded[0]) == "# word 21: 0x00020425 (not decoded)"
        await pilot.press("end")
        assert lima_list.selected == 4
        await pilot.press("3", "home", "enter")  # the diagnostic at word 21: the hex cursor goes there
        assert hex_view.cursor == 21


async def test_a_damaged_mbs_file_places_its_diagnostics_in_the_file(monkeypatch, tmp_path):
    words = program_words()
    app = launched(monkeypatch, tmp_path, mbs_file(words[:-3]))
    async with app.run_test(size=(120, 40)) as pilot:
        document = app.document
        base = document.code_byte_offset // 4
        claimed = next(d for d in document.located_diagnostics if "claims" in d.message)
        assert claimed.word_offset == base + 21
        _, _, hex_view = panes(app)
        assert base + 21 in hex_view.marked
        await pilot.press("3", "enter")
        assert hex_view.cursor == base + 21


async def test_code_off_a_word_boundary_is_shown_as_its_own_stream(monkeypatch, tmp_path):
    # A five-byte FDIS puts the DBIN contents at byte 41: the hex pane shows the code
    # stream itself, so that each stream word is one cell and a field's bits stay exact.
    code = to_bytes(program_words())
    data = chunk(b"MBS1", chunk(b"CFRA", struct.pack("<I", 7) + chunk(b"FDIS", b"\0" * 5) + chunk(b"DBIN", code)))
    app = launched(monkeypatch, tmp_path, data, name="odd.mbs")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, hex_view = panes(app)
        assert app.document.code_byte_offset == 41
        assert hex_view.words.tobytes() == code
        assert "not on a word" in hex_view.border_title
        await pilot.press("n", "5", "right_square_bracket", "down")  # vec4_mul's arg0_source
        assert hex_view.bit_masks == {5: 0xF} and hex_view.highlighted == range(4, 8)
        await pilot.press("4", "down")
        assert hex_view.cursor == 5 + hex_view.words_per_row and lima_list.selected == 2


async def test_an_empty_stream_opens_with_a_diagnostic(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, b"", "--lima", name="empty.bin")
    async with app.run_test(size=(80, 24)) as pilot:
        lima_list, breakdown, _ = panes(app)
        assert lima_list.selected is None and breakdown.breakdown is None
        await pilot.press("n", "enter", "5", "down", "4", "right")
        assert "no instructions decoded" in app.screen.query_one("#status").place
        assert app.screen.query_one(DiagnosticsPanel).option_count == 1


# -- --at, --pane, the other panes --------------------------------------------------------------


@pytest.mark.parametrize("offset, index", [("0x48", 4), ("72", 4), ("0", 0), ("47", 2)])
async def test_at_selects_the_instruction_holding_the_byte(monkeypatch, tmp_path, offset, index):
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", "--at", offset, name="code.bin")
    async with app.run_test(size=(120, 40)):
        lima_list, _, hex_view = panes(app)
        assert lima_list.selected == index
        assert hex_view.cursor == app.document.instructions[index].word_offset


async def test_at_in_an_mbs_file(monkeypatch, tmp_path):
    data = mbs_file(program_words())
    start = LimaDocument(data).code_byte_offset
    app = launched(monkeypatch, tmp_path, data, "--at", str(start + 4 * 13))
    async with app.run_test(size=(120, 40)):
        lima_list, _, hex_view = panes(app)
        assert lima_list.selected == 3  # texld + mov, stream words 12-16
    outside = launched(monkeypatch, tmp_path, data, "--at", "0x10")
    async with outside.run_test(size=(120, 40)):
        lima_list, _, hex_view = panes(outside)
        assert lima_list.selected == 0 and hex_view.cursor == 4  # the CFRA version word


@pytest.mark.parametrize("pane, widget", [("breakdown", LimaBreakdown), ("hex", HexView), ("header", LimaHeader), ("list", LimaInstructionList)])
async def test_pane_focuses_and_zooms(monkeypatch, tmp_path, pane, widget):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()), "--pane", pane)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.focused, widget)
        assert app.screen.maximized is app.focused
        await pilot.press("z")
        assert app.screen.maximized is None


async def test_the_hex_cursor_selects_the_instruction_it_is_on(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        lima_list, _, hex_view = panes(app)
        await pilot.press("4", "down", "down")  # two rows down: word 2 × words a row
        word = 2 * hex_view.words_per_row
        assert hex_view.cursor == word and lima_list.selected == app.document.instruction_at_hex_word(word) == 2
        await pilot.press("left")
        assert hex_view.cursor == word - 1 and lima_list.selected == app.document.instruction_at_hex_word(word - 1)


async def test_a_header_line_selects_its_byte(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        header = app.screen.query_one(LimaHeader)
        _, _, hex_view = panes(app)
        await pilot.press("1")
        assert app.focused is header
        chunk = next(node for node in header.root.children if str(node.label).startswith("MBS1"))
        header.move_cursor(chunk.children[0])  # CFRA, at byte 8
        await pilot.press("enter")
        assert hex_view.cursor == 2
        instructions = next(node for node in header.root.children if str(node.label).startswith("instructions:"))
        header.move_cursor(instructions)
        await pilot.press("enter")
        assert hex_view.cursor == app.document.code_byte_offset // 4


async def test_at_80x24_the_folded_panes_are_one_key_away(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        lima_list, breakdown, hex_view = panes(app)
        assert screen.has_class("-narrow")
        assert lima_list.region.height and breakdown.region.height and not hex_view.region.height
        await pilot.press("4")
        assert screen.maximized is hex_view and hex_view.region.height > 15
        await pilot.press("2")
        assert screen.maximized is None and app.focused is lima_list
        await pilot.press("1")
        assert screen.maximized is screen.query_one(LimaHeader)


async def test_help_lists_the_lima_keys_and_panes(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        titles = [section.title for section in app.screen.sections]
        assert {"Header", "Instruction list", "Hex", "Breakdown"} <= set(titles)
        described = {a.description for section in app.screen.sections for a in section.actions}
        assert {"Mesa/seed", "Next branch", "Follow branch", "Next in unit", "Next field", "Zoom"} <= described
        breakdown = next(s for s in app.screen.sections if s.title == "Breakdown")
        assert "unknown bits are shown, never hidden" in breakdown.text


def segment_colour(strip, text: str):
    """The colour of the first segment of a rendered strip whose text is `text`."""
    for segment in strip:
        if segment.text == text:
            return segment.style.color
    raise AssertionError(f"{text!r} not in {strip.text!r}")


async def test_ops_and_ranges_are_coloured_by_their_unit(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        semantic = PALETTES[DEFAULT_THEME].semantic
        lima_list, breakdown, _ = panes(app)
        row = lima_list._row_strip(app.document.instruction_row(3))
        assert segment_colour(row, "texld").triplet.hex == semantic["lima-unit-texture"]
        assert segment_colour(row, "mov.v0").triplet.hex == semantic["lima-unit-vec4-mul"]
        await pilot.press("n", "n", "n")
        name_units = {text.strip(): unit for line in breakdown._lines for text, unit, _ in line[1:2]}
        assert name_units["index_offset"] == "texture" and name_units["unknown_12"] == "unknown"
        assert breakdown._style("texture").color.triplet.hex == semantic["lima-unit-texture"]
        assert breakdown._style("unknown").color.triplet.hex == semantic["lima-unknown-bits"]


async def test_clicking_a_range_in_the_breakdown_picks_its_bits(monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(REAL_INSTRUCTION), "--lima", name="real.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        _, breakdown, hex_view = panes(app)
        op = next(k for k, entry in enumerate(breakdown.entries) if entry.label is not None and entry.label.name == "op")
        row = breakdown._entry_rows[op] - breakdown.scroll_offset.y
        await pilot.click(LimaBreakdown, offset=(10, row + 1))  # + 1: the border
        assert breakdown.selected.label.name == "op"
        assert hex_view.bit_masks == {2: 0b11111 << 6}  # instruction bits 70-74: word 2, bits 6-10
        title = breakdown._entry_rows[0] - breakdown.scroll_offset.y
        # The control word's bits, `  000000 0 000000 …` high to low: column 9 is bit 25.
        await pilot.click(LimaBreakdown, offset=(10, title + 2))
        assert (breakdown.selected.strip.name, breakdown.selected.label.name) == ("control", "prefetch")
        assert hex_view.bit_masks == {0: 1 << 25}


def test_each_lima_key_is_bound_once():
    """A key of Lima mode is the screen's (from any pane) or the list's, never both."""
    from spvinspect.screens.lima_view import LimaView
    from spvinspect.widgets.lima_list import LimaInstructionList

    def keys(bindings) -> list[str]:
        return [key.strip() for binding in bindings for key in binding.key.split(",")]

    screen_keys = keys(LimaView.SCREEN_BINDINGS)
    assert len(screen_keys) == len(set(screen_keys))
    assert not set(screen_keys) & set(keys(LimaInstructionList.BINDINGS))
