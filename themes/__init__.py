"""spvinspect's themes: dark, light and high contrast, as Textual themes and Pygments styles.

Widgets colour things by meaning, never by literal colour: in TCSS with the variables
each theme defines (`$spv-opcode`, `$diagnostic-error`, `$lima-unit-vec4-mul`, listed in
`themes.palettes`), and in highlighted text through `token_style(theme, dark, token)`
(the theme's Pygments style as Rich styles) and the token of each listing role
(`ROLE_TOKENS`, in `themes.tokens`).
"""

from __future__ import annotations

from functools import cache

from textual.theme import BUILTIN_THEMES, Theme

from spvinspect.themes.palettes import PALETTES, Palette
from spvinspect.themes.pygments_styles import STYLES, pygments_style_for
from spvinspect.themes.readable import readable_theme
from spvinspect.themes.rich_styles import token_style
from spvinspect.themes.tokens import ROLE_TOKENS


_THEME_FIELDS = (
    "name", "primary", "secondary", "accent", "warning", "error", "success",
    "foreground", "background", "surface", "panel", "dark", "text_alpha",
)
"""The palette's fields that Textual's `Theme` takes under the same names."""


def _theme(palette: Palette) -> Theme:
    variables = {"footer-key-foreground": palette.primary, **palette.semantic, **palette.textual}
    return Theme(**{name: getattr(palette, name) for name in _THEME_FIELDS}, variables=variables)


THEMES: dict[str, Theme] = {name: _theme(palette) for name, palette in PALETTES.items()}
"""Theme name -> Textual theme; register each with `App.register_theme`."""

DEFAULT_THEME = "spvinspect-dark"


@cache
def _readable_builtin(name: str) -> Theme:
    return readable_theme(BUILTIN_THEMES[name])


def offered(theme: Theme) -> Theme:
    """`theme` as the app shows it: one of Textual's own made readable (`themes.readable`),
    each made the first time it is asked for (making them all would hold up the first
    paint), any other as it is. The app's `get_theme` returns this."""
    if theme.name not in THEMES and BUILTIN_THEMES.get(theme.name) is theme:
        return _readable_builtin(theme.name)
    return theme


def theme_names() -> list[str]:
    """Every theme the app offers: ours, then Textual's own (the palette's theme picker
    lists them all, so `--theme` and the config accept them all)."""
    return [*THEMES, *(name for name in BUILTIN_THEMES if name not in THEMES)]


def variable_defaults(dark: bool) -> dict[str, str]:
    """Our semantic variables for a theme that does not define them (Textual's own
    themes): the dark or the light theme's. Return it from the app's
    `get_theme_variable_defaults` (with `self.current_theme.dark`), else switching to
    such a theme leaves `$spv-opcode` undefined and the stylesheet fails to parse."""
    return dict(PALETTES["spvinspect-dark" if dark else "spvinspect-light"].semantic)

__all__ = [
    "DEFAULT_THEME",
    "PALETTES",
    "ROLE_TOKENS",
    "offered",
    "STYLES",
    "THEMES",
    "pygments_style_for",
    "theme_names",
    "token_style",
    "variable_defaults",
]
