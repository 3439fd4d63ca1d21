"""Snapshots of a Lima run (`--lima-example`): the registers pane after three steps and the
image the grid run draws, at 120x40 and 80x24 (where each pane opens zoomed)."""

from __future__ import annotations

from test_lima_run_app import example_app
from waiting import until


def after(*keys: str, image: bool = False):
    async def run_before(pilot) -> None:
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        if image:
            shown = pilot.app.screen.query_one("#image")
            await until(pilot, lambda: shown.pixels is not None and not shown.progress, "the image drawn")
        await pilot.pause()

    return run_before


def test_run_registers_and_image_120x40(snap_compare, monkeypatch, tmp_path):
    app = example_app(monkeypatch, tmp_path)
    keys = ("6", "full_stop", "full_stop", "full_stop", "8", "right", "up")
    assert snap_compare(app, terminal_size=(120, 40), run_before=after(*keys, image=True))


def test_run_registers_80x24(snap_compare, monkeypatch, tmp_path):
    app = example_app(monkeypatch, tmp_path)
    assert snap_compare(app, terminal_size=(80, 24), run_before=after("6", "full_stop", "full_stop", "full_stop", "full_stop"))


def test_run_image_80x24(snap_compare, monkeypatch, tmp_path):
    app = example_app(monkeypatch, tmp_path)
    assert snap_compare(app, terminal_size=(80, 24), run_before=after("8", *["right"] * 10, "up", image=True))
