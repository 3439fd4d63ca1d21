"""The one table of the PP instruction encoding: the control word and the twelve fields.

Every field is a list of layouts; every layout is an ordered list of named bit ranges
`(name, width, kind)`, LSB first. First bits and field sizes are derived from the widths,
so this table is the only place a field size is written. Decoding, encoding, the
breakdown, `explain` and both disassemblers read it.

Layouts follow Mesa's lima driver (`codegen.h`, `disasm.c`), which reads the bits as
the hardware does where the reverse-engineering notes and Mesa disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RangeSpec:
    """One named bit range of a layout; `first_bit` is relative to the field."""

    name: str
    first_bit: int
    width: int
    kind: str
    """How the value reads: `vreg`, `sreg`, `swizzle`, `mask`, `op:vec4_mul`, `unknown`…"""
    mask: int = field(init=False, compare=False)
    """All ones over the width."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", (1 << self.width) - 1)

    def extract(self, raw: int) -> int:
        """This range's value out of the field's raw bits."""
        return (raw >> self.first_bit) & self.mask

    def insert(self, raw: int, value: int) -> int:
        """`raw` with this range replaced by `value` (taken modulo the width)."""
        return (raw & ~(self.mask << self.first_bit)) | ((value & self.mask) << self.first_bit)


@dataclass(frozen=True, slots=True)
class Layout:
    """One way of reading a field's bits."""

    name: str
    ranges: tuple[RangeSpec, ...]
    width: int = field(init=False, compare=False)
    """Total bits of the layout, which is the field size."""
    _by_name: dict[str, RangeSpec] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Derived once: the assembler looks ranges up by name for every op it packs.
        object.__setattr__(self, "width", sum(r.width for r in self.ranges))
        object.__setattr__(self, "_by_name", {r.name: r for r in self.ranges})

    def range(self, name: str) -> RangeSpec:
        """The range called `name`; KeyError when the layout has none."""
        return self._by_name[name]

    def pack(self, values: Mapping[str, int]) -> int:
        """Raw bits from range values (each taken modulo its width); absent names are 0."""
        raw = 0
        by_name = self._by_name
        for name, value in values.items():
            if value:
                spec = by_name[name]
                raw |= (value & spec.mask) << spec.first_bit
        return raw

    def has(self, name: str) -> bool:
        """True when the layout has a range called `name`."""
        return name in self._by_name

    def extract(self, raw: int, name: str) -> int:
        """The value of range `name` in `raw`."""
        return self.range(name).extract(raw)


def layout(name: str, *items: tuple) -> Layout:
    """A layout from `(name, width[, kind])` items; `unknown` ranges are named by first bit."""
    ranges = []
    first = 0
    for item in items:
        range_name, width = item[0], item[1]
        kind = item[2] if len(item) > 2 else ("unknown" if range_name == "unknown" else "uint")
        if range_name == "unknown":
            range_name = f"unknown_{first}"
        ranges.append(RangeSpec(range_name, first, width, kind))
        first += width
    return Layout(name, tuple(ranges))


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One of the twelve fields: its presence bit, unit and layouts."""

    index: int
    name: str
    unit: str
    """The unit as the proposed syntax names it, for messages and the breakdown."""
    layouts: tuple[Layout, ...]
    choose: Callable[[int], str]
    """Picks the layout name that applies to the given raw bits."""

    @property
    def size(self) -> int:
        """Bits of the field (the same in every layout)."""
        return self.layouts[0].width

    def layout(self, name: str) -> Layout:
        """The layout called `name`."""
        for candidate in self.layouts:
            if candidate.name == name:
                return candidate
        raise KeyError(name)

    def layout_for(self, raw: int) -> Layout:
        """The layout the hardware (and Mesa) uses for these raw bits."""
        return self.layout(self.choose(raw))


CONTROL = layout(
    "control",
    ("count", 5, "words"),
    ("stop", 1, "bool"),
    ("sync", 1, "bool"),
    ("fields", 12, "presence"),
    ("next_count", 6, "words"),
    ("prefetch", 1, "bool"),
    ("unknown", 6),
)
"""Word 0 of every instruction."""

_VARYING_HEAD = (("perspective", 2, "perspective"), ("source_type", 2, "source_type"))
_VARYING_TAIL = (("dest", 4, "varying_dest"), ("mask", 4, "mask"), ("unknown", 2))
_VARYING_INDEX = layout(
    "index",
    *_VARYING_HEAD,
    ("unknown", 1),
    ("alignment", 2, "alignment"),
    ("unknown", 3),
    ("offset_vector", 4, "offset_vector"),
    ("unknown", 2),
    ("offset_scalar", 2, "component"),
    ("index", 6),
    *_VARYING_TAIL,
)
_VARYING_REGISTER = layout(
    "register",
    *_VARYING_HEAD,
    ("unknown", 2),
    ("normalize", 1, "bool"),
    ("unknown", 3),
    ("source", 4, "vreg"),
    ("negate", 1, "bool"),
    ("absolute", 1, "bool"),
    ("swizzle", 8, "swizzle"),
    *_VARYING_TAIL,
)


def _choose_varying(raw: int) -> str:
    source_type = _VARYING_INDEX.extract(raw, "source_type")
    perspective = _VARYING_INDEX.extract(raw, "perspective")
    if source_type == 1 or (source_type == 2 and perspective in (1, 2)):
        return "register"
    return "index"


_SAMPLER = layout(
    "texld",
    ("lod_bias", 6, "sreg"),
    ("index_offset", 6, "sreg"),
    ("unknown", 5),
    ("explicit_lod", 1, "bool"),
    ("lod_bias_register", 1, "bool"),
    ("unknown", 1),
    ("constant_lod_bias", 9, "lod_bias"),
    ("offset_en", 1, "bool"),
    ("index", 12),
    ("unknown", 20),
)
SAMPLER_UNKNOWN_DEFAULT = 0x39001
"""What Mesa writes in the sampler's top 20 unknown bits."""

