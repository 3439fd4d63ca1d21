"""What each theme draws is readable: every character on the screen, in every pane and
state the tests open, against the background it is drawn on (WCAG contrast ratio, at least
4.5:1 for text and 3:1 for borders, scrollbars and other decorations)."""

from __future__ import annotations

import pytest
from inspector_apps import broken_module_bytes, make_app
from lima_apps import launched, mbs_file, program_words, to_bytes
from rich.color import Color, ColorTriplet

from textual.theme import BUILTIN_THEMES

from spvinspect.themes import THEMES
from spvinspect.widgets.cfg_view import CfgView
from waiting import until

TEXT_FLOOR = 4.5
DECORATION_FLOOR = 3.0
SIZE = (160, 50)


def luminance(colour: ColorTriplet) -> float:
    """WCAG relative luminance."""
    channels = (c / 255 for c in colour)
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: ColorTriplet, b: ColorTriplet) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def is_decoration(character: str) -> bool:
    """Box drawing, blocks, arrows and geometric shapes: borders, edges, scrollbars, marks."""
    code = ord(character)
    return 0x2190 <= code <= 0x21FF or 0x2500 <= code <= 0x25FF or 0x2800 <= code <= 0x28FF


def unreadable(screen_name: str, app) -> list[str]:
    """Each colour pair on the screen below its floor, once, with where it was seen."""
    found: dict[tuple, str] = {}
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        for segment in strip:
            text, style = segment.text, segment.style
            if style is None or not text.strip():
                continue
            foreground, background = style.color, style.bgcolor
            if style.reverse:
                foreground, background = background, foreground
            assert isinstance(foreground, Color) and isinstance(background, Color), (screen_name, y, text)
            fg, bg = foreground.get_truecolor(), background.get_truecolor()
            ratio = contrast(fg, bg)
            for kind, characters in (
                ("decoration", [c for c in text if is_decoration(c)]),
                ("text", [c for c in text if not c.isspace() and not is_decoration(c)]),
            ):
                floor = DECORATION_FLOOR if kind == "decoration" else TEXT_FLOOR
                if characters and ratio < floor:
                    key = (kind, fg.hex, bg.hex)
                    found.setdefault(key, f"{screen_name}: {kind} {fg.hex} on {bg.hex} {ratio:.2f} at row {y}: {text.strip()!r}")
    return list(found.values())


async def wait_for(pilot, condition) -> None:
    await until(pilot, condition, "condition not reached")


async def spirv_screens(theme: str) -> list[str]:
    """The main screen with every pane (a module with diagnostics, the CFG drawn, the
    cursor on an operand), then the editor."""
    app = make_app(broken_module_bytes(), theme=theme)
    problems = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("]", "j", "j", "l")
        cfg = app.screen.query_one(CfgView)
        await wait_for(pilot, lambda: cfg.drawing is not None and cfg.drawing.kind == "graph")
        await app.workers.wait_for_complete()
        await pilot.pause()
        problems += unreadable("main", app)
        for key in "13452":  # each pane focused in turn: its border, title and cursor
            await pilot.press(key)
            await pilot.pause()
            problems += unreadable(f"main, pane {key} focused", app)
        await pilot.press("e")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        problems += unreadable("editor", app)
    return problems


async def lima_screens(theme: str, monkeypatch, tmp_path) -> list[str]:
    app = launched(monkeypatch, tmp_path, mbs_file(to_bytes(program_words())), "--theme", theme)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("j", "j")
        await pilot.pause()
        problems = unreadable("lima", app)
        for key in "13452":
            await pilot.press(key)
            await pilot.pause()
            problems += unreadable(f"lima, pane {key} focused", app)
        return problems


@pytest.mark.parametrize("theme", list(THEMES))
async def test_every_character_of_our_themes_is_readable(theme, monkeypatch, tmp_path):
    problems = await spirv_screens(theme) + await lima_screens(theme, monkeypatch, tmp_path)
    assert not problems, "\n".join(problems)



TEXTUAL_THEMES = [name for name, theme in BUILTIN_THEMES.items() if not theme.ansi]
"""Textual's own themes the palette offers (the ANSI ones take the terminal's colours)."""


@pytest.mark.parametrize("name", TEXTUAL_THEMES)
def test_our_colours_read_on_textuals_themes(name, example_bytes):
    """Under Textual's themes as the app gives them, our semantic colours and the muted
    text read at 4.5:1 on the theme's backgrounds and the selection, its borders and
    scrollbars at 3:1."""
    from textual.color import Color

    from spvinspect.themes.palettes import SELECTION_VARIABLE, TEXT_VARIABLES

    theme = make_app(example_bytes, theme=name).current_theme
    assert theme.name == name
    variables = {**theme.to_color_system().generate(), **theme.variables}
    colour = lambda variable: Color.parse(variables[variable]).rich_color.triplet  # noqa: E731
    grounds = {v: colour(v) for v in ("background", "surface", "panel", SELECTION_VARIABLE)}
    checks = [(v, TEXT_FLOOR, grounds) for v in (*TEXT_VARIABLES, "text-muted")]
    checks += [("border-blurred", DECORATION_FLOOR, {v: grounds[v] for v in ("background", "surface", "panel")})]
    checks += [("scrollbar", DECORATION_FLOOR, {"scrollbar-background": colour("scrollbar-background")})]
    low = [
        f"{variable} {variables[variable]} on {where}: {contrast(colour(variable), ground):.2f}"
        for variable, floor, on in checks
        for where, ground in on.items()
        if contrast(colour(variable), ground) < floor
    ]
    assert not low, "\n".join(low)
