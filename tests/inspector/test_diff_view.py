"""The side-by-side comparison: `spvinspect A --diff B` and the editor's `f3` (the edit
against the file on disk and its .bak). Both sides select and scroll together, `n`/`N`
step through the differences, the marks and the summary say what differs."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codec"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lima"))

from diff_pairs import make_pair  # noqa: E402
from inspector_apps import make_app  # noqa: E402
from waiting import until  # noqa: E402
from lima_words import mbs_file, to_bytes  # noqa: E402

from spvinspect import lima  # noqa: E402
from spvinspect.commands.open import EXAMPLE_MODULE  # noqa: E402
from spvinspect.diff_app import DiffApp  # noqa: E402
from spvinspect.document import Document  # noqa: E402
from spvinspect.formats.compare_files import comparing  # noqa: E402
from spvinspect.formats.comparison import CHANGED, REMOVED, A, B  # noqa: E402
from spvinspect.lima_document import LimaDocument  # noqa: E402
from spvinspect.screens.diff import DiffScreen  # noqa: E402
from spvinspect.widgets.diff_hex import DiffHexView  # noqa: E402
from spvinspect.widgets.diff_list import DiffList  # noqa: E402

TIMEOUT = 60.0


def example_pair() -> tuple[bytes, bytes, object]:
    """The example, and itself with every id renumbered, a constant's value changed
    (A's instruction 53) and an instruction removed (A's 17)."""
    data = EXAMPLE_MODULE.read_bytes()
    other, expected = make_pair(data, random.Random(2), 2)
    assert expected.changed == {53} and expected.removed == {17}
    return data, other, expected


def diff_app(data_a: bytes, data_b: bytes, names=("a.spv", "b.spv"), lima_mode: bool = False) -> DiffApp:
    document = LimaDocument(data_a, names[0]) if lima_mode else Document(data_a, names[0])
    make = comparing(document, (data_b, names[1]), lima_mode)
    return DiffApp(document, make, f"{names[0]} ⇄ {names[1]}", theme="spvinspect-dark")


async def compared(pilot) -> DiffScreen:
    """Wait until the screen on top shows its comparison (laid out, cursor placed)."""
    def shown() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, DiffScreen) and screen.comparison is not None and bool(screen.query(DiffList))

    await pilot.pause()
    await until(pilot, shown, "the comparison shown", TIMEOUT)
    await pilot.pause()
    await pilot.pause()
    return pilot.app.screen


def shown_line(widget: DiffList, row: int) -> str:
    """The text a list draws on `row` (which must be on screen)."""
    return widget.render_line(row - round(widget.scroll_offset.y)).text


def lists(screen: DiffScreen) -> tuple[DiffList, DiffList]:
    return screen.query_one("#list-a", DiffList), screen.query_one("#list-b", DiffList)


def hexes(screen: DiffScreen) -> tuple[DiffHexView, DiffHexView]:
    return screen.query_one("#hex-a", DiffHexView), screen.query_one("#hex-b", DiffHexView)


async def test_both_sides_select_and_scroll_together_and_n_steps_through_the_differences():
    data, other, _ = example_pair()
    app = diff_app(data, other)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await compared(pilot)
        comparison = screen.comparison
        list_a, list_b = lists(screen)
        hex_a, hex_b = hexes(screen)
        summary = str(screen.query_one("#diff-summary").render())
        assert "1 changed, 0 added, 1 removed" in summary

        # The first difference: A's instruction 17, removed; B shows a gap there and
        # its hex pane the instruction before it.
        removed_row = comparison.row_of(A, 17)
        assert screen.row == removed_row and comparison.kind(removed_row) == REMOVED
        assert list_a.row == list_b.row == removed_row
        assert shown_line(list_a, removed_row)[9] == "-" and shown_line(list_b, removed_row).strip() == ""
        assert hex_a.highlighted == comparison.word_range(A, 17)
        assert hex_b.highlighted == comparison.word_range(B, comparison.nearest(B, removed_row))
        assert set(comparison.word_range(A, 17)) <= {w for w in comparison.word_range(A, 17) if hex_a.cell_kind(w) == "diff-removed"}

        # n: the changed constant; its old value on the left, its new one on the right,
        # the same id name on both (ids paired by what they are, not their numbers).
        await pilot.press("n")
        changed_row = comparison.row_of(A, 53)
        assert screen.row == changed_row and comparison.kind(changed_row) == CHANGED
        left, right = shown_line(list_a, changed_row), shown_line(list_b, changed_row)
        assert left[9] == right[9] == "~" and left[10:].split("=")[0] == right[10:].split("=")[0] and left != right
        changed_b = comparison.changed_words(B, changed_row)
        assert changed_b and all(hex_b.cell_kind(w) == "diff-changed" for w in changed_b)
        assert hex_b.cursor == comparison.word_range(B, comparison.instruction(B, changed_row)).start
        status = screen.query_one("StatusLine")
        assert status.mode == "difference 2/2" and "changed (1 word)" in status.detail

        # No difference after the last; N goes back to the first.
        await pilot.press("n")
        assert screen.row == changed_row
        await pilot.press("N")
        assert screen.row == removed_row

        # Moving on one side moves both; paging scrolls both.
        await pilot.press("j", "j")
        assert list_a.row == list_b.row == removed_row + 2
        await pilot.press("pagedown")
        await pilot.pause()
        assert list_a.scroll_y == list_b.scroll_y > 0
        assert list_a.row == list_b.row > removed_row + 2

        # The cursor in B's hex pane selects its instruction's row on both sides.
        hex_b.focus()
        await pilot.press("end")
        await pilot.pause()
        last_b = comparison.instruction_at_word(B, hex_b.cursor)
        assert screen.row == comparison.row_of(B, last_b) == list_a.row
        assert hex_a.highlighted == comparison.word_range(A, comparison.nearest(A, screen.row))

        # The whole summary.
        await pilot.press("s")
        await pilot.pause()
        assert "total" in str(app.screen.query_one("Static").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_f3_in_the_editor_compares_the_edit_with_the_file_on_disk_then_its_bak(tmp_path):
    data, other, _ = example_pair()
    path = tmp_path / "module.spv"
    path.write_bytes(data)
    (tmp_path / "module.spv.bak").write_bytes(other)
    app = make_app(data, str(path))
    async with app.run_test(size=(120, 40)) as pilot:
        from test_edit_app import open_editor, settled

        main = app.screen
        await open_editor(pilot, r"= OpConstant %float \d")
        await pilot.press("7")
        await settled(pilot)
        await pilot.press("f3")
        screen = await compared(pilot)
        comparison = screen.comparison
        assert comparison.names == ("module.spv (on disk)", "module.spv as edited")
        (row,) = [int(k) for k in comparison.differences]
        assert comparison.kind(row) == CHANGED and screen.row == row
        assert shown_line(lists(screen)[B], row).rstrip().endswith("7")
        assert "1 changed, 0 added, 0 removed" in str(screen.query_one("#diff-summary").render())

        # f3 again: against the .bak (renumbered, a constant changed, an instruction
        # removed, and the constant the edit changed).
        await pilot.press("f3")
        screen = await compared(pilot)
        assert screen.comparison.names[0] == "module.spv.bak (kept before the first save)"
        assert screen.comparison.difference_number(screen.comparison.row_count)[1] == 3

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main and main.editing.editor is not None and main.editing.edit_session.binary != data


async def test_a_lima_pair_aligns_instructions_and_says_which_units_changed():
    data_a, data_b = lima_pair()
    app = diff_app(data_a, data_b, ("a.pp", "b.pp"), lima_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await compared(pilot)
        comparison = screen.comparison
        kinds = [comparison.kind(k) for k in range(comparison.row_count)]
        assert kinds == [0, 3, 0, 1]  # equal, added, equal, changed: nothing shifted
        assert "1 changed, 1 added, 0 removed" in comparison.summary_line()
        assert screen.row == 1
        await pilot.press("n")
        assert screen.row == 3 and screen.query_one("StatusLine").detail == "changed: constant"
        # Narrow: the hex panes take the lists' place with x.
        assert not hexes(screen)[A].display or not hexes(screen)[A].region.width
        await pilot.press("x")
        await pilot.pause()
        assert hexes(screen)[A].region.width and not lists(screen)[A].region.width


def lima_pair() -> tuple[bytes, bytes]:
    """A program, and it with a load inserted and a constant changed."""
    last = "stop, load.v $1 0, max.v0 ^v0 $1 ^const0.xxxx, add.v1 $2 -^v0 $0, const0 {} 0.0 0.0 0.0\n"
    text_a = "load.v $2 1\nload.v $1 0, min.v1 $2 $1 $2\n" + last.format("0.25")
    text_b = "load.v $2 1\nload.v $3 0\nload.v $1 0, min.v1 $2 $1 $2\n" + last.format("0.5")
    return to_bytes(lima.assemble(text_a)[0]), to_bytes(lima.assemble(text_b)[0])


def after_comparing(*keys: str):
    """A snapshot's `run_before`: wait for the comparison, press `keys` one by one."""

    async def run(pilot) -> None:
        await compared(pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()

    return run


def test_snapshot_spirv_pair_120x40(snap_compare):
    # On the changed constant: its differing word marked in B's hex pane.
    data, other, _ = example_pair()
    assert snap_compare(diff_app(data, other), terminal_size=(120, 40), run_before=after_comparing("n"))


def test_snapshot_lima_pair_80x24(snap_compare):
    # Narrow: the lists only (the hex panes are one key away), on the changed instruction.
    assert snap_compare(diff_app(*lima_pair(), ("a.pp", "b.pp"), lima_mode=True), terminal_size=(80, 24),
                        run_before=after_comparing("n"))


async def test_every_character_of_the_comparison_is_readable_in_our_themes():
    from test_theme_contrast import unreadable

    from spvinspect.themes import THEMES

    data, other, _ = example_pair()
    problems = []
    for theme in THEMES:
        app = diff_app(data, other)
        app.theme = theme
        async with app.run_test(size=(160, 50)) as pilot:
            await compared(pilot)
            problems += unreadable(f"{theme}: the first difference", app)
            await pilot.press("n", "tab", "tab")  # the changed words; B's list, then A's hex pane focused
            await pilot.pause()
            problems += unreadable(f"{theme}: the changed constant", app)
    assert not problems, "\n".join(problems)


def test_launch_with_diff_opens_the_comparison_or_says_in_one_line_why_not(monkeypatch, capsys, tmp_path):
    from spvinspect import launch

    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    opened = []
    monkeypatch.setattr(DiffApp, "run", lambda app: opened.append(app))
    data, other, _ = example_pair()
    a, b, mbs, junk = (tmp_path / name for name in ("a.spv", "b.spv", "c.mbs", "d.bin"))
    a.write_bytes(data)
    b.write_bytes(other)
    mbs.write_bytes(mbs_file(lima.assemble("stop, mov.v0 $1 $0")[0]))
    junk.write_bytes(b"\x00" * 16)
    assert launch.main([str(a), "--diff", str(b)]) == 0
    (app,) = opened
    assert app.sub_title == "a.spv ⇄ b.spv" and isinstance(app.get_default_screen(), DiffScreen)
    for args, message in (
        ([str(a), "--diff", str(tmp_path / "none.spv")], "none.spv"),
        ([str(a), "--diff", str(mbs)], "compare two of a kind"),
        ([str(mbs), "--diff", str(a)], "compare two of a kind"),
        ([str(a), "--diff", str(junk)], "not a SPIR-V module"),
    ):
        assert launch.main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, (args, err)
    assert len(opened) == 1
