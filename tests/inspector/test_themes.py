"""The three themes: every semantic colour defined and readable on every background the
widgets draw on, the Pygments styles in step with the Textual themes, and each listing
role and Lima unit with a colour of its own."""

from __future__ import annotations

import itertools
import math

import pytest
from pygments.styles import get_style_by_name
from pygments.token import Error, Number, String
from textual.app import App

from spvinspect.codec.text.listing import Role
from spvinspect.themes.tokens import LIMA_UNIT_TOKENS, ROLE_TOKENS
from spvinspect.themes import DEFAULT_THEME, THEMES, pygments_style_for, variable_defaults
from spvinspect.themes.palettes import LIMA_VARIABLES, PALETTES, SELECTION_VARIABLE, SPIRV_VARIABLES, TEXT_VARIABLES

NAMES = ["spvinspect-dark", "spvinspect-light", "spvinspect-high-contrast"]


def luminance(colour: str) -> float:
    """WCAG relative luminance of `#rrggbb`."""
    channels = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_three_themes_exist() -> None:
    assert list(THEMES) == NAMES
    assert DEFAULT_THEME in THEMES
    assert [THEMES[name].dark for name in NAMES] == [True, False, True]


@pytest.mark.parametrize("name", NAMES)
def test_every_semantic_colour_is_readable(name) -> None:
    """AA (4.5:1) for text on every background a pane uses, AAA (7:1) in high contrast."""
    palette = PALETTES[name]
    needed = 7.0 if name.endswith("high-contrast") else 4.5
    backgrounds = {
        "background": palette.background,
        "surface": palette.surface,
        "panel": palette.panel,
        "selection": palette.selection,
    }
    colours = {"foreground": palette.foreground, **{v: palette.semantic[v] for v in TEXT_VARIABLES}}
    unreadable = [
        f"{variable} {colour} on {where} {background}: {contrast(colour, background):.2f}"
        for variable, colour in colours.items()
        for where, background in backgrounds.items()
        if contrast(colour, background) < needed
    ]
    assert not unreadable, "\n".join(unreadable)


@pytest.mark.parametrize("name", NAMES)
def test_textual_theme_defines_every_variable(name) -> None:
    variables = THEMES[name].variables
    palette = PALETTES[name]
    for variable in (*TEXT_VARIABLES, SELECTION_VARIABLE):
        assert variables[variable] == palette.semantic[variable]
    assert variables["hex-opcode"] == variables["spv-opcode"], "hex words share the list's colours"


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of `#rrggbb` (sRGB, D65)."""
    channels = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


@pytest.mark.parametrize("name", NAMES)
def test_listing_roles_and_lima_units_are_told_apart(name) -> None:
    """Any two roles, and any two units, differ by a CIE76 distance of 12 or more (2.3 is
    the smallest difference people notice)."""
    semantic = PALETTES[name].semantic
    units = [v for v in LIMA_VARIABLES if v.startswith("lima-unit-")]
    for group in (SPIRV_VARIABLES, units):
        close = [
            (a, b, round(math.dist(lab(semantic[a]), lab(semantic[b])), 1))
            for a, b in itertools.combinations(group, 2)
            if math.dist(lab(semantic[a]), lab(semantic[b])) < 12
        ]
        assert not close, f"too alike: {close}"


@pytest.mark.parametrize("name", NAMES)
def test_pygments_style_uses_the_theme_colours(name) -> None:
    style = pygments_style_for(name)
    assert get_style_by_name(name) is style, "registered as a Pygments plugin (pip install -e .)"
    semantic = PALETTES[name].semantic
    expected = {
        Role.RESULT_ID: "spv-result-id",
        Role.OPCODE: "spv-opcode",
        Role.TYPE_ID: "spv-type-id",
        Role.ID: "spv-id",
        Role.LITERAL: "spv-literal",
        Role.STRING: "spv-string",
        Role.ENUM: "spv-enum",
        Role.RAW: "spv-raw",
        Role.COMMENT: "spv-comment",
    }
    assert set(ROLE_TOKENS) == set(Role) == {*expected, Role.INDENT, Role.SPACE, Role.EQUALS}
    for role, variable in expected.items():
        assert "#" + style.style_for_token(ROLE_TOKENS[role])["color"] == semantic[variable], role
    # Subtypes the lexers emit inherit their role's colour.
    assert style.style_for_token(Number.Float) == style.style_for_token(ROLE_TOKENS[Role.LITERAL])
    assert style.style_for_token(String.Escape) == style.style_for_token(ROLE_TOKENS[Role.STRING])
    for unit, token in LIMA_UNIT_TOKENS.items():
        assert "#" + style.style_for_token(token)["color"] == semantic[f"lima-unit-{unit}"]
    assert "#" + style.style_for_token(Error)["color"] == semantic["diagnostic-error"]
    assert style.background_color == PALETTES[name].background


def test_unknown_theme_gets_a_style_of_its_brightness() -> None:
    assert pygments_style_for("textual-light", dark=False) is pygments_style_for("spvinspect-light")
    assert pygments_style_for("nord") is pygments_style_for("spvinspect-dark")


class Themed(App[None]):
    """Uses our variables in its CSS, as the app's widgets do."""

    CSS = "Screen { color: $spv-opcode; background: $hex-selection-background; }"

    def __init__(self) -> None:
        super().__init__()
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = "spvinspect-light"

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return variable_defaults(self.current_theme.dark)


async def test_widgets_can_use_the_variables_in_css_under_any_theme() -> None:
    app = Themed()
    async with app.run_test() as pilot:
        for name, palette in [
            ("spvinspect-light", "spvinspect-light"),
            ("spvinspect-high-contrast", "spvinspect-high-contrast"),
            ("textual-light", "spvinspect-light"),
            ("nord", "spvinspect-dark"),
        ]:
            app.theme = name
            await pilot.pause()
            styles = app.screen.styles
            assert styles.color.hex.lower() == PALETTES[palette].semantic["spv-opcode"], name
            assert styles.background.hex.lower() == PALETTES[palette].selection, name


def test_the_theme_layer_does_not_import_the_app() -> None:
    """themes/ depends on the codec only: importing it loads no module of the inspector."""
    import subprocess
    import sys

    code = (
        "import sys, spvinspect.themes\n"
        "print(' '.join(m for m in sys.modules if m.startswith('spvinspect.')"
        " and not m.startswith(('spvinspect.themes', 'spvinspect.codec'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.split() == []


@pytest.mark.parametrize("name", NAMES)
def test_token_styles_are_the_pygments_styles_colours(name) -> None:
    """One Pygments-to-Rich conversion: a token's Rich style has its Pygments colour and font."""
    from spvinspect.themes import token_style

    dark = THEMES[name].dark
    for token in (*ROLE_TOKENS.values(), *LIMA_UNIT_TOKENS.values(), Error):
        spec = pygments_style_for(name, dark).style_for_token(token)
        style = token_style(name, dark, token)
        assert (style.color.triplet.hex if style.color else None) == ("#" + spec["color"] if spec["color"] else None)
        assert bool(style.bold) == bool(spec["bold"]) and bool(style.italic) == bool(spec["italic"])
