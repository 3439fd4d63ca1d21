"""Snapshots of the main screen at 120x40 and 80x24, for the example and a broken module."""

from __future__ import annotations

from inspector_apps import after_keys, broken_module_bytes, make_app
from spvinspect.commands.open import EXAMPLE_MODULE


def example_app():
    # In the first function, the operand cursor on an id: its other uses are underlined.
    return make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark")


def broken_app():
    return make_app(broken_module_bytes(), "broken.spv", theme="spvinspect-dark")


def test_example_120x40(snap_compare):
    assert snap_compare(example_app(), terminal_size=(120, 40), run_before=after_keys(("right_square_bracket",), *"jjjjjjj", "l", "l"))


def test_example_80x24(snap_compare):
    assert snap_compare(example_app(), terminal_size=(80, 24), run_before=after_keys(("right_square_bracket",), *"jjjjjjj", "l"))


def test_broken_120x40(snap_compare):
    assert snap_compare(broken_app(), terminal_size=(120, 40), run_before=after_keys("G"))


def test_broken_80x24(snap_compare):
    assert snap_compare(broken_app(), terminal_size=(80, 24), run_before=after_keys("G"))
