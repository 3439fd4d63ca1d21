"""A module prepared for execution: its types, constants, decorations, names, global
variables, functions (with their blocks) and entry points, read once from the decoded
instructions."""

from __future__ import annotations

from dataclasses import dataclass, field

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.model import Instruction
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.interp.types import UNDEF, Type, float_bits, mask, undef, zero


def enum_values(kind: str) -> dict[str, int]:
    """An enum of the grammar by name: `enum_values("Decoration")["ArrayStride"]`."""
    return {name: e.value for name, e in load_grammar().operand_kinds[kind].by_name.items()}


def enum_name(kind: str, value: int) -> str:
    e = load_grammar().operand_kinds[kind].by_value.get(value)
    return e.name if e else str(value)


class Ins:
    """One instruction ready to run: where it is, what it defines, its operand values."""

    __slots__ = ("offset", "opname", "type_id", "result_id", "args", "ext_set", "inst", "run")

    def __init__(self, inst: Instruction) -> None:
        self.inst = inst
        self.offset = inst.offset
        self.opname = inst.opname
        self.type_id = inst.type_id
        self.result_id = inst.result_id
        self.args = tuple(o.value for o in inst.operands if o.kind not in ("IdResultType", "IdResult"))
        self.ext_set = inst.ext_inst_set
        self.run = None


@dataclass
class Function:
    """A function's instructions from OpFunction to OpFunctionEnd, and where blocks start."""

    id: int
    code: list[Ins]
    labels: dict[int, int]
    """Block label → index of the OpLabel in `code`."""
    params: list[int]
    return_type: int
    name: str = ""


@dataclass
class EntryPoint:
    name: str
    function: int
    model: str
    """The ExecutionModel's name: Fragment, GLCompute, Vertex…"""
    interface: list[int]
    modes: dict[str, list] = field(default_factory=dict)
    """ExecutionMode name → its literal or id operands."""


@dataclass
class Variable:
    id: int
    type: Type
    """The pointee type."""
    storage: str
    """The storage class's name: Input, Output, Uniform, StorageBuffer…"""
    initializer: int | None = None
    name: str = ""


class ShaderError(Exception):
    """The module cannot be prepared for running: says what and where."""


