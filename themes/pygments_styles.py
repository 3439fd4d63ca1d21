"""Pygments styles made from the theme palettes, one per theme, under the theme's name.

They colour our lexers' tokens with the palette's semantic colours, so highlighted text
in the editor, in the instruction list and from `pygmentize -O style=spvinspect-dark`
looks the same. Registered as Pygments plugins (`pygments.styles` entry points).
"""

from __future__ import annotations

from pygments.style import Style
from pygments.token import Error, Name, Operator, Punctuation, Token, _TokenType

from spvinspect.themes.tokens import (
    COMMENT,
    ENUM,
    ID,
    LIMA_COMPONENTS,
    LIMA_CONTROL,
    LIMA_LABEL,
    LIMA_MODIFIER,
    LIMA_PIPELINE_REGISTER,
    LIMA_UNIT_TOKENS,
    LITERAL,
    OPCODE,
    RAW,
    RESULT_ID,
    STRING,
    TYPE_ID,
)
from spvinspect.themes.palettes import DARK, HIGH_CONTRAST, LIGHT, Palette

TOKEN_VARIABLES: dict[_TokenType, tuple[str, str]] = {
    COMMENT: ("spv-comment", "italic"),
    OPCODE: ("spv-opcode", "bold"),
    RESULT_ID: ("spv-result-id", "bold"),
    TYPE_ID: ("spv-type-id", ""),
    ID: ("spv-id", ""),
    LITERAL: ("spv-literal", ""),
    STRING: ("spv-string", ""),
    ENUM: ("spv-enum", ""),
    RAW: ("spv-raw", "bold"),
    Error: ("diagnostic-error", "underline"),
    LIMA_CONTROL: ("lima-control-word", "bold"),
    LIMA_PIPELINE_REGISTER: ("spv-type-id", ""),
    LIMA_COMPONENTS: ("spv-enum", ""),
    LIMA_MODIFIER: ("spv-raw", ""),
    LIMA_LABEL: ("spv-result-id", "bold"),
    **{token: (f"lima-unit-{unit}", "bold") for unit, token in LIMA_UNIT_TOKENS.items()},
}
"""Token type -> (semantic colour variable, font attributes). Subtypes not listed here
(`Number.Hex`, `String.Escape`) inherit their parent's entry."""

_PLAIN = (Token, Operator, Punctuation, Name)
"""Tokens drawn in the theme's foreground colour."""


def _style_class(palette: Palette) -> type[Style]:
    colours = palette.semantic
    styles = {token: palette.foreground for token in _PLAIN}
    for token, (variable, attributes) in TOKEN_VARIABLES.items():
        styles[token] = f"{attributes} {colours[variable]}".strip()
    class_name = "".join(part.title() for part in palette.name.split("-")) + "Style"
    return type(Style)(
        class_name,
        (Style,),
        {
            "__doc__": f"The {palette.name} theme's colours for Pygments.",
            "__module__": __name__,
            "name": palette.name,
            "background_color": palette.background,
            "highlight_color": palette.selection,
            "line_number_color": colours["spv-comment"],
            "styles": styles,
        },
    )


SpvinspectDarkStyle = _style_class(DARK)
SpvinspectLightStyle = _style_class(LIGHT)
SpvinspectHighContrastStyle = _style_class(HIGH_CONTRAST)

STYLES: dict[str, type[Style]] = {
    style.name: style
    for style in (SpvinspectDarkStyle, SpvinspectLightStyle, SpvinspectHighContrastStyle)
}
"""Theme name -> its Pygments style."""


def pygments_style_for(theme_name: str, dark: bool = True) -> type[Style]:
    """The Pygments style of a theme. For a theme that is not ours (Textual's own), our
    dark or light style as `dark` says, since highlighted text always needs a style."""
    fallback = SpvinspectDarkStyle if dark else SpvinspectLightStyle
    return STYLES.get(theme_name, fallback)
