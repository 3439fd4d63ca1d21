"""The Rich style of each listing role under a theme, from the theme's Pygments style.

The instruction list, the editor and the lexer share one mapping (`themes.ROLE_TOKENS`:
role to Pygments token), so a role looks the same wherever it is shown.
"""

from __future__ import annotations

from functools import cache

from rich.color import Color
from rich.style import Style

from spvinspect.codec.text.listing import Role
from spvinspect.themes import ROLE_TOKENS, pygments_style_for


@cache
def role_styles(theme_name: str, dark: bool = True) -> dict[Role, Style]:
    """Listing role → Rich style for the named theme."""
    pygments_style = pygments_style_for(theme_name, dark)
    return {role: _rich_style(pygments_style.style_for_token(token)) for role, token in ROLE_TOKENS.items()}


def _rich_style(spec: dict) -> Style:
    color = spec.get("color")
    return Style(
        color=Color.parse("#" + color) if color else None,
        bold=bool(spec.get("bold")) or None,
        italic=bool(spec.get("italic")) or None,
        underline=bool(spec.get("underline")) or None,
    )
