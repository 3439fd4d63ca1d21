"""The source a module carries and where each instruction came from: the text of `OpSource`
(with `OpSourceContinued`) and of `NonSemantic.Shader.DebugInfo.100`'s `DebugSource` (with
`DebugSourceContinued`), and the line each instruction is tied to by `OpLine` or `DebugLine`.

A line directive covers the instructions after it up to the next directive, `OpNoLine` /
`DebugNoLine`, or the end of its block (the terminator included), as the specification
says; the directives themselves are tied to their line but are not "its instructions".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from spvinspect.codec.binary.model import Instruction
from spvinspect.codec.cfg.graph import BRANCH_OPNAMES, EXIT_OPNAMES
from spvinspect.codec.grammar import load_grammar

DEBUG_INFO_SET = "NonSemantic.Shader.DebugInfo.100"
"""The import name of the non-semantic debug-info set whose `DebugSource` and `DebugLine` are read."""
_ENDS_BLOCK = frozenset((*BRANCH_OPNAMES, *EXIT_OPNAMES, "OpFunctionEnd"))


@dataclass
class SourceFile:
    """One source file the module names: its name, its text (empty when only named) and
    the instructions tied to each of its lines."""

    key: int
    """The id that names it: OpSource's File string, or DebugSource's result id."""
    name: str
    language: str = ""
    text: str = ""
    lines_to_instructions: dict[int, list[int]] = field(default_factory=dict)
    """Line number (from 1) → indexes of the instructions tied to it, in module order."""
    _lines: tuple[str | None, list[str]] = field(default=(None, []), init=False, repr=False, compare=False)
    """The text `lines` split last, and its lines."""

    @property
    def lines(self) -> list[str]:
        """The text's lines (none when the module names the file without its text): split
        once for each text, not each time a pane asks (for every row it draws)."""
        split_for, lines = self._lines
        if split_for is not self.text:
            lines = self.text.splitlines() if self.text else []
            self._lines = (self.text, lines)
        return lines


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """Where an instruction came from: a file (index into `SourceMap.files`) and a line."""

    file: int
    line: int
    column: int = 0


class SourceMap:
    """The module's source files and each instruction's location."""

    def __init__(self, files: list[SourceFile], locations: dict[int, SourceLocation]) -> None:
        self.files = files
        self._locations = locations

    def __bool__(self) -> bool:
        return bool(self.files)

    def location(self, instruction: int) -> SourceLocation | None:
        """Where instruction `instruction` (an index) came from, if a directive says."""
        return self._locations.get(instruction)

    def instructions(self, file: int, line: int) -> list[int]:
        """The instructions tied to a line of a file (directives left out), in module order."""
        return self.files[file].lines_to_instructions.get(line, [])


def source_map(instructions: Iterable[Instruction]) -> SourceMap:
    """Read the source files and line directives of a module's instructions (in order)."""
    reader = _Reader()
    for index, inst in enumerate(instructions):
        reader.read(index, inst)
    return SourceMap(reader.files, reader.locations)


class _Reader:
    def __init__(self) -> None:
        self.files: list[SourceFile] = []
        self.locations: dict[int, SourceLocation] = {}
        self._strings: dict[int, str] = {}
        self._constants: dict[int, int] = {}
        self._by_key: dict[int, int] = {}
        self._debug_sets: set[int] = set()
        self._last_source: SourceFile | None = None
        self._current: SourceLocation | None = None
        self._language_names = {e.value: e.name for e in load_grammar().operand_kinds["SourceLanguage"].enumerants}
        debug = load_grammar().ext_inst_set(DEBUG_INFO_SET)
        self._debug_ops = {name: desc.opcode for name, desc in debug.by_name.items()} if debug else {}

    def read(self, index: int, inst: Instruction) -> None:
        op = inst.opname
        values = [o.value for o in inst.operands]
        if op == "OpString":
            self._strings[inst.result_id] = values[1]
        elif op == "OpConstant" and len(values) == 3 and isinstance(values[2], int):
            self._constants[inst.result_id] = values[2]
        elif op == "OpExtInstImport" and values[1] == DEBUG_INFO_SET:
            self._debug_sets.add(inst.result_id)
        elif op == "OpSource":
            self._op_source(inst)
        elif op == "OpSourceContinued" and self._last_source is not None:
            self._last_source.text += values[0]
        elif op == "OpLine":
            file = self._file_for(values[0], self._strings.get(values[0], f"%{values[0]}"))
            self._current = SourceLocation(file, values[1], values[2])
            self.locations[index] = self._current
            return
        elif op == "OpNoLine":
            self._current = None
        elif op == "OpExtInst" and len(values) >= 4 and values[2] in self._debug_sets:
            if self._debug_inst(index, inst, values):
                return
        current = self._current
        if current is not None:
            self.locations[index] = current
            self.files[current.file].lines_to_instructions.setdefault(current.line, []).append(index)
            if op in _ENDS_BLOCK:
                self._current = None

    def _op_source(self, inst: Instruction) -> None:
        by_name = {o.name: o.value for o in inst.operands}
        language = self._language_names.get(inst.operands[0].value, str(inst.operands[0].value))
        file_id = by_name.get("File")
        name = self._strings.get(file_id, f"%{file_id}") if file_id else "(source)"
        key = file_id if file_id else -inst.offset
        number = self._file_for(key, name)
        source = self.files[number]
        source.language = f"{language} {by_name.get('Version', '')}".strip()
        source.text += by_name.get("Source", "")
        self._last_source = source

    def _debug_inst(self, index: int, inst: Instruction, values: list) -> bool:
        """A debug-info instruction; True when it is a line directive (tied to its line,
        not one of the line's instructions)."""
        number, args = values[3], values[4:]
        ops = self._debug_ops
        if number == ops.get("DebugSource") and args:
            name = self._strings.get(args[0], f"%{args[0]}")
            source = self.files[self._file_for(inst.result_id, name)]
            source.text = self._strings.get(args[1], "") if len(args) > 1 else ""
            self._last_source = source
        elif number == ops.get("DebugSourceContinued") and args and self._last_source is not None:
            self._last_source.text += self._strings.get(args[0], "")
        elif number == ops.get("DebugLine") and len(args) >= 3:
            file = self._by_key.get(args[0])
            line = self._constants.get(args[1])
            if file is None or line is None:
                return False
            column = self._constants.get(args[3], 0) if len(args) > 3 else 0
            self._current = SourceLocation(file, line, column)
            self.locations[index] = self._current
            return True
        elif number == ops.get("DebugNoLine"):
            self._current = None
        return False

    def _file_for(self, key: int, name: str) -> int:
        """The index of the file named by `key` (or, for glslang's `-gVS`, which names a
        file both in OpLine and in DebugSource, by the same name), added when first seen."""
        number = self._by_key.get(key)
        if number is None:
            number = next((i for i, f in enumerate(self.files) if f.name == name), len(self.files))
            self._by_key[key] = number
            if number == len(self.files):
                self.files.append(SourceFile(key, name))
        return number
