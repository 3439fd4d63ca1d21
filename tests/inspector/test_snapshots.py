"""Snapshots of the main screen at 120x40 and 80x24, for the example and a broken module."""

from __future__ import annotations

from inspector_apps import broken_module_bytes, make_app
from inspector.commands.open import EXAMPLE_MODULE


async def settle(pilot) -> None:
    """Wait for the index worker, so the counts and diagnostics are final."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def example_app():
    # In the first function, the operand cursor on an id: its other uses are underlined.
    return make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark")


def broken_app():
    return make_app(broken_module_bytes(), "broken.spv", theme="spvinspect-dark")


def test_example_120x40(snap_compare):
    assert snap_compare(example_app(), terminal_size=(120, 40), run_before=settle, press=["right_square_bracket", *"jjjjjjj", "l", "l"])


def test_example_80x24(snap_compare):
    assert snap_compare(example_app(), terminal_size=(80, 24), run_before=settle, press=["right_square_bracket", *"jjjjjjj", "l"])


def test_broken_120x40(snap_compare):
    assert snap_compare(broken_app(), terminal_size=(120, 40), run_before=settle, press=["G"])


def test_broken_80x24(snap_compare):
    assert snap_compare(broken_app(), terminal_size=(80, 24), run_before=settle, press=["G"])
