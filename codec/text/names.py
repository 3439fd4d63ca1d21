"""Id naming for disassembly: raw numbers, or friendly names as SPIRV-Tools derives them.

Friendly names come from OpName first, then BuiltIn decorations, then the shape of
types and constants (`%v4float`, `%_ptr_Function_int`, `%int_0`); everything else
keeps its number. A name already taken gets `_0`, `_1`, … appended, in module order.

`module_names(module)` computes the names of a module once, for the disassembler,
`explain`, the CFG and the app. On a lazily opened module it reads only what naming
needs: the instructions before the first OpFunction, in order, as far as the ids asked
for (names are final once given, so the pass stops as soon as an id has its name). Once
the pass has read the naming section (the OpNames and decorations), an id still without
a name keeps its number when its one definer names nothing (no type or constant) and no
OpName took that number — in a function body only if the bodies hold no naming
instruction at all (as in valid modules): so a line anywhere is named without naming
the types and constants before it. Otherwise the ordered pass runs on, over the whole
module when a body names something, so the names are exactly those of the eager pass.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from spvinspect.codec.binary.decode_plans import WordPlan
from spvinspect.codec.binary.fast_forms import FastForms, Form
from spvinspect.codec.binary.lazy import DecodedRun, LazyModule
from spvinspect.codec.binary.model import Instruction, Module, NumberType
from spvinspect.codec.float_formats import ENCODED_FORMATS
from spvinspect.codec.grammar import Grammar, load_grammar
from spvinspect.codec.text.number_format import format_number

_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9_]")

# BuiltIn decorations that name their target, with the name SPIRV-Tools gives them
# (its FriendlyNameMapper): `gl_` and the grammar's name, `gl_` and a GLSL spelling, or
# the grammar's name alone; other BuiltIns name nothing. Keys are grammar enumerant names
# (or aliases); which BuiltIns name their target is a convention of the reference
# disassembler, not grammar data. tests/codec/test_dis_differential.py checks every
# BuiltIn of the grammar against spirv-dis.
BUILTIN_NAMES = {
    **{
        name: f"gl_{name}"
        for name in (
            "Position PointSize ClipDistance CullDistance Layer ViewportIndex "
            "TessLevelOuter TessLevelInner TessCoord PatchVertices FragCoord PointCoord "
            "FrontFacing SamplePosition SampleMask FragDepth HelperInvocation "
            "LocalInvocationIndex VertexIndex InstanceIndex BaseInstance"
        ).split()
    },
    "VertexId": "gl_VertexID",
    "InstanceId": "gl_InstanceID",
    "PrimitiveId": "gl_PrimitiveID",
    "InvocationId": "gl_InvocationID",
    "SampleId": "gl_SampleID",
    "NumWorkgroups": "gl_NumWorkGroups",
    "WorkgroupSize": "gl_WorkGroupSize",
    "WorkgroupId": "gl_WorkGroupID",
    "LocalInvocationId": "gl_LocalInvocationID",
    "GlobalInvocationId": "gl_GlobalInvocationID",
    **{
        name: name
        for name in (
            "WorkDim GlobalSize EnqueuedWorkgroupSize GlobalOffset GlobalLinearId "
            "SubgroupSize SubgroupMaxSize NumSubgroups NumEnqueuedSubgroups SubgroupId "
            "SubgroupLocalInvocationId SubgroupEqMaskKHR SubgroupGeMaskKHR "
            "SubgroupGtMaskKHR SubgroupLeMaskKHR SubgroupLtMaskKHR"
        ).split()
    },
}

_SIMPLE_TYPE_NAMES = {
    "OpTypeVoid": "void",
    "OpTypeBool": "bool",
    "OpTypeEvent": "Event",
    "OpTypeDeviceEvent": "DeviceEvent",
    "OpTypeReserveId": "ReserveId",
    "OpTypeQueue": "Queue",
    "OpTypePipeStorage": "PipeStorage",
    "OpTypeNamedBarrier": "NamedBarrier",
    "OpConstantTrue": "true",
    "OpConstantFalse": "false",
}
_INT_ROOTS = {8: "char", 16: "short", 32: "int", 64: "long"}
_FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}


def sanitize(name: str) -> str:
    """Replace characters that cannot appear in an id name by '_'; '' becomes '_'."""
    if name.isascii() and name.isidentifier():
        # The common case, told at C speed: nothing to replace (an ASCII identifier
        # holds only letters, digits and '_').
        return name
    return _INVALID_NAME_CHARS.sub("_", name) if name else "_"


_TYPE_NAMES_FROM_OPERANDS = {
    "OpTypeVector": lambda names, values: f"v{values[2]}{names.name(values[1])}",
    "OpTypeMatrix": lambda names, values: f"mat{values[2]}{names.name(values[1])}",
    "OpTypeArray": lambda names, values: f"_arr_{names.name(values[1])}_{names.name(values[2])}",
    "OpTypeRuntimeArray": lambda names, values: f"_runtimearr_{names.name(values[1])}",
    "OpTypePointer": lambda names, values: f"_ptr_{names.storage_class(values[1])}_{names.name(values[2])}",
    "OpTypeUntypedPointerKHR": lambda names, values: f"_ptr_{names.storage_class(values[1])}",
    "OpTypeNodePayloadArrayAMDX": lambda names, values: f"_payloadarr_{names.name(values[1])}",
    "OpTypePipe": lambda names, values: f"Pipe{names.access_names.get(values[1], values[1])}",
    "OpTypeOpaque": lambda names, values: f"Opaque_{sanitize(values[1])}",
}
"""spirv-dis's name of a type made from its operands (`values`), given the names so far."""


