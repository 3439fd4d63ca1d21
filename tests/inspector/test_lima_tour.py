"""The guided tour in Lima mode (issue #24): the bundled Lima example's tour, run whole,
selects what each step names (a chunk of the MBS file, an instruction and a field of
its breakdown), and tours are checked against the format they are opened over."""

from __future__ import annotations

import pytest

from spvinspect import launch
from spvinspect.app import InspectorApp
from spvinspect.lima.emulator.example import example_mbs
from spvinspect.lima_document import LimaDocument
from spvinspect.tour import EXAMPLE_LIMA_TOUR, EXAMPLE_TOUR, TourError, load_tour, locate, parse_tour
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.lima_breakdown import LimaBreakdown
from spvinspect.widgets.lima_header import LimaHeader
from spvinspect.widgets.tour_pane import TourPane


async def test_the_lima_tour_selects_what_each_step_names_and_leaving_keeps_the_selection():
    tour = load_tour(EXAMPLE_LIMA_TOUR, frozenset({"header", "breakdown", "hex", "list"}))
    assert tour.format == "lima"
    app = InspectorApp(LimaDocument(example_mbs(), "lima-example.mbs"), tour=tour)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        document = screen.document
        pane = screen.pane("tour")  # built on asking, hidden
        assert isinstance(pane, TourPane)
        header, breakdown, hex_view = screen.query_one(LimaHeader), screen.query_one(LimaBreakdown), screen.query_one(HexView)
        kinds = set()
        for number, step in enumerate(tour.steps, 1):
            await pilot.press("t")
            await pilot.pause()
            await pilot.pause()
            spot = locate(document, tour, step.place)
            assert not spot.missed and not pane.missed, step.title
            if spot.byte is not None:  # a chunk: the header's line, the hex cursor on its word
                kinds.add("chunk")
                assert header.cursor_node.data.byte_offset == spot.byte
                assert header.cursor_node.label.plain.strip().startswith(step.place.expect)
                assert hex_view.cursor == document.hex_word_of_file_word(spot.byte // 4)
            else:  # an instruction and a field: the breakdown's cursor and the hex pane's bits
                kinds.add(spot.field[0])
                assert screen.selection.instruction == step.place.index
                entry = breakdown.selected
                assert (entry.strip.name, entry.label.name if entry.label else None) == spot.field, step.title
                assert hex_view.bit_masks == document.hex_bits(entry.bits)
            assert screen.pane(step.pane).display
            assert f"step {number} of {len(tour.steps)}" in pane.border_title
        assert {"chunk", "control", "varying", "sampler", "uniform", "vec4_mul", "vec4_acc", "float_acc", "branch",
                "vec4_const_0"} <= kinds
        await pilot.press("T")
        await pilot.pause()
        kept = screen.selection
        assert kept.instruction == tour.steps[-2].place.index
        await pilot.press("escape")
        await pilot.pause()
        assert not pane.display and screen.selection == kept


def test_a_lima_place_names_what_is_not_there_and_tours_keep_to_their_format():
    document = LimaDocument(example_mbs(), "x.mbs")
    tour = parse_tour(
        'format = "lima"\n'
        '[[step]]\ntitle="a"\ntext="b"\nat={instruction=9}\n'
        '[[step]]\ntitle="a"\ntext="b"\nat={instruction=0, field="texture"}\n'
        '[[step]]\ntitle="a"\ntext="b"\nat={instruction=7, field="control.halt"}\n'
        '[[step]]\ntitle="a"\ntext="b"\nat={byte=8, expect="DBIN"}\n', "t.toml")
    assert [locate(document, tour, step.place).missed for step in tour.steps] == [
        "the program has 9 instructions, no instruction 9",
        "instruction 0 field texture: instruction 0 has no field texture",
        "instruction 7 field control.halt: control has no range halt",
        "byte 0x8 holds 'CFRA', not DBIN",
    ]
    spirv = load_tour(EXAMPLE_TOUR)
    assert locate(document, spirv, spirv.steps[0].place).missed == "this tour is of a SPIR-V module, the file is a Lima PP program"
    with pytest.raises(TourError, match=r"^t.toml: step 1: at: give an instruction index"):
        parse_tour('format = "lima"\n[[step]]\ntitle="a"\ntext="b"\nat={field="control"}\n', "t.toml")
    with pytest.raises(TourError, match=r"^t.toml: step 1: at: unknown key 'word' \(a place has byte, expect, field, instruction\)"):
        parse_tour('format = "lima"\n[[step]]\ntitle="a"\ntext="b"\nat={word=0}\n', "t.toml")
    with pytest.raises(TourError, match=r"^t.toml: format = 'gp': one of 'spirv', 'lima'"):
        parse_tour('format = "gp"\n[[step]]\ntitle="a"\ntext="b"\nat={word=0}\n', "t.toml")


def test_lima_mode_opens_a_lima_tour_and_refuses_a_spirv_one(monkeypatch, tmp_path, capsys):
    opened = []
    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    monkeypatch.setattr(launch, "run_lima_app", lambda *args: opened.append(args) or 0)
    assert launch.main(["--lima-example"]) == 0
    assert opened[-1][-1].title == load_tour(EXAMPLE_LIMA_TOUR).title  # t opens the example's tour
    program = tmp_path / "p.mbs"
    program.write_bytes(example_mbs())
    assert launch.main([str(program), "--tour", str(EXAMPLE_LIMA_TOUR)]) == 0
    assert opened[-1][-1].format == "lima"
    assert launch.main([str(program), "--tour", str(EXAMPLE_TOUR)]) == 1
    assert capsys.readouterr().err.strip() == (
        f'spvinspect: error: --tour {EXAMPLE_TOUR}: a tour of a SPIR-V module (format = "spirv"), '
        "the file opens as a Lima PP program")


def test_snapshot_lima_tour_step_80x24(snap_compare):
    """A field step of the Lima tour on a small terminal: the list over the breakdown on
    its field, the tour under them with the key that shows the breakdown whole."""
    from inspector_apps import after_keys

    app = InspectorApp(LimaDocument(example_mbs(), "lima-example.mbs"), theme="spvinspect-dark",
                       tour=load_tour(EXAMPLE_LIMA_TOUR))
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys(*"tttttttttt", one_by_one=True))
