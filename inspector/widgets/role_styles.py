"""The Rich style of each listing role under a theme, from the theme's Pygments style.

The instruction list, the editor and the lexer share one mapping (`themes.ROLE_TOKENS`:
role to Pygments token), so a role looks the same wherever it is shown.
"""

from __future__ import annotations

from functools import cache

from rich.style import Style

from spvinspect.codec.text.listing import Role
from spvinspect.themes import ROLE_TOKENS, token_style


@cache
def role_styles(theme_name: str, dark: bool = True) -> dict[Role, Style]:
    """Listing role → Rich style for the named theme."""
    return {role: token_style(theme_name, dark, token) for role, token in ROLE_TOKENS.items()}
