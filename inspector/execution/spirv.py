"""SPIR-V runs for the app: the interpreter's `Debugger` (one invocation of an entry point,
its quad or workgroup running along) as a `SteppedRun`, and the settings the panes change
(the inputs, the fragment's pixel or the compute invocation)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from spvinspect.codec.plural import counted
from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.group import Launch, run_grid
from spvinspect.codec.interp.interface import InputError
from spvinspect.codec.interp.invocation import StepRecord
from spvinspect.codec.interp.shader import Shader, ShaderError
from spvinspect.codec.interp.trace import value_json
from spvinspect.execution.run import STEP_OUT, STEP_OVER, ChangedValue, Execution, StepChange, SteppedRun

DEFAULT_GRID = (32, 32)
"""The grid the image pane runs a fragment shader over."""
_BRANCHES = ("OpBranchConditional", "OpSwitch")


class SpirvRun(SteppedRun):
    """One invocation of an entry point, stepped (`debugger` for what the values pane reads)."""

    CAPABILITIES = frozenset((STEP_OVER, STEP_OUT))

    def __init__(self, debugger: Debugger, index_at) -> None:
        super().__init__()
        self.debugger = debugger
        self._index_at = index_at
        """Word offset → the instruction's index in the document."""
        self.visited: list[int] = []
        """The label id of each block the invocation entered, in order (the CFG's blocks taken)."""
        self._entered: list[int] = []
        """The block the invocation is in after each step."""
        self._visits: list[int] = []
        """How many blocks `visited` held after each step (back cuts it there)."""
        self._went_back = False
        """The last move went back (the next is likely back again)."""
        self._entries: dict[int, int] = {}
        """Each block in `visited` → how many times it is there."""

    @property
    def current_instruction(self) -> int | None:
        current = self.debugger.current
        return None if current is None else self._index_at(current.offset)

    @property
    def finished(self) -> bool:
        return self.debugger.finished

    @property
    def taken_blocks(self):
        """The blocks in `visited`, each once (as many as the function has, however long
        the run: a pane compares them at every step)."""
        return self._entries.keys()

    @property
    def steps(self) -> int:
        return len(self.debugger.history)

    def _advance(self) -> StepChange | None:
        self._went_back = False
        before = self.debugger.current
        record = self.debugger.step()
        if record is None:
            if self.debugger.invocation.message and self.debugger.invocation.status == "stopped":
                self.error = self.debugger.invocation.message
            return None
        self._note_block()
        if self.debugger.finished:
            self.debugger.group.run()  # the rest of the quad or workgroup, for the outputs and buffers
        return self._change(record, before)

    def _note_block(self) -> None:
        frames = self.debugger.invocation.frames
        block = frames[-1].block if frames else 0
        if block and (not self._entered or self._entered[-1] != block):
            self.visited.append(block)
            self._entries[block] = self._entries.get(block, 0) + 1
        self._entered.append(block)
        self._visits.append(len(self.visited))

    def _retreat(self) -> tuple[bool, StepChange | None]:
        if not self.debugger.history:
            return False, None
        self._went_back = True
        self.debugger.back()
        # The blocks entered up to the step now last (one entry per step taken).
        taken = len(self.debugger.history)
        del self._entered[taken:]
        del self._visits[taken:]
        kept = self._visits[-1] if self._visits else 0
        entries = self._entries
        for block in self.visited[kept:]:
            entries[block] -= 1
            if not entries[block]:
                del entries[block]
        del self.visited[kept:]
        history = self.debugger.history
        return True, self._change(history[-1], None) if history else None

    def _over(self) -> StepChange | None:
        depth = self.debugger.depth
        change = self._one()
        while change is not None and not self.finished and self.debugger.depth > depth:
            if self.current_instruction in self.breakpoints:
                break
            change = self._one() or change
        return change

    def _out(self) -> None:
        depth = self.debugger.depth
        while not self.finished and self.debugger.depth >= depth:
            if self._one() is None:
                return
            if self.current_instruction in self.breakpoints:
                return

    def after_move(self) -> None:
        self.debugger.prepare(going_back=self._went_back)

    def ended_text(self) -> str:
        inv = self.debugger.invocation
        if inv.status == "killed":
            return f"the invocation was killed (discard) after {counted(self.steps, 'step')}"
        if inv.message:
            return f"stopped: {inv.message}"
        return f"returned after {counted(self.steps, 'step')}"

    def _change(self, record: StepRecord, before) -> StepChange:
        shader = self.debugger.shader
        values: list[ChangedValue] = []
        if record.result_id and record.value is not None:
            new = value_json(shader, record.result_id, record.value)
            values.append(ChangedValue(f"%{shader.names.get(record.result_id, record.result_id)}", None, (new,), "id"))
        for where, stored in record.stores:
            values.append(ChangedValue(where, None, (str(stored),), "memory"))
        branch = None
        if record.opname in _BRANCHES:
            branch = record.note or f"{record.opname} at word {record.offset}"
        outcome = None
        if self.finished:
            outcome = self.debugger.invocation.status
        return StepChange(self._index_at(record.offset), tuple(values), branch, branch is not None, outcome)