_UNIFORM = layout(
    "load",
    ("source", 2, "uniform_source"),
    ("unknown", 8),
    ("alignment", 2, "alignment"),
    ("unknown", 6),
    ("offset_reg", 6, "sreg"),
    ("offset_en", 1, "bool"),
    ("index", 16),
)


def _vec4_alu(name: str, op_kind: str, *extra: tuple) -> Layout:
    return layout(
        name,
        ("arg0_source", 4, "vreg"),
        ("arg0_swizzle", 8, "swizzle"),
        ("arg0_absolute", 1, "bool"),
        ("arg0_negate", 1, "bool"),
        ("arg1_source", 4, "vreg"),
        ("arg1_swizzle", 8, "swizzle"),
        ("arg1_absolute", 1, "bool"),
        ("arg1_negate", 1, "bool"),
        ("dest", 4, "vdest"),
        ("mask", 4, "mask"),
        ("dest_modifier", 2, "outmod"),
        ("op", 5, op_kind),
        *extra,
    )


def _float_alu(name: str, op_kind: str, *extra: tuple) -> Layout:
    return layout(
        name,
        ("arg0_source", 6, "sreg"),
        ("arg0_absolute", 1, "bool"),
        ("arg0_negate", 1, "bool"),
        ("arg1_source", 6, "sreg"),
        ("arg1_absolute", 1, "bool"),
        ("arg1_negate", 1, "bool"),
        ("dest", 6, "sdest"),
        ("output_en", 1, "bool"),
        ("dest_modifier", 2, "outmod"),
        ("op", 5, op_kind),
        *extra,
    )


_COMBINE_SELECT = (("dest_vec", 1, "bool"), ("src_vec", 1, "bool"))
_COMBINE_SCALAR_ARGS = (
    ("op", 4, "op:combine"),
    ("arg1_absolute", 1, "bool"),
    ("arg1_negate", 1, "bool"),
    ("arg1_src", 6, "sreg"),
)
_COMBINE_ARG0 = (("arg0_absolute", 1, "bool"), ("arg0_negate", 1, "bool"), ("arg0_src", 6, "sreg"))
_COMBINE_VECTOR_ARG1 = (("arg1_swizzle", 8, "swizzle"), ("arg1_source", 4, "vreg"))
_COMBINE_SCALAR_DEST = (("dest_modifier", 2, "outmod"), ("dest", 6, "sdest"))
_COMBINE_VECTOR_DEST = (("mask", 4, "mask"), ("dest", 4, "vdest"))

_COMBINE_LAYOUTS = (
    layout("scalar", *_COMBINE_SELECT, *_COMBINE_SCALAR_ARGS, *_COMBINE_ARG0, *_COMBINE_SCALAR_DEST),
    layout("vector_dest", *_COMBINE_SELECT, *_COMBINE_SCALAR_ARGS, *_COMBINE_ARG0, *_COMBINE_VECTOR_DEST),
    layout("scalar_vec_mul", *_COMBINE_SELECT, *_COMBINE_VECTOR_ARG1, *_COMBINE_ARG0, *_COMBINE_VECTOR_DEST),
    layout("atan_pt2", *_COMBINE_SELECT, *_COMBINE_VECTOR_ARG1, ("unknown", 8), *_COMBINE_SCALAR_DEST),
)
"""Which layout applies is chosen by dest_vec and src_vec, as Mesa's print_combine does."""


