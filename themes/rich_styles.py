"""Pygments styles as Rich styles: the one conversion every coloured text view uses.

The list, the editor and the Lima list colour a token by the theme's Pygments style
(`pygments_style_for`); this turns that style's entry for a token into a Rich `Style`.
"""

from __future__ import annotations

from functools import cache

from pygments.token import _TokenType
from rich.color import Color
from rich.style import Style

from spvinspect.themes.pygments_styles import pygments_style_for


@cache
def token_style(theme_name: str, dark: bool, token: _TokenType) -> Style:
    """The Rich style of a Pygments token under the named theme (see `pygments_style_for`
    for a theme that is not ours)."""
    spec = pygments_style_for(theme_name, dark).style_for_token(token)
    color = spec.get("color")
    return Style(
        color=Color.parse("#" + color) if color else None,
        bold=bool(spec.get("bold")) or None,
        italic=bool(spec.get("italic")) or None,
        underline=bool(spec.get("underline")) or None,
    )
