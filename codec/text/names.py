"""Id naming for disassembly: raw numbers, or friendly names as SPIRV-Tools derives them.

Friendly names come from OpName first, then BuiltIn decorations, then the shape of
types and constants (`%v4float`, `%_ptr_Function_int`, `%int_0`); everything else
keeps its number. A name already taken gets `_0`, `_1`, … appended, in module order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from codec.float_formats import ENCODED_FORMATS
from codec.grammar import Grammar, load_grammar
from codec.binary.model import Instruction
from codec.text.number_format import format_number

_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9_]")

# BuiltIn decorations that name their target, with the name SPIRV-Tools gives them.
# Keys are grammar enumerant names (or aliases); this is a naming convention of the
# reference disassembler, not grammar data.
BUILTIN_NAMES = {
    **{
        name: f"gl_{name}"
        for name in (
            "Position PointSize ClipDistance CullDistance Layer ViewportIndex "
            "TessLevelOuter TessLevelInner TessCoord PatchVertices FragCoord PointCoord "
            "FrontFacing SamplePosition SampleMask FragDepth HelperInvocation "
            "LocalInvocationIndex VertexIndex InstanceIndex"
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
    return _INVALID_NAME_CHARS.sub("_", name) if name else "_"


class FriendlyNames:
    """Builds the id → name map for a module, in one pass over its instructions."""

    def __init__(self, grammar: Grammar | None = None) -> None:
        self.grammar = grammar or load_grammar()
        self.names: dict[int, str] = {}
        self.used: set[str] = set()
        self.next_suffix: dict[str, int] = {}
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
        used.add(name)
        self.names[id_] = name

    def name(self, id_: int) -> str:
        """The name given so far, or the number."""
        return self.names.get(id_) or str(id_)

    def storage_class(self, value: int) -> str:
        """A storage class's name in pointer type names (`StorageClass<N>` if unknown)."""
        return self.storage_class_names.get(value) or f"StorageClass{value}"

    def build(self, instructions: Iterable[Instruction]) -> dict[int, str]:
        """The friendly name of every id defined or named in `instructions`."""
        save = self.save
        name = self.name
        names = self.names
        simple = _SIMPLE_TYPE_NAMES
        for inst in instructions:
            if not inst.valid:
                continue
            op = inst.opname
            ops = inst.operands
            result = inst.result_id
            if op == "OpName":
                save(ops[0].value, ops[1].value)
            elif op == "OpDecorate":
                if ops[1].value == 11 and len(ops) > 2:  # Decoration BuiltIn
                    suggested = self.builtin_names.get(ops[2].value)
                    if suggested is not None:
                        save(ops[0].value, suggested)
            elif op in simple:
                save(result, simple[op])
            elif op == "OpTypeInt":
                width, signed = ops[1].value, ops[2].value
                root = _INT_ROOTS.get(width)
                prefix = "" if root else "i"
                if root is None:
                    root = str(width)
                if signed == 0:
                    prefix = "u"
                save(result, prefix + root)
            elif op == "OpTypeFloat":
                width = ops[1].value
                encoded = ENCODED_FORMATS.get(ops[2].value) if len(ops) > 2 else None
                save(result, encoded.name if encoded else _FLOAT_NAMES.get(width) or f"fp{width}")
            elif op == "OpTypeVector":
                save(result, f"v{ops[2].value}{name(ops[1].value)}")
            elif op == "OpTypeMatrix":
                save(result, f"mat{ops[2].value}{name(ops[1].value)}")
            elif op == "OpTypeArray":
                save(result, f"_arr_{name(ops[1].value)}_{name(ops[2].value)}")
            elif op == "OpTypeRuntimeArray":
                save(result, f"_runtimearr_{name(ops[1].value)}")
            elif op == "OpTypePointer":
                save(result, f"_ptr_{self.storage_class(ops[1].value)}_{name(ops[2].value)}")
            elif op == "OpTypeUntypedPointerKHR":
                save(result, f"_ptr_{self.storage_class(ops[1].value)}")
            elif op == "OpTypeNodePayloadArrayAMDX":
                save(result, f"_payloadarr_{name(ops[1].value)}")
            elif op == "OpTypePipe":
                save(result, f"Pipe{self.access_names.get(ops[1].value, ops[1].value)}")
            elif op == "OpTypeOpaque":
                save(result, f"Opaque_{sanitize(ops[1].value)}")
            elif op == "OpTypeStruct":
                save(result, f"_struct_{result}")
            elif op == "OpConstant":
                literal = ops[2]
                text = format_number(literal.value, literal.number_type, literal.num_words)
                save(result, f"{name(inst.type_id)}_{text.replace('-', 'n')}")
            elif result and result not in names:
                save(result, str(result))
        return names


def friendly_names(instructions: Iterable[Instruction], grammar: Grammar | None = None) -> dict[int, str]:
    """The friendly-name map of a module's instructions."""
    return FriendlyNames(grammar).build(instructions)