def _choose_combine(raw: int) -> str:
    dest_vec = _COMBINE_LAYOUTS[0].extract(raw, "dest_vec")
    src_vec = _COMBINE_LAYOUTS[0].extract(raw, "src_vec")
    return {(0, 0): "scalar", (1, 0): "vector_dest", (1, 1): "scalar_vec_mul"}.get(
        (dest_vec, src_vec), "atan_pt2"
    )


_TEMP_STORE = layout(
    "store",
    ("dest", 2, "temp_dest"),
    ("unknown", 2),
    ("source", 6, "sreg"),
    ("alignment", 2, "alignment"),
    ("unknown", 6),
    ("offset_reg", 6, "sreg"),
    ("offset_en", 1, "bool"),
    ("index", 16),
)
_FB_READ = layout(
    "fb_read",
    ("source", 1, "fb_source"),
    ("selector", 5, "fb_selector"),
    ("dest", 4, "vdest"),
    ("unknown", 31),
)
FB_READ_SELECTOR = 0x7
"""Bits 1-5 of the temp_write field that turn it into a framebuffer read."""


def _choose_temp_write(raw: int) -> str:
    return "fb_read" if _FB_READ.extract(raw, "selector") == FB_READ_SELECTOR else "store"


_BRANCH = layout(
    "branch",
    ("unknown", 4),
    ("arg1_source", 6, "sreg"),
    ("arg0_source", 6, "sreg"),
    ("cond_gt", 1, "bool"),
    ("cond_eq", 1, "bool"),
    ("cond_lt", 1, "bool"),
    ("unknown", 22),
    ("target", 27, "target"),
    ("next_count", 5, "words"),
)
_DISCARD = layout(
    "discard",
    ("word0", 32, "discard_word"),
    ("word1", 32, "discard_word"),
    ("word2", 9, "discard_word"),
)
DISCARD_WORDS = {"word0": 0x007F0003, "word1": 0, "word2": 0}
"""The branch field bits that mean `discard`."""


def _choose_branch(raw: int) -> str:
    matches = all(_DISCARD.extract(raw, name) == value for name, value in DISCARD_WORDS.items())
    return "discard" if matches else "branch"


def _const(name: str) -> Layout:
    return layout(name, ("x", 16, "half"), ("y", 16, "half"), ("z", 16, "half"), ("w", 16, "half"))


def _only(name: str) -> Callable[[int], str]:
    return lambda raw: name


FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(0, "varying", ".v", (_VARYING_INDEX, _VARYING_REGISTER), _choose_varying),
    FieldSpec(1, "sampler", "texld", (_SAMPLER,), _only("texld")),
    FieldSpec(2, "uniform", ".u/.t", (_UNIFORM,), _only("load")),
    FieldSpec(3, "vec4_mul", ".v0", (_vec4_alu("vec4_mul", "op:vec4_mul"),), _only("vec4_mul")),
    FieldSpec(4, "float_mul", ".s0", (_float_alu("float_mul", "op:float_mul"),), _only("float_mul")),
    FieldSpec(
        5,
        "vec4_acc",
        ".v1",
        (_vec4_alu("vec4_acc", "op:vec4_acc", ("mul_in", 1, "bool")),),
        _only("vec4_acc"),
    ),
    FieldSpec(
        6,
        "float_acc",
        ".s1",
        (_float_alu("float_acc", "op:float_acc", ("mul_in", 1, "bool")),),
        _only("float_acc"),
    ),
    FieldSpec(
        7,
        "combine",
        ".s2",
        _COMBINE_LAYOUTS,
        _choose_combine,
    ),
    FieldSpec(8, "temp_write", ".t", (_TEMP_STORE, _FB_READ), _choose_temp_write),
    FieldSpec(9, "branch", "branch", (_BRANCH, _DISCARD), _choose_branch),
    FieldSpec(10, "vec4_const_0", "const0", (_const("const0"),), _only("const0")),
    FieldSpec(11, "vec4_const_1", "const1", (_const("const1"),), _only("const1")),
)
"""The fields in presence-bit order, which is also their packing order."""

def _check_table() -> None:
    for spec in FIELDS:
        sizes = {candidate.width for candidate in spec.layouts}
        if len(sizes) != 1:
            raise AssertionError(f"layouts of {spec.name} disagree on the field size: {sizes}")
    if CONTROL.width != 32:
        raise AssertionError("the control word must be 32 bits")


_check_table()
