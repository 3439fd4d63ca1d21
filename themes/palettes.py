"""The colours of the three themes: one palette each, the single source of both the Textual
themes and the Pygments styles.

A palette holds the base colours Textual derives its design system from, and the
semantic colours the widgets and the lexers' styles use by name (`spv-opcode`,
`diagnostic-error`, `lima-unit-vec4-mul`). Every semantic colour is a text colour,
chosen to read at WCAG AA (4.5:1) on the background, surface, panel and selection
colours, and at AAA (7:1) in the high-contrast theme; `tests/inspector/test_themes.py`
checks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SPIRV_VARIABLES = (
    "spv-result-id",
    "spv-opcode",
    "spv-type-id",
    "spv-id",
    "spv-literal",
    "spv-string",
    "spv-enum",
    "spv-raw",
    "spv-comment",
)
"""The colours of the parts of an assembly line, one per listing role."""

DIAGNOSTIC_VARIABLES = ("diagnostic-error", "diagnostic-warning", "diagnostic-note")

HEX_VARIABLES = {
    "hex-header": None,
    "hex-opcode": "spv-opcode",
    "hex-result-id": "spv-result-id",
    "hex-type-id": "spv-type-id",
    "hex-id": "spv-id",
    "hex-literal": "spv-literal",
    "hex-string": "spv-string",
    "hex-enum": "spv-enum",
    "hex-raw": "spv-raw",
    "hex-tail": None,
}
"""Word kinds of the hex pane -> the listing colour they share (None: a colour of their
own), so a word and its operand in the list look alike."""

CFG_VARIABLES = (
    "cfg-edge",
    "cfg-back-edge",
    "cfg-merge-edge",
    "cfg-continue-edge",
    "cfg-branch-true",
    "cfg-branch-false",
    "cfg-unreachable",
)

LIMA_VARIABLES = (
    "lima-unit-varying",
    "lima-unit-uniform",
    "lima-unit-temporary",
    "lima-unit-vec4-mul",
    "lima-unit-scalar-mul",
    "lima-unit-vec4-add",
    "lima-unit-scalar-add",
    "lima-unit-complex",
    "lima-unit-texture",
    "lima-unit-branch",
    "lima-unit-constant",
    "lima-control-word",
    "lima-unknown-bits",
)

TEXT_VARIABLES = (
    *SPIRV_VARIABLES,
    *DIAGNOSTIC_VARIABLES,
    *HEX_VARIABLES,
    *CFG_VARIABLES,
    *LIMA_VARIABLES,
)
"""Every semantic text colour a palette defines."""

SELECTION_VARIABLE = "hex-selection-background"
"""The background of the selected instruction's words (and the Pygments highlight)."""


@dataclass(frozen=True)
class Palette:
    """One theme's colours: Textual's base colours and the semantic ones, all `#rrggbb`."""

    name: str
    dark: bool
    primary: str
    secondary: str
    accent: str
    warning: str
    error: str
    success: str
    foreground: str
    background: str
    surface: str
    panel: str
    selection: str
    own: dict[str, str] = field(repr=False)
    """Semantic colours chosen for this theme; shared hex colours are derived."""
    textual: dict[str, str] = field(default_factory=dict, repr=False)
    """Values for Textual's own variables this theme sets: its text colours, borders,
    scrollbars and cursor, so that they read at 4.5:1 (text) and 3:1 (decorations) where
    Textual's derived ones do not (`tests/inspector/test_theme_contrast.py`)."""
    text_alpha: float = 0.95
    """Opacity of Textual's `$text`; 1.0 keeps text at full contrast."""

    @property
    def semantic(self) -> dict[str, str]:
        """Every semantic variable -> colour, the hex pane's shared ones included."""
        colours = dict(self.own)
        for name, shared in HEX_VARIABLES.items():
            if shared is not None:
                colours[name] = self.own[shared]
        colours[SELECTION_VARIABLE] = self.selection
        return colours


DARK = Palette(
    name="spvinspect-dark",
    dark=True,
    primary="#7aa2f7",
    secondary="#4fd6be",
    accent="#c099ff",
    warning="#ffc55c",
    error="#ff7a88",
    success="#9ece6a",
    foreground="#d8dee9",
    background="#16181d",
    surface="#1e2128",
    panel="#272b33",
    selection="#283247",
    own={
        "spv-result-id": "#e5c07b",
        "spv-opcode": "#7aa2f7",
        "spv-type-id": "#4fd6be",
        "spv-id": "#c0caf5",
        "spv-literal": "#ff9e64",
        "spv-string": "#9ece6a",
        "spv-enum": "#c099ff",
        "spv-raw": "#ff7a93",
        "spv-comment": "#98a2b9",
        "diagnostic-error": "#ff7a88",
        "diagnostic-warning": "#ffc55c",
        "diagnostic-note": "#7dcfff",
        "hex-header": "#f7a6e0",
        "hex-tail": "#ff7a93",
        "cfg-edge": "#a9b1d6",
        "cfg-back-edge": "#ff9e64",
        "cfg-merge-edge": "#c099ff",
        "cfg-continue-edge": "#4fd6be",
        "cfg-branch-true": "#9ece6a",
        "cfg-branch-false": "#ff7a93",
        "cfg-unreachable": "#98a2b9",
        "lima-unit-varying": "#9ece6a",
        "lima-unit-uniform": "#e5c07b",
        "lima-unit-temporary": "#d7a98c",
        "lima-unit-vec4-mul": "#ff7a93",
        "lima-unit-scalar-mul": "#ff9e64",
        "lima-unit-vec4-add": "#7aa2f7",
        "lima-unit-scalar-add": "#7dcfff",
        "lima-unit-complex": "#c099ff",
        "lima-unit-texture": "#4fd6be",
        "lima-unit-branch": "#f7a6e0",
        "lima-unit-constant": "#c0caf5",
        "lima-control-word": "#a9b1d6",
        "lima-unknown-bits": "#ffc55c",
    },
    textual={
        "text": "#d8dee9",
        "text-muted": "#98a2b9",
        "text-disabled": "#98a2b9",
        "border-blurred": "#737a87",
        "scrollbar": "#737a87",
        "scrollbar-hover": "#98a2b9",
        "block-cursor-foreground": "#16181d",
    },
)

