"""Every theme the palette offers (ours and Textual's own) is accepted by `--theme` and
restored from the config at the next start; a config naming no theme says so."""

from __future__ import annotations

import json
import sys

import pytest
from inspector_apps import make_app
from textual.theme import ThemeProvider

from spvinspect import launch
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE

SIZE = (120, 40)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh XDG config home; returns the spvinspect config file path."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "spvinspect" / "config.json"


@pytest.fixture
def started(monkeypatch):
    """The app is built as `spvinspect` builds it, then not run: returns the apps built."""
    apps = []
    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    monkeypatch.setattr(InspectorApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


async def offered_themes() -> list[str]:
    """The theme names the command palette's theme picker offers."""
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        provider = ThemeProvider(app.screen)
        return [name for name, _ in provider.commands]


async def test_every_offered_theme_is_accepted_by_the_command_line(started, home):
    names = await offered_themes()
    assert "gruvbox" in names and "spvinspect-light" in names
    for name in names:
        assert launch.main([str(EXAMPLE_MODULE), "--theme", name]) == 0, name
        assert started[-1].theme == name


async def test_a_theme_picked_in_the_palette_is_restored_at_the_next_start(started, home):
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.theme = "gruvbox"  # what the palette's theme picker does
        await pilot.pause()
    assert json.loads(home.read_text())["theme"] == "gruvbox"
    assert launch.main([str(EXAMPLE_MODULE)]) == 0
    assert started[-1].theme == "gruvbox"


async def test_a_config_theme_that_does_not_exist_is_reported(started, home):
    home.parent.mkdir(parents=True)
    home.write_text('{"theme": "neon"}')
    assert launch.main([str(EXAMPLE_MODULE)]) == 0
    app = started[-1]
    assert app.theme == "spvinspect-dark"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notices = [n.message for n in app._notifications]
    assert any("neon" in message and "no such theme" in message for message in notices), notices


async def test_a_light_textual_theme_gets_our_light_colours(started, home):
    from spvinspect.themes.palettes import DARK, LIGHT
    from spvinspect.themes.readable import TEXT, contrast
    from textual.color import Color

    app = make_app(EXAMPLE_MODULE.read_bytes(), theme="catppuccin-latte")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme_variables["spv-opcode"].lower() == LIGHT.semantic["spv-opcode"]
        app.theme = "gruvbox"
        await pilot.pause()
        opcode = Color.parse(app.theme_variables["spv-opcode"])
        assert opcode.hex != DARK.semantic["spv-opcode"].upper(), "lightened to read on gruvbox"
        assert contrast(opcode, Color.parse(app.theme_variables["background"])) >= TEXT