class FriendlyNames:
    """The ordered naming pass: instructions in module order, each id named once."""

    def __init__(self, grammar: Grammar | None = None) -> None:
        self.grammar = grammar or load_grammar()
        self.names: dict[int, str] = {}
        self.used: set[str] = set()
        self.number_names: set[int] = set()
        """Every K whose number `K` OpName gave as the name of another id (so that id K,
        if it is named later, gets `K_0` or the like instead)."""
        self.next_suffix: dict[str, int] = {}
        self.suffixed: dict[int, str] = {}
        """The base name of every id whose name got a suffix (`int_0` from `int`)."""
        self.targeted: set[int] = set()
        """Ids named by an OpName or a BuiltIn decoration (not by their definer)."""
        self.lookups: tuple[dict[int, int], Any, dict[str, list[int]]] | None = None
        """For a finished pass, once asked for (`codec.text.names_update`): each named
        id's place in naming order, each name's id (`names_update.Owners`), and the
        suffixed ids of each base. (A pass derived there has `used` made from them.)"""
        builtin = self.grammar.operand_kinds["BuiltIn"]
        self.builtin_names = {
            builtin.by_name[key].value: value
            for key, value in BUILTIN_NAMES.items()
            if key in builtin.by_name
        }
        storage = self.grammar.operand_kinds["StorageClass"]
        self.storage_class_names = {e.value: e.name for e in storage.enumerants}
        access = self.grammar.operand_kinds["AccessQualifier"]
        self.access_names = {e.value: e.name for e in access.enumerants}

    def save(self, id_: int, suggested: str) -> None:
        """Give `id_` the sanitized name, made unique; the first name an id gets stays."""
        if id_ in self.names:
            return
        base = sanitize(suggested)
        name = base
        used = self.used
        if name in used:
            # Names are never released, so every suffix below the last one found for
            # this base is still taken: resuming there gives the same name as
            # searching from _0, in linear time.
            index = self.next_suffix.get(base, 0)
            while f"{base}_{index}" in used:
                index += 1
            self.next_suffix[base] = index + 1
            name = f"{base}_{index}"
            self.suffixed[id_] = base
        used.add(name)
        self.names[id_] = name

    def name(self, id_: int) -> str:
        """The name given so far, or the number."""
        return self.names.get(id_) or str(id_)

    def storage_class(self, value: int) -> str:
        """A storage class's name in pointer type names (`StorageClass<N>` if unknown)."""
        return self.storage_class_names.get(value) or f"StorageClass{value}"

    def build(self, instructions: Iterable[Instruction]) -> dict[int, str]:
        """Name every id defined or named in `instructions` (continuing the pass)."""
        names = self.names
        naming = NAMING_OPNAMES
        for inst in instructions:
            if not inst.valid:
                continue
            if inst.opname in naming:
                operands = inst.operands
                literal = None
                if inst.opname == "OpConstant":
                    literal = (operands[2].value, operands[2].number_type, operands[2].num_words)
                self.visit(inst.opname, inst.result_id, inst.type_id, [o.value for o in operands], literal)
            elif inst.result_id and inst.result_id not in names:
                self.save(inst.result_id, str(inst.result_id))
        return names

    def visit(
        self,
        op: str,
        result: int,
        type_id: int,
        values: list,
        literal: tuple[int, NumberType, int] | None = None,
    ) -> None:
        """Name what one valid instruction of a naming opcode (`NAMING_OPNAMES`) names:
        `values` are its operands' values, `literal` OpConstant's value, type and width
        in words."""
        save = self.save
        name = self.name
        if op == "OpName":
            target = values[0]
            if target not in self.names:
                save(target, values[1])
                self.targeted.add(target)
                given = self.names[target]
                if given.isdigit() and (given[0] != "0" or given == "0") and given != str(target):
                    self.number_names.add(int(given))
        elif op == "OpDecorate":
            if values[1] == 11 and len(values) > 2:  # Decoration BuiltIn
                suggested = self.builtin_names.get(values[2])
                if suggested is not None and values[0] not in self.names:
                    save(values[0], suggested)
                    self.targeted.add(values[0])
        elif op in _SIMPLE_TYPE_NAMES:
            save(result, _SIMPLE_TYPE_NAMES[op])
        elif op == "OpTypeInt":
            width, signed = values[1], values[2]
            root = _INT_ROOTS.get(width)
            prefix = "" if root else "i"
            if root is None:
                root = str(width)
            if signed == 0:
                prefix = "u"
            save(result, prefix + root)
        elif op == "OpTypeFloat":
            width = values[1]
            encoded = ENCODED_FORMATS.get(values[2]) if len(values) > 2 else None
            save(result, encoded.name if encoded else _FLOAT_NAMES.get(width) or f"fp{width}")
        elif op in _TYPE_NAMES_FROM_OPERANDS:
            save(result, _TYPE_NAMES_FROM_OPERANDS[op](self, values))
        elif op == "OpTypeStruct":
            save(result, f"_struct_{result}")
        elif op == "OpConstant":
            value, number_type, num_words = literal  # type: ignore[misc]
            text = format_number(value, number_type, num_words)
            save(result, f"{name(type_id)}_{text.replace('-', 'n')}")