LIGHT = Palette(
    name="spvinspect-light",
    dark=False,
    primary="#0b4fb3",
    secondary="#00696b",
    accent="#7a3db8",
    warning="#8a5a00",
    error="#c0162f",
    success="#2f6b12",
    foreground="#1f2329",
    background="#fbfbfc",
    surface="#f2f3f5",
    panel="#e6e8ec",
    selection="#dbe6f7",
    own={
        "spv-result-id": "#8a4b00",
        "spv-opcode": "#0b4fb3",
        "spv-type-id": "#00696b",
        "spv-id": "#3a3f8f",
        "spv-literal": "#b0380c",
        "spv-string": "#2f6b12",
        "spv-enum": "#7a3db8",
        "spv-raw": "#b3174a",
        "spv-comment": "#5c6370",
        "diagnostic-error": "#c0162f",
        "diagnostic-warning": "#8a5a00",
        "diagnostic-note": "#0b5cad",
        "hex-header": "#a3207f",
        "hex-tail": "#b3174a",
        "cfg-edge": "#4b5263",
        "cfg-back-edge": "#b0380c",
        "cfg-merge-edge": "#7a3db8",
        "cfg-continue-edge": "#00696b",
        "cfg-branch-true": "#2f6b12",
        "cfg-branch-false": "#b3174a",
        "cfg-unreachable": "#5c6370",
        "lima-unit-varying": "#2f6b12",
        "lima-unit-uniform": "#8a5a00",
        "lima-unit-temporary": "#7b4a2a",
        "lima-unit-vec4-mul": "#b3174a",
        "lima-unit-scalar-mul": "#b0380c",
        "lima-unit-vec4-add": "#0b4fb3",
        "lima-unit-scalar-add": "#0b6a9e",
        "lima-unit-complex": "#7a3db8",
        "lima-unit-texture": "#00696b",
        "lima-unit-branch": "#a3207f",
        "lima-unit-constant": "#3a3f8f",
        "lima-control-word": "#4b5263",
        "lima-unknown-bits": "#9c4f00",
    },
    textual={
        "text": "#1f2329",
        "text-muted": "#5c6370",
        "text-disabled": "#5c6370",
        "border-blurred": "#7d838d",
        "scrollbar": "#6b717b",
        "scrollbar-hover": "#4b5263",
        "block-cursor-foreground": "#fbfbfc",
    },
)

HIGH_CONTRAST = Palette(
    name="spvinspect-high-contrast",
    dark=True,
    primary="#8cc8ff",
    secondary="#5cffe0",
    accent="#ffe066",
    warning="#ffe066",
    error="#ffa0a0",
    success="#9dff7a",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#0a0a0a",
    selection="#102040",
    own={
        "spv-result-id": "#ffe066",
        "spv-opcode": "#8cc8ff",
        "spv-type-id": "#5cffe0",
        "spv-id": "#ffffff",
        "spv-literal": "#ffb870",
        "spv-string": "#9dff7a",
        "spv-enum": "#e0b8ff",
        "spv-raw": "#ff9ec0",
        "spv-comment": "#c8c8c8",
        "diagnostic-error": "#ffa0a0",
        "diagnostic-warning": "#ffe066",
        "diagnostic-note": "#8cc8ff",
        "hex-header": "#ffb8f0",
        "hex-tail": "#ff9ec0",
        "cfg-edge": "#ffffff",
        "cfg-back-edge": "#ffb870",
        "cfg-merge-edge": "#e0b8ff",
        "cfg-continue-edge": "#5cffe0",
        "cfg-branch-true": "#9dff7a",
        "cfg-branch-false": "#ff9ec0",
        "cfg-unreachable": "#c8c8c8",
        "lima-unit-varying": "#9dff7a",
        "lima-unit-uniform": "#ffe066",
        "lima-unit-temporary": "#f0c8a0",
        "lima-unit-vec4-mul": "#ff9ec0",
        "lima-unit-scalar-mul": "#ffb870",
        "lima-unit-vec4-add": "#8cc8ff",
        "lima-unit-scalar-add": "#a0f0ff",
        "lima-unit-complex": "#e0b8ff",
        "lima-unit-texture": "#5cffe0",
        "lima-unit-branch": "#ffb8f0",
        "lima-unit-constant": "#ffffff",
        "lima-control-word": "#e0e0e0",
        "lima-unknown-bits": "#ffff00",
    },
    textual={
        "text": "#ffffff",
        "text-muted": "#c8c8c8",
        "text-disabled": "#c8c8c8",
        "border-blurred": "#8a8a8a",
        "scrollbar": "#8a8a8a",
        "scrollbar-hover": "#c8c8c8",
        "block-cursor-background": "#ffe066",
        "block-cursor-foreground": "#000000",
        "block-cursor-text-style": "bold",
        "footer-key-foreground": "#ffe066",
    },
    text_alpha=1.0,
)

PALETTES: dict[str, Palette] = {p.name: p for p in (DARK, LIGHT, HIGH_CONTRAST)}
"""Theme name -> palette."""
