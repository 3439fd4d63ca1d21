"""Lima mode's registers pane: the stepped fragment's `$0`-`$5` as vec4s, the pipeline
registers and temporaries the last step wrote, a branch's condition, and the output
colour (numbers and a swatch); what the last step changed is highlighted. `b` shows
every fp16 value's bits instead of its number.

Drawn line by line: each line of the text is drawn once (as Textual draws a widget's
text, wrapped to the pane's width) and kept, so a step draws only the lines it changed
and repaints only the screen lines whose drawing differs. A line that fits the width is
made from its pieces directly (each piece's style as Textual draws it, marked with its
offset for selecting text with the mouse); one that wraps is Textual's."""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region
from textual.reactive import var
from textual.strip import Strip
from textual.content import Content
from textual.visual import RenderOptions
from textual.widget import Widget

from spvinspect.execution import Execution
from spvinspect.screens.panes import BuiltPane
from spvinspect.screens.run_keys import RunFollower
from spvinspect.widgets.framed_lines import FramedLines

SHOWN_REGISTERS = 6
"""`$0`-`$5`, the registers Mesa's compiler allocates; higher ones only once written."""
_REGISTER = re.compile(r"^\$(\d+)(?:\.([xyzw]+))?$")
PIPELINE_ORDER = ("^coords", "^texture", "^uniform", "^const0", "^const1", "^v0", "^s0")
_KEPT_LINES = 2048
"""Drawn lines of text the pane keeps."""


@lru_cache(maxsize=4096)
def half_text(value: float, bits: bool = False) -> str:
    """An fp16 value as a person reads it (0.5, -1.25, NaN, +Inf), or its 16 bits in hex."""
    half = np.float16(value)
    if bits:
        return f"0x{int(np.array(half).view(np.uint16)):04x}"
    if np.isnan(half):
        return "NaN"
    if np.isinf(half):
        return "+Inf" if half > 0 else "-Inf"
    return str(half)


CELL = 7
"""Characters of a value's column (one space follows it)."""


def cell_text(value: float, bits: bool = False) -> str:
    """`half_text` in at most `CELL` characters: a value that reads longer keeps as many
    significant digits as fit (its bits show it exactly)."""
    text = half_text(value, bits)
    if len(text) <= CELL:
        return text
    half = float(np.float16(value))
    if half.is_integer() and len(f"{half:.0f}") <= CELL:
        return f"{half:.0f}"
    for digits in (4, 3, 2, 1):
        for kind in "ge":
            mantissa, e, exponent = f"{half:.{digits - (kind == 'e')}{kind}}".partition("e")
            shortened = f"{mantissa}e{int(exponent)}" if e else mantissa
            if len(shortened) <= CELL:
                return shortened
    return text


def changed_components(change, register: int) -> set[int]:
    """The components of `$register` the step wrote."""
    written: set[int] = set()
    if change is None:
        return written
    for value in change.values:
        match = _REGISTER.match(value.name)
        if value.kind == "register" and match and int(match.group(1)) == register:
            written |= {"xyzw".index(c) for c in (match.group(2) or "xyzw")}
    return written


def _as_line(strips: list[Strip], index: int) -> list[Strip]:
    """A line of text drawn alone (`strips`) as it is drawn as line `index` of the whole
    text: Textual marks each cell with its offset in the text, for selecting it."""
    if not index:
        return strips
    moved = []
    for strip in strips:
        segments = []
        for text, style, control in strip:
            offset = style.meta.get("offset") if style is not None and style._meta else None
            if offset is not None:
                style = style + Style.from_meta({"offset": (offset[0], index)})
            segments.append(Segment(text, style, control))
        moved.append(Strip(segments, strip.cell_length))
    return moved