NAMING_OPNAMES = frozenset(
    {
        "OpName",
        "OpDecorate",
        *_SIMPLE_TYPE_NAMES,
        "OpTypeInt",
        "OpTypeFloat",
        "OpTypeVector",
        "OpTypeMatrix",
        "OpTypeArray",
        "OpTypeRuntimeArray",
        "OpTypePointer",
        "OpTypeUntypedPointerKHR",
        "OpTypeNodePayloadArrayAMDX",
        "OpTypePipe",
        "OpTypeOpaque",
        "OpTypeStruct",
        "OpConstant",
    }
)
"""The instructions `FriendlyNames.build` takes a name from (all others give numbers)."""


def words_name_ids(module: LazyModule, start: int, end: int) -> bool:
    """Whether words [start, end) of `module` touch an instruction that names ids (a
    naming opcode, `NAMING_OPNAMES`), or words that are no instruction (the header, an
    undecodable tail): an edit of those words may change friendly names; an edit of
    any other words leaves every name as it was."""
    if end <= start:
        return False
    first = module.index_at(start)
    if first is None:
        return True
    grammar = module.grammar
    naming = {grammar.by_name[n].opcode for n in NAMING_OPNAMES if n in grammar.by_name}
    index = first
    count = module.instruction_count
    while index < count and module.offset(index) < end:
        if module.opcode(index) in naming:
            return True
        index += 1
    return index >= count and end > module.tail_offset


def friendly_names(instructions: Iterable[Instruction], grammar: Grammar | None = None) -> dict[int, str]:
    """The friendly-name map of a module's instructions."""
    return FriendlyNames(grammar).build(instructions)


def _naming_form(plan: WordPlan) -> Form:
    """The fast path's form for the naming pass: what an instruction names, without
    building it — its result id, or for a naming opcode the arguments of `visit`."""
    result_index, type_index, start = plan.result_index, plan.type_index, plan.trailing
    if plan.opname not in NAMING_OPNAMES:
        if result_index < 0:
            return lambda words, offset, value, number_type: 0
        return lambda words, offset, value, number_type: words[result_index]
    op = plan.opname

    def form(words: list[int], offset: int, value: object, number_type: object) -> tuple:
        values = list(words)
        literal = None
        if start >= 0:
            del values[start + 1 :]
            values[start] = value
            if number_type is not None:
                literal = (value, number_type, len(words) - start)
        result = words[result_index] if result_index >= 0 else 0
        return (op, result, words[type_index] if type_index >= 0 else 0, values, literal)

    return form


