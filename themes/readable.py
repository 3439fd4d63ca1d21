"""Textual's own themes made readable: our semantic colours and the text, border,
scrollbar and cursor colours of a theme we did not write, adjusted until they read on its
backgrounds (4.5:1 for text, 3:1 for decorations, as our palettes do).

Textual derives a theme's muted text, borders and scrollbars from its base colours, and
some come out faint (a border at 1.2:1); our semantic colours come from our dark or light
palette, chosen for our backgrounds, not the theme's. `readable_theme` returns the theme
with those variables set, each the palette's colour moved towards white or black until
it reads.
"""

from __future__ import annotations

from dataclasses import replace

from textual.color import Color
from textual.theme import Theme

from spvinspect.themes.palettes import DARK, LIGHT, SELECTION_VARIABLE

TEXT = 4.5
DECORATION = 3.0


def contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two opaque colours, 1 to 21."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def readable(colour: Color, backgrounds: list[Color], floor: float) -> Color:
    """`colour`, or the first blend of it towards white or black (whichever the
    backgrounds contrast with) that reads at `floor` on every background."""
    dark = sum(_luminance(b) for b in backgrounds) / len(backgrounds) < 0.18
    target = Color(255, 255, 255) if dark else Color(0, 0, 0)
    for step in range(21):
        candidate = colour.blend(target, step / 20)
        if min(contrast(candidate, b) for b in backgrounds) >= floor:
            return candidate
    return target


def readable_theme(theme: Theme) -> Theme:
    """`theme` with our semantic colours and Textual's text, border, scrollbar and cursor
    colours adjusted to read on its backgrounds (a theme of ANSI colours is returned as
    it is: the terminal picks those)."""
    if theme.ansi:
        return theme
    generated = theme.to_color_system().generate()
    base = {name: Color.parse(generated[name]) for name in ("background", "surface", "panel", "foreground", "primary")}
    scrollbar_background = Color.parse(generated["scrollbar-background"])
    if any(colour.ansi is not None for colour in base.values()):
        return theme
    background, foreground = base["background"], base["foreground"]
    grounds = [background, base["surface"], base["panel"]]
    selection = background.blend(base["primary"], 0.2)
    palette = DARK if theme.dark else LIGHT
    variables = {
        name: readable(Color.parse(value), [*grounds, selection], TEXT).hex
        for name, value in palette.semantic.items()
        if name != SELECTION_VARIABLE
    }
    variables[SELECTION_VARIABLE] = selection.hex
    muted = readable(foreground.blend(background, 0.35), [*grounds, selection], TEXT).hex
    line = readable(foreground.blend(background, 0.55), grounds, DECORATION).hex
    cursor = base["primary"]
    variables.update({
        "text": readable(foreground, [*grounds, selection], TEXT).hex,
        "text-muted": muted,
        "text-disabled": muted,
        "border-blurred": line,
        "scrollbar": readable(foreground.blend(background, 0.55), [scrollbar_background], DECORATION).hex,
        "block-cursor-foreground": max((background, foreground), key=lambda c: contrast(c, cursor)).hex,
    })
    return replace(theme, variables={**theme.variables, **variables})