class LimaRegisters(FramedLines, BuiltPane, RunFollower, Widget):
    """The registers of the stepped fragment (F11 or . steps; the pane starts the run)."""

    can_focus = True
    DEFAULT_CSS = """
    LimaRegisters { height: 1fr; min-height: 8; border: round $panel; padding: 0 1; }
    LimaRegisters:focus { border: round $accent; }
    """
    BINDINGS = [
        Binding("b", "toggle_bits", "Bits", id="registers.bits", tooltip="Show fp16 values as their bits, or as numbers"),
    ]

    bits: var[bool] = var(False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Registers"
        self.execution: Execution | None = None
        self._lines: list[tuple] = []
        """The text shown, line by line (`text_lines`)."""
        self._screen_lines: list[Strip] | None = None
        """The text drawn for the pane's content region (None: to be drawn)."""
        self._drawn_for: tuple = ()
        """What `_screen_lines` were drawn for: the content size and style."""
        self._kept: dict[tuple, list[Strip]] = {}
        """A line of text drawn before -> its screen lines (more than one when it wraps)."""
        self._piece_styles: dict = {}
        """A piece's style (None, a style name, a rich `Style`) -> the style Textual draws it
        in, for the drawing `_kept` is for."""

    def update(self, lines: list[tuple]) -> None:
        """Show `lines` (`text_lines`; a repaint, never a new layout: the pane's size does not
        change); only the screen lines whose drawing changed are repainted."""
        old, self._lines = self._screen_lines, lines
        self._screen_lines = None
        width, height = self.content_region.size
        if old is None or not width or self._drawn_for != self._drawing_key():
            self.refresh()
            return
        new = self._lines_on_screen()
        changed = [y for y in range(height) if y >= len(old) or y >= len(new) or old[y] is not new[y]]
        if changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    def render(self) -> Text:
        return _as_text(self._lines)

    def render_line(self, y: int) -> Strip:
        self._dirty_regions.clear()
        if self.text_selection is not None or self.styles.content_align != ("left", "top"):
            return super().render_line(y)  # text selected with the mouse: Textual draws it
        lines = self._screen_lines if self._screen_lines is not None else self._lines_on_screen()
        return lines[y] if y < len(lines) else Strip.blank(self.size.width, self.visual_style.rich_style)

    def _drawing_key(self) -> tuple:
        """What the drawn lines depend on besides the text: the size and the styles (Textual
        makes the styles anew when a rule, a class or the theme changes them)."""
        return (self.size, self.styles._cache_key)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn_for, self._screen_lines = (), None  # a theme: every line is drawn anew

    def on_resize(self) -> None:
        self._screen_lines = None

    def _lines_on_screen(self) -> list[Strip]:
        """The text drawn into the content region, each line of it as Textual draws a
        widget's text (wrapped to the width), from the lines drawn before when it can."""
        key = self._drawing_key()
        if self._screen_lines is not None and self._drawn_for == key:
            return self._screen_lines
        if self._drawn_for != key:
            self._kept, self._piece_styles = {}, {}
        self._drawn_for = key
        width, height = self.content_region.size
        # What `Visual.to_strips` does for a widget's text, without its per-call work that
        # has no effect here (no text selected, no links, the text at the top left).
        options = RenderOptions(self._get_style, self.styles, None, None)
        screen: list[Strip] = []
        for index, line in enumerate(self._lines):
            if len(screen) >= height:
                break
            line_key = (index, line)
            drawn = self._kept.get(line_key)
            if drawn is None:
                if len(self._kept) >= _KEPT_LINES:
                    self._kept = {}
                drawn = self._drawn_line(line, index, width, options)
                if drawn is None:
                    drawn = _as_line(self._textual_line(line, width, options), index)
                self._kept[line_key] = drawn
            screen.extend(drawn)
        self._screen_lines = screen[:height]
        return self._screen_lines

    def _textual_line(self, line: tuple, width: int, options: RenderOptions) -> list[Strip]:
        """Line `line` of the text drawn alone as Textual draws a widget's text (wrapped)."""
        return Content.from_rich_text(_line_text(line)).render_strips(width, None, self.visual_style, options)

    def _drawn_line(self, line: tuple, index: int, width: int, options: RenderOptions) -> list[Strip] | None:
        """Line `index` of the text as `_textual_line` draws it (moved to its place), made
        from its pieces: a run of unstyled pieces is one segment, a styled piece its own;
        None when it does not fit the width (Textual wraps it) or is not plain text."""
        if not line or cell_len(text := "".join(piece for piece, _ in line)) > width or not text.isprintable():
            return None
        segments: list[Segment] = []
        plain: list[str] = []
        offset = start = 0
        for piece, piece_style in line:
            if piece_style is None:
                if not plain:
                    start = offset
                plain.append(piece)
            else:
                if plain:
                    segments.append(Segment("".join(plain), self._placed(None, start, index, options)))
                    plain = []
                segments.append(Segment(piece, self._placed(piece_style, offset, index, options)))
            offset += len(piece)
        if plain:
            segments.append(Segment("".join(plain), self._placed(None, start, index, options)))
        return [Strip(segments, cell_len(text))]

    def _placed(self, piece_style, offset: int, index: int, options: RenderOptions) -> Style:
        """The style Textual draws a piece in (styled `piece_style`, at `offset` of line
        `index`): its drawing of a lone character in that style, marked with the place."""
        styles = self._piece_styles
        drawn = styles.get(piece_style)
        if drawn is None:
            alone = self._textual_line((("x", piece_style),), 1, options)
            drawn = styles[piece_style] = alone[0]._segments[0].style
        return _at(drawn, offset, index)

    def on_mount(self) -> None:
        screen = self.screen
        self.execution = getattr(screen, "execution", None)
        self.update(self.text_lines())

    def on_show(self) -> None:
        # Shown for the first time: open the run so there is something to see.
        if self.execution is not None and self.execution.run is None and hasattr(self.screen, "run_updated"):
            self.execution.open()
            self.screen.run_updated(select=False)

    def document_changed(self, document) -> None:
        # An edit: the screen makes a new run controller for the new program.
        run_updated = getattr(self.screen, "run_updated", None)
        if run_updated is not None:
            run_updated(select=False)

    def run_changed(self, execution: Execution) -> None:
        self.execution = execution
        self.update(self.text_lines())

    def watch_bits(self) -> None:
        self.update(self.text_lines())

    def action_toggle_bits(self) -> None:
        self.bits = not self.bits

    def _vector(self, values, changed: set[int] | None = None) -> list[tuple]:
        """Four values in columns of 8, as (text, style) pieces; the `changed` components
        highlighted."""
        pieces = []
        for i, value in enumerate(values):
            pieces.append((cell_text(float(value), self.bits).rjust(CELL), "bold reverse" if changed and i in changed else None))
            pieces.append((" ", None))
        return pieces

    def render_text(self) -> Text:
        """The pane's text for the open run."""
        return _as_text(self.text_lines())

    def text_lines(self) -> list[tuple]:
        """The pane's text for the open run, line by line: each line its (text, style) pieces."""
        out = _Lines()
        execution = self.execution
        run = execution.run if execution is not None else None
        if run is None:
            why = execution.error if execution is not None and execution.error else "no run yet"
            out.add(f"{why}\nF11 or . steps, F5 runs, F9 sets a breakpoint")
            return out.lines()
        machine = run.machine
        settings = execution.settings
        where = f"fragment {settings.fragment[0]},{settings.fragment[1]} of {settings.grid[0]}×{settings.grid[1]}"
        next_text = f"next {run.current_instruction}" if run.current_instruction is not None else "ended"
        out.add(f"{where} · step {run.steps} · {next_text}\n", "bold")
        out.add(f"{run.stop_reason}\n", "red" if run.error else "italic")
        change = run.last
        bank = machine.registers()
        highest = max([SHOWN_REGISTERS - 1] + [r for r in range(SHOWN_REGISTERS, 12) if np.any(bank[r])])
        for register in range(highest + 1):
            out.add(f"${register:<3}")
            out.extend(self._vector(bank[register], changed_components(change, register)))
            out.add("\n")
        # What stays from step to step first, what each step has of its own last, so that
        # a step's lines keep their places.
        self._output(out, run)
        out.add("\n")
        temporaries = machine.temporaries()
        if temporaries:
            written = {value.name for value in change.values if value.kind == "temporary"} if change else set()
            for index, values in temporaries.items():
                name = f"temp[{index}]"
                out.add(f"{name:<9}", "bold reverse" if name in written else None)
                out.extend(self._vector(values))
                out.add("\n")
        if change is not None and change.branch:
            out.add(f"branch: {change.branch} — {'taken' if change.taken else 'not taken'}\n")
        pipeline = {value.name: value for value in change.values if value.kind == "pipeline"} if change else {}
        if pipeline:
            out.add(f"pipeline, instruction {change.instruction}:\n", "bold")
            for name in sorted(pipeline, key=lambda n: PIPELINE_ORDER.index(n) if n in PIPELINE_ORDER else 99):
                out.add(f"{name:<9}")
                out.extend(self._vector(pipeline[name].new))
                out.add("\n")
        return out.lines()

    def _output(self, out: "_Lines", run) -> None:
        machine = run.machine
        result = machine.result()
        register = machine.output_register
        if result.discarded:
            out.add("output: discarded", "bold red")
            return
        state = "output" if run.finished else "output so far"
        out.add(f"{state} (${register}): ")
        out.extend(self._vector(result.color))
        rgb = [0 if np.isnan(c) else int(round(min(max(c, 0.0), 1.0) * 255)) for c in result.color[:3]]
        out.add(" ")
        out.add(SWATCH, _swatch(*rgb))  # blocks, not spaces on a background: kept where a line's end is trimmed
        if run.finished:
            out.add("  stopped", "bold")


@lru_cache(maxsize=4096)
def _at(style: Style, offset: int, index: int) -> Style:
    """`style` marked with a piece's place in the text (column `offset` of line `index`)."""
    return style + Style.from_meta({"offset": (offset, index)})


SWATCH = "██"
"""The output colour's swatch, drawn in that colour."""


@lru_cache(maxsize=256)
def _swatch(red: int, green: int, blue: int) -> Style:
    return Style(color=f"rgb({red},{green},{blue})")


class _Lines:
    """A text built line by line as (text, style) pieces, its trailing white space dropped
    (as `Text.rstrip` drops it)."""

    def __init__(self) -> None:
        self._done: list[tuple] = []
        self._line: list[tuple] = []

    def add(self, text: str, style=None) -> None:
        first, *rest = text.split("\n")
        if first:
            self._line.append((first, style or None))
        for part in rest:
            self._done.append(tuple(self._line))
            self._line = [(part, style or None)] if part else []

    def extend(self, pieces: list[tuple]) -> None:
        """(text, style) pieces without line breaks."""
        self._line.extend(pieces)

    def lines(self) -> list[tuple]:
        lines = self._done + [tuple(self._line)]
        while lines:
            last = list(lines[-1])
            while last and not last[-1][0].rstrip():
                last.pop()
            if last:
                text, style = last[-1]
                last[-1] = (text.rstrip(), style)
                lines[-1] = tuple(last)
                break
            lines.pop()
        return lines


def _as_text(lines: list[tuple]) -> Text:
    """Lines of (text, style) pieces as one rich `Text`."""
    text = Text()
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        for piece, style in line:
            text.append(piece, style)
    return text


def _line_text(line: tuple) -> Text:
    text = Text()
    for piece, style in line:
        text.append(piece, style)
    return text
