"""Snapshots of running a SPIR-V shader: the source and values panes while stepping the
example (120x40), the values pane alone at 80x24, and a fragment shader's image at both sizes."""

from __future__ import annotations

from inspector_apps import after_keys, make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from test_spirv_image import builtins_module

STEPS = ["full_stop"] * 7
"""Up to the texture sample of line 17 (`vec4 base = texture(albedo, uv);`)."""


def example_app():
    return make_app(EXAMPLE_MODULE.read_bytes(), "example.spv", theme="spvinspect-dark")


def builtins_app():
    return make_app(builtins_module(), "builtins.spv", theme="spvinspect-dark")


def test_source_and_values_120x40(snap_compare):
    assert snap_compare(example_app(), terminal_size=(120, 40), run_before=after_keys("7", "8", *STEPS, "b", one_by_one=True))


def test_values_80x24(snap_compare):
    assert snap_compare(example_app(), terminal_size=(80, 24), run_before=after_keys("8", *STEPS, one_by_one=True))


def test_image_120x40(snap_compare):
    assert snap_compare(builtins_app(), terminal_size=(120, 40), run_before=after_keys("9", "l", "l", "j", "enter", one_by_one=True))


def test_image_80x24(snap_compare):
    assert snap_compare(builtins_app(), terminal_size=(80, 24), run_before=after_keys("9", "l", "j", one_by_one=True))
