"""Lima mode's registers pane: the stepped fragment's `$0`-`$5` as vec4s, the pipeline
registers and temporaries the last step wrote, a branch's condition, and the output
colour (numbers and a swatch); what the last step changed is highlighted. `b` shows
every fp16 value's bits instead of its number."""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region
from textual.reactive import var
from textual.widget import Widget

from spvinspect.execution import Execution
from spvinspect.screens.panes import BuiltPane
from spvinspect.screens.run_keys import RunFollower

SHOWN_REGISTERS = 6
"""`$0`-`$5`, the registers Mesa's compiler allocates; higher ones only once written."""
_REGISTER = re.compile(r"^\$(\d+)(?:\.([xyzw]+))?$")
PIPELINE_ORDER = ("^coords", "^texture", "^uniform", "^const0", "^const1", "^v0", "^s0")


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


def changed_lines(old: Text, new: Text, width: int, height: int) -> list[int] | None:
    """The screen lines (of `height`) that differ between `old` and `new` drawn `width`
    cells wide: the text lines that changed, and every line from the first one wider than
    `width` (it wraps, moving those after it); None when there is no width."""
    if width <= 0:
        return None
    old_lines, new_lines = old.split("\n", allow_blank=True), new.split("\n", allow_blank=True)
    lines = []
    for y in range(max(len(old_lines), len(new_lines))):
        before = old_lines[y] if y < len(old_lines) else None
        after = new_lines[y] if y < len(new_lines) else None
        if any(line is not None and line.cell_len > width for line in (before, after)):
            return lines + list(range(y, max(y, height)))
        if before != after:
            lines.append(y)
    return lines


class LimaRegisters(BuiltPane, RunFollower, Widget):
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
        self._text = Text()

    def update(self, text: Text) -> None:
        """Show `text` (a repaint, never a new layout: the pane's size does not change);
        only the lines that changed are repainted when the others stay where they were."""
        old, self._text = self._text, text
        width, height = self.content_region.size
        lines = changed_lines(old, text, width, height)
        if lines is None:
            self.refresh()
        elif lines:
            self.refresh(*(Region(0, y, width, 1) for y in lines))

    def render(self) -> Text:
        return self._text

    def on_mount(self) -> None:
        screen = self.screen
        self.execution = getattr(screen, "execution", None)
        self.update(self.render_text())

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
        self.update(self.render_text())

    def watch_bits(self) -> None:
        self.update(self.render_text())

    def action_toggle_bits(self) -> None:
        self.bits = not self.bits

    def _vector(self, values, changed: set[int] | None = None) -> Text:
        """Four values in columns of 8; the `changed` components highlighted."""
        text = Text("".join(half_text(float(value), self.bits).rjust(7) + " " for value in values))
        for i in changed or ():
            text.stylize("bold reverse", 8 * i, 8 * i + 7)
        return text

    def render_text(self) -> Text:
        """The pane's text for the open run."""
        execution = self.execution
        run = execution.run if execution is not None else None
        if run is None:
            why = execution.error if execution is not None and execution.error else "no run yet"
            return Text(f"{why}\nF11 or . steps, F5 runs, F9 sets a breakpoint")
        machine = run.machine
        settings = execution.settings
        out = Text()
        where = f"fragment {settings.fragment[0]},{settings.fragment[1]} of {settings.grid[0]}×{settings.grid[1]}"
        next_text = f"next {run.current_instruction}" if run.current_instruction is not None else "ended"
        out.append(f"{where} · step {run.steps} · {next_text}\n", "bold")
        out.append(f"{run.stop_reason}\n", "red" if run.error else "italic")
        change = run.last
        bank = machine.registers()
        highest = max([SHOWN_REGISTERS - 1] + [r for r in range(SHOWN_REGISTERS, 12) if np.any(bank[r])])
        for register in range(highest + 1):
            out.append(f"${register:<3}")
            out.append_text(self._vector(bank[register], changed_components(change, register)))
            out.append("\n")
        pipeline = {value.name: value for value in change.values if value.kind == "pipeline"} if change else {}
        if pipeline:
            out.append(f"pipeline, instruction {change.instruction}:\n", "bold")
            for name in sorted(pipeline, key=lambda n: PIPELINE_ORDER.index(n) if n in PIPELINE_ORDER else 99):
                out.append(f"{name:<9}")
                out.append_text(self._vector(pipeline[name].new))
                out.append("\n")
        temporaries = machine.temporaries()
        if temporaries:
            written = {value.name for value in change.values if value.kind == "temporary"} if change else set()
            for index, values in temporaries.items():
                name = f"temp[{index}]"
                out.append(f"{name:<9}", "bold reverse" if name in written else "")
                out.append_text(self._vector(values))
                out.append("\n")
        if change is not None and change.branch:
            out.append(f"branch: {change.branch} — {'taken' if change.taken else 'not taken'}\n")
        out.append_text(self._output(run))
        return out

    def _output(self, run) -> Text:
        machine = run.machine
        result = machine.result()
        register = machine.output_register
        out = Text()
        if result.discarded:
            return Text("output: discarded", "bold red")
        state = "output" if run.finished else "output so far"
        out.append(f"{state} (${register}): ")
        out.append_text(self._vector(result.color))
        rgb = [0 if np.isnan(c) else int(round(min(max(c, 0.0), 1.0) * 255)) for c in result.color[:3]]
        out.append("      ", Style(bgcolor=f"rgb({rgb[0]},{rgb[1]},{rgb[2]})"))
        if run.finished:
            out.append("  stopped", "bold")
        return out