class NameMap:
    """The names of one module's ids: raw numbers, or friendly names. Thread-safe."""

    def __init__(
        self, module: LazyModule | Module | None, friendly: bool = True, grammar: Grammar | None = None
    ) -> None:
        self.friendly = friendly and module is not None
        self._module = module
        self._lock = threading.Lock()
        self._namer = FriendlyNames(module.grammar if isinstance(module, LazyModule) else grammar)
        self._settled = not self.friendly
        """True once every name is in `_namer.names` (all others are numbers)."""
        self._next = 0
        """The ordered pass has named the instructions before this index."""
        self._pass: Iterator[DecodedRun] | None = None
        """The lazy module's instructions in order, a chunk at a time, as the naming pass
        sees them (see `_naming_form`)."""
        self._pending: list = []
        """What is left of the chunk the pass is in."""
        self._naming_end: int | None = None
        """Where the naming section ends: after the last OpName or OpDecorate before the
        functions (once known)."""
        self._naming_opcodes: frozenset[int] = frozenset()
        self._bodies_name_nothing: bool | None = None
        """Whether the functions hold no naming instruction (once known)."""
        if self.friendly and isinstance(module, Module):
            self._namer.build(module.instructions)
            self._settled = True
        elif self.friendly and isinstance(module, LazyModule):
            self._pass = module.in_order(FastForms(module.tables, _naming_form))
            grammar = module.grammar
            self._naming_opcodes = frozenset(grammar.by_name[n].opcode for n in NAMING_OPNAMES if n in grammar.by_name)

    @classmethod
    def of_pass(cls, module: LazyModule, namer: FriendlyNames) -> NameMap:
        """The friendly names of `module` given by `namer`, a finished pass over its part
        before the functions (whose bodies name nothing): no pass of its own."""
        made = cls(module)
        made._namer = namer
        made._settled = True
        made._bodies_name_nothing = True
        return made

    def finished_pass(self) -> FriendlyNames | None:
        """The naming pass run over the part before the functions (run here if need be),
        for deriving an edited module's names from it; None for raw numbers, or when the
        bodies name something or an OpName gave a number (then only a new pass will do)."""
        if not self.friendly or not isinstance(self._module, LazyModule):
            return None
        self.table()
        if self._namer.number_names or not self._bodies_silent():
            return None
        return self._namer

    def name(self, id_: int) -> str:
        """The id's name without `%`: `main`, `v4float`, or the number `42`."""
        found = self._namer.names.get(id_)
        if found is not None or self._settled:
            return found or str(id_)
        with self._lock:
            return self._find(id_)

    def table(self) -> dict[int, str]:
        """Every id whose name is not its number, with its name (read-only): for
        formatting many lines at once, `table.get(id) or str(id)`."""
        if not self._settled:
            with self._lock:
                self._advance(None)
        return self._namer.names

    def id_hints(self) -> dict[str, int]:
        """Friendly name → id, for `codec.asm.assembler.assemble(id_hints=…)`: with it,
        friendly-named text reassembles to the very same ids."""
        if not self.friendly:
            return {}
        if self._pass is not None:
            with self._lock:
                self._complete()
        return {name: id_ for id_, name in self._namer.names.items()}

    def prepare(self) -> None:
        """Read what naming any line needs first (the naming section, and whether the
        function bodies name anything): from then on an id of a function body is named
        at once. For a worker, before `name_more`."""
        if self._settled:
            return
        with self._lock:
            if self._naming_end is None:
                self._naming_end = self._find_naming_end()
            self._advance(None, self._naming_end)
            self._bodies_silent()

    def name_more(self, count: int) -> bool:
        """Run the naming pass over `count` more instructions (a worker's step, so that
        no later request waits for the whole pass); False once every name is known."""
        if self._settled:
            return False
        with self._lock:
            module = self._module
            assert isinstance(module, LazyModule)
            end = module.first_function
            if self._next + count < (end if end is not None else module.instruction_count):
                self._advance(None, self._next + count)
            else:
                self._advance(None)
        return not self._settled

    def _find(self, id_: int) -> str:
        """The name of an id the pass has not named yet: the pass runs until it names
        the id or has read the naming section; then an id that keeps its number has it
        at once, and for any other the pass runs on."""
        names = self._namer.names
        if self._naming_end is None:
            self._naming_end = self._find_naming_end()
            # With the first name (the first screen's), so that no later line waits for
            # this check of the whole module.
            self._bodies_silent()
        self._advance(id_, self._naming_end)
        found = names.get(id_)
        if found is None and not self._settled and not self._keeps_number(id_):
            self._advance(id_)
            found = names.get(id_)
        return found or str(id_)

    def _find_naming_end(self) -> int:
        """The index after the last OpName or OpDecorate before the first function (0
        when there is none)."""
        module = self._module
        assert isinstance(module, LazyModule)
        by_name = module.grammar.by_name
        targeting = {by_name["OpName"].opcode, by_name["OpDecorate"].opcode}
        end = module.first_function
        naming_end = 0
        for index, opcode in enumerate(module.opcodes()):
            if end is not None and index >= end:
                break
            if opcode in targeting:
                naming_end = index + 1
        return naming_end

    def _keeps_number(self, id_: int) -> bool:
        """Whether an id the naming section left unnamed is named by its number: no
        other id took that number as its name, and its one definer names nothing (before
        the functions), or it is defined in a body or nowhere and the bodies name nothing
        at all."""
        module = self._module
        assert isinstance(module, LazyModule)
        if id_ in self._namer.number_names:
            return False
        definers = module.definers(id_)
        if len(definers) > 1:
            return False
        end = module.first_function
        if not definers or end is not None and definers[0] >= end:
            # Defined in a body, or nowhere: an OpName in a body could still name it.
            return self._bodies_silent()
        return module.opcode(definers[0]) not in self._naming_opcodes

    def _bodies_silent(self) -> bool:
        """True when no instruction from the first function on is a naming one (as in
        every valid module)."""
        if self._bodies_name_nothing is None:
            module = self._module
            assert isinstance(module, LazyModule)
            end = module.first_function
            self._bodies_name_nothing = end is None or self._naming_opcodes.isdisjoint(module.opcode_set(end))
        return self._bodies_name_nothing

    def _advance(self, wanted: int | None, stop: int | None = None) -> None:
        """Run the ordered pass over the part before the functions until `wanted` has a
        name (to its end when None or never named there), then settle the rest. With
        `stop`, run only until the pass has named the instructions before it (and never
        settle)."""
        if self._settled:
            return
        module = self._module
        assert isinstance(module, LazyModule)
        names = self._namer.names
        end = module.first_function
        if stop is not None and end is not None:
            stop = min(stop, end)
        limit = stop if stop is not None else end
        while wanted is None or wanted not in names:
            if stop is not None and self._next >= stop:
                return
            entries = self._take()
            if not entries:
                break
            if limit is not None and self._next + len(entries) > limit:
                self._pending = entries[limit - self._next :] + self._pending
                entries = entries[: limit - self._next]
            self._visit(entries)
        if stop is None and (wanted is None or wanted not in names):
            self._settle()

    def _take(self) -> list:
        """The next entries of the pass before the first function (none past it)."""
        module = self._module
        assert isinstance(module, LazyModule) and self._pass is not None
        end = module.first_function
        if end is not None and self._next >= end:
            return []
        if self._pending:
            entries, self._pending = self._pending, []
            return entries
        run = next(self._pass, None)
        return run.entries if run is not None else []

    def _visit(self, entries: list) -> None:
        """Continue the ordered pass over what the pass made of some instructions."""
        namer = self._namer
        names = namer.names
        save = namer.save
        for entry in entries:
            kind = type(entry)
            if kind is int:
                if entry and entry not in names:
                    save(entry, str(entry))
            elif kind is tuple:
                namer.visit(*entry)
            else:
                namer.build((entry,))
        self._next += len(entries)

    def _settle(self) -> None:
        """The part before the functions is named: the bodies' ids keep their numbers,
        unless a body names something or a number is taken (then name everything)."""
        module = self._module
        assert isinstance(module, LazyModule)
        names = self._namer.names
        taken = any(number not in names for number in self._namer.number_names)
        if taken or not self._bodies_silent():
            self._complete()
        self._settled = True

    def _complete(self) -> None:
        """Run the ordered pass to the end of the module."""
        assert self._pass is not None
        entries, self._pending = self._pending, []
        self._visit(entries)
        for run in self._pass:
            self._visit(run.entries)
        self._settled = True


def module_names(
    module: LazyModule | Module, friendly: bool = True, grammar: Grammar | None = None
) -> NameMap:
    """The names of `module`'s ids, computed once and shared by every view; with
    `friendly=False`, raw numbers. (`grammar` is for an eager `Module`; a lazy module
    has its own.)"""
    return NameMap(module, friendly, grammar)