class Shader:
    """A decoded module, read for running its entry points."""

    def __init__(self, data: bytes, spec_constants: dict[str, object] | None = None) -> None:
        self.module = decode(data)
        errors = [d for d in self.module.diagnostics if getattr(d, "severity", "error") == "error"]
        if self.module.header is None:
            raise ShaderError("not a SPIR-V module (no header)")
        self.grammar = load_grammar()
        self.types: dict[int, Type] = {}
        self.id_types: dict[int, Type] = {}
        self.constants: dict[int, object] = {}
        self.names: dict[int, str] = {}
        self.member_names: dict[int, dict[int, str]] = {}
        self.decorations: dict[int, dict[str, list]] = {}
        self.member_decorations: dict[tuple[int, int], dict[str, list]] = {}
        self.variables: dict[int, Variable] = {}
        self.functions: dict[int, Function] = {}
        self.entry_points: list[EntryPoint] = []
        self.ext_sets: dict[int, str] = {}
        self.spec_ids: dict[int, int] = {}
        self.instructions: list[Ins] = []
        self.capabilities: list[str] = []
        self._spec_values = {str(k): v for k, v in (spec_constants or {}).items()}
        self.diagnostics = errors
        try:
            self._read()
        except (KeyError, IndexError, ValueError, TypeError, AttributeError) as error:
            raise ShaderError(f"cannot read the module for running: {type(error).__name__}: {error}") from None

    # -- reading --------------------------------------------------------------------------
    def _read(self) -> None:
        insts = self.module.instructions
        dec_names = {e.value: e.name for e in self.grammar.operand_kinds["Decoration"].enumerants}
        for inst in insts:
            op = inst.opname
            if op == "OpName":
                self.names[inst.operands[0].value] = inst.operands[1].value
            elif op == "OpMemberName":
                ops = inst.operands
                self.member_names.setdefault(ops[0].value, {})[ops[1].value] = ops[2].value
            elif op in ("OpDecorate", "OpDecorateId", "OpDecorateString"):
                ops = inst.operands
                name = dec_names.get(ops[1].value, str(ops[1].value))
                self.decorations.setdefault(ops[0].value, {})[name] = [o.value for o in ops[2:]]
            elif op in ("OpMemberDecorate", "OpMemberDecorateString"):
                ops = inst.operands
                name = dec_names.get(ops[2].value, str(ops[2].value))
                self.member_decorations.setdefault((ops[0].value, ops[1].value), {})[name] = [o.value for o in ops[3:]]
            elif op == "OpExtInstImport":
                self.ext_sets[inst.result_id] = inst.operands[1].value
            elif op == "OpCapability":
                self.capabilities.append(enum_name("Capability", inst.operands[0].value))
        for (sid, _), decs in self.member_decorations.items():
            pass
        spec_decor = {i: d["SpecId"][0] for i, d in self.decorations.items() if "SpecId" in d}
        self.spec_ids = spec_decor
        current: list[Ins] | None = None
        fn_inst = None
        for inst in insts:
            ins = Ins(inst)
            self.instructions.append(ins)
            op = inst.opname
            if inst.result_id and inst.type_id:
                t = self.types.get(inst.type_id)
                if t is not None:
                    self.id_types[inst.result_id] = t
            if current is not None:
                current.append(ins)
                if op == "OpFunctionEnd":
                    self._function(fn_inst, current)
                    current = None
                continue
            if op == "OpFunction":
                current, fn_inst = [ins], inst
            elif op.startswith("OpType"):
                self._type(inst)
            elif op.startswith(("OpConstant", "OpSpecConstant")) or op == "OpUndef":
                try:
                    self.constants[inst.result_id] = self._constant(ins)
                except (KeyError, IndexError, ValueError, TypeError, ArithmeticError):
                    self.constants[inst.result_id] = UNDEF
            elif op == "OpVariable":
                storage = enum_name("StorageClass", inst.operands[2].value)
                ptr = self.types.get(inst.type_id)
                init = inst.operands[3].value if len(inst.operands) > 3 else None
                if ptr is not None and ptr.elem is not None:
                    self.variables[inst.result_id] = Variable(
                        inst.result_id, ptr.elem, storage, init, self.names.get(inst.result_id, "")
                    )
            elif op == "OpEntryPoint":
                ops = inst.operands
                self.entry_points.append(
                    EntryPoint(ops[2].value, ops[1].value, enum_name("ExecutionModel", ops[0].value), [o.value for o in ops[3:]])
                )
        for inst in insts:
            if inst.opname in ("OpExecutionMode", "OpExecutionModeId"):
                ops = inst.operands
                mode = enum_name("ExecutionMode", ops[1].value)
                for ep in self.entry_points:
                    if ep.function == ops[0].value:
                        ep.modes[mode] = [o.value for o in ops[2:]]

    def _type(self, inst: Instruction) -> None:
        op, rid, ops = inst.opname, inst.result_id, inst.operands
        v = [o.value for o in ops[1:]]
        kinds = {
            "OpTypeVoid": "void", "OpTypeBool": "bool", "OpTypeInt": "int", "OpTypeFloat": "float",
            "OpTypeVector": "vector", "OpTypeMatrix": "matrix", "OpTypeArray": "array",
            "OpTypeRuntimeArray": "runtime_array", "OpTypeStruct": "struct", "OpTypePointer": "pointer",
            "OpTypeImage": "image", "OpTypeSampler": "sampler", "OpTypeSampledImage": "sampled_image",
            "OpTypeFunction": "function", "OpTypeAccelerationStructureKHR": "accel",
        }
        t = Type(rid, kinds.get(op, "other"), opname=op, name=self.names.get(rid, ""))
        if op == "OpTypeInt":
            t.width, t.signed = v[0], bool(v[1])
        elif op == "OpTypeFloat":
            t.width = v[0]
        elif op in ("OpTypeVector", "OpTypeMatrix"):
            t.elem, t.count = self._t(v[0]), v[1]
        elif op == "OpTypeArray":
            t.elem = self._t(v[0])
            length = self.constants.get(v[1], 0)
            t.count = length if isinstance(length, int) else 0
        elif op == "OpTypeRuntimeArray":
            t.elem = self._t(v[0])
        elif op == "OpTypeStruct":
            t.members = [self._t(m) for m in v]
            t.member_names = self.member_names.get(rid, {})
            for i in range(len(v)):
                d = self.member_decorations.get((rid, i), {})
                if "Offset" in d:
                    t.offsets[i] = d["Offset"][0]
                if "MatrixStride" in d:
                    t.matrix_strides[i] = d["MatrixStride"][0]
                if "RowMajor" in d:
                    t.row_major.add(i)
            d = self.decorations.get(rid, {})
            t.block, t.buffer_block = "Block" in d, "BufferBlock" in d
        elif op == "OpTypePointer":
            t.storage = v[0]
            t.elem = self.types.get(v[1])
        elif op == "OpTypeForwardPointer":
            return
        elif op == "OpTypeImage":
            t.image = tuple(v[:7])
            t.elem = self.types.get(v[0])
        elif op == "OpTypeSampledImage":
            t.elem = self.types.get(v[0])
        elif op == "OpTypeFunction":
            t.elem = self.types.get(v[0])
            t.members = [self.types.get(p) for p in v[1:]]
        d = self.decorations.get(rid, {})
        if "ArrayStride" in d:
            t.array_stride = d["ArrayStride"][0]
        self.types[rid] = t

    def _t(self, id_: int) -> Type:
        t = self.types.get(id_)
        return t if t is not None else Type(id_, "other")

    def _constant(self, ins: Ins):
        op, t = ins.opname, self.types.get(ins.type_id)
        a = ins.args
        if op in ("OpConstantTrue", "OpSpecConstantTrue", "OpConstantFalse", "OpSpecConstantFalse"):
            value = op.endswith("True")
            if op.startswith("OpSpec") and ins.result_id in self.spec_ids:
                given = self._spec_values.get(str(self.spec_ids[ins.result_id]))
                if given is not None:
                    value = bool(given)
            return value
        if op in ("OpConstant", "OpSpecConstant"):
            raw = a[0]
            if op == "OpSpecConstant" and ins.result_id in self.spec_ids:
                given = self._spec_values.get(str(self.spec_ids[ins.result_id]))
                if given is not None:
                    from spvinspect.codec.interp.types import scalar_from_json

                    return scalar_from_json(t, given)
            if t.kind == "float":
                return float_bits(raw & mask(t.width), t.width)
            return raw & mask(t.width)
        if op in ("OpConstantComposite", "OpSpecConstantComposite", "OpConstantCompositeReplicateEXT"):
            vals = tuple(self.constants[i] for i in a)
            if op.endswith("ReplicateEXT"):
                return vals * t.count
            return vals
        if op == "OpConstantNull":
            return zero(t)
        if op == "OpUndef":
            return undef(t)
        if op == "OpSpecConstantOp":
            from spvinspect.codec.interp.ops import spec_constant_op

            return spec_constant_op(self, ins)
        if op in ("OpConstantSampler",):
            return UNDEF
        raise ValueError(op)

    def _function(self, fn_inst: Instruction, code: list[Ins]) -> None:
        labels, params = {}, []
        for i, ins in enumerate(code):
            if ins.opname == "OpLabel":
                labels[ins.result_id] = i
            elif ins.opname == "OpFunctionParameter":
                params.append(ins.result_id)
        self.functions[fn_inst.result_id] = Function(
            fn_inst.result_id, code, labels, params, fn_inst.type_id, self.names.get(fn_inst.result_id, "")
        )

    # -- queries --------------------------------------------------------------------------
    def entry_point(self, name: str | None = None) -> EntryPoint:
        if not self.entry_points:
            raise ShaderError("the module has no entry point")
        for ep in self.entry_points:
            if name is None or ep.name == name:
                if ep.function not in self.functions:
                    raise ShaderError(f"entry point {ep.name!r}: its function %{ep.function} is not in the module "
                                      "(cut short, or not decodable)")
                return ep
        names = ", ".join(ep.name for ep in self.entry_points)
        raise ShaderError(f"no entry point named {name!r} (the module has: {names})")

    def decoration(self, id_: int, name: str, default=None):
        d = self.decorations.get(id_, {}).get(name)
        if d is None:
            return default
        return d[0] if d else True

    def builtin(self, id_: int) -> str | None:
        b = self.decoration(id_, "BuiltIn")
        return enum_name("BuiltIn", b) if b is not None and b is not True else None

    def block_builtin(self, t: Type, member: int) -> str | None:
        d = self.member_decorations.get((t.id, member), {}).get("BuiltIn")
        return enum_name("BuiltIn", d[0]) if d else None

    def variable_name(self, var: Variable) -> str:
        """How inputs and outputs name a variable: its OpName, else its block type's name,
        else `location N` or its builtin's name."""
        if var.name:
            return var.name
        b = self.builtin(var.id)
        if b:
            return b
        loc = self.decoration(var.id, "Location")
        if loc is not None:
            return f"location {loc}"
        if var.type.name:
            return var.type.name
        return f"%{var.id}"

    def binding_key(self, var: Variable) -> str | None:
        s, b = self.decoration(var.id, "DescriptorSet"), self.decoration(var.id, "Binding")
        if s is None and b is None:
            return None
        return f"{s or 0}.{b or 0}"