@dataclass
class SpirvSettings:
    """What a SPIR-V run reads besides the module: the entry point, the inputs (the
    `spvinspect run --inputs` shape), the fragment's pixel and the grid of the image, the
    compute invocation."""

    data: bytes
    inputs: dict = field(default_factory=dict)
    entry: str | None = None
    fragment: tuple[int, int] = (0, 0)
    grid: tuple[int, int] = DEFAULT_GRID
    invocation: tuple[int, int, int] = (0, 0, 0)
    _shader: Shader | None = None

    def carry_from(self, old: SpirvSettings) -> SpirvSettings:
        """These settings for an edited module, keeping the old inputs, entry, pixel and invocation."""
        self.inputs, self.entry, self.fragment, self.grid, self.invocation = (
            old.inputs, old.entry, old.fragment, old.grid, old.invocation)
        return self

    def shader(self) -> Shader:
        """The module read for running (once; ShaderError says why it cannot be)."""
        if self._shader is None:
            self._shader = Shader(self.data, self.inputs.get("spec_constants"))
        return self._shader

    def debugger(self) -> Debugger:
        launch = Launch(fragment=self.fragment, invocation=self.invocation)
        return Debugger(self.shader(), self.entry, self.inputs, launch)


def spirv_execution(document, inputs: dict | None = None) -> Execution:
    """The open-run controller of a module: its `settings` (a `SpirvSettings`) are what
    each run starts from, as they are then."""
    execution = Execution(lambda: None, settings=SpirvSettings(document.data, dict(inputs or {})), numbered_from=1)

    def start() -> SpirvRun:
        try:
            debugger = execution.settings.debugger()
        except (ShaderError, InputError) as error:
            raise ValueError(str(error)) from error
        return SpirvRun(debugger, document.module.index_at)

    execution.start = start
    return execution


@dataclass
class GridImage:
    """A fragment shader's colour output over a grid: (H, W, 4) float32 with row 0 at the
    bottom (as the image widget draws), which pixels were discarded, what it shows."""

    pixels: np.ndarray
    discarded: np.ndarray
    output: str
    """The output drawn (the first scalar or vector output, by its name)."""
    per_invocation: str = ""
    """Why the grid ran invocation by invocation rather than in lanes ("" when in lanes)."""


def grid_image(settings: SpirvSettings, progress: Callable[[int, int], bool] | None = None) -> GridImage | None:
    """Run the entry point over `settings.grid` (a fragment shader; None for another stage)
    and take its colour output; `progress` as `run_grid` takes it."""
    shader = settings.shader()
    entry = shader.entry_point(settings.entry)
    if entry.model != "Fragment":
        return None
    width, height = settings.grid
    result = run_grid(shader, entry, settings.inputs, (width, height), progress=progress)
    pixels = np.zeros((height, width, 4), dtype=np.float32)
    discarded = np.ones((height, width), dtype=bool)
    output = ""
    for i, outputs in enumerate(result["pixels"]):
        if not outputs:
            continue
        name, value = next(((n, v) for n, v in outputs.items() if _colour(v) is not None), ("", None))
        if value is None:
            continue
        output = output or name
        y, x = divmod(i, width)
        pixels[height - 1 - y, x] = _colour(value)
        discarded[height - 1 - y, x] = False
    return GridImage(pixels, discarded, output, result.get("per_invocation", ""))


def _number(v) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if v in ("nan", "inf", "-inf"):
        return float(v)
    return None


def _colour(value) -> tuple[float, float, float, float] | None:
    """An output's value as RGBA (a scalar grey, a vector's first four; alpha 1 when absent)."""
    parts = value if isinstance(value, list) else [value]
    numbers = [_number(v) for v in parts[:4]]
    if not numbers or any(n is None for n in numbers):
        return None
    if len(numbers) == 1:
        numbers = numbers * 3
    return tuple((numbers + [0.0, 0.0, 1.0])[:3] + ([numbers[3]] if len(numbers) > 3 else [1.0]))
