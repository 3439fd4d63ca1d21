"""Operands of the proposed PP assembly syntax: registers, swizzles, masks, modifiers.

Direct3D conventions: `-` negates a source, `_abs` takes its absolute value, `.yxzw`
swizzles it (one letter replicates), `.xz` is a write mask; `$N` are registers and `^name`
pipeline registers, each with one canonical spelling and the proposal's other spellings as
aliases. Parsing raises `AsmError`, which the assembler turns into a diagnostic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache, wraps

from spvinspect.lima.meanings import COMPONENTS, PIPELINE_REGISTERS, swizzle_text
from spvinspect.lima.numbers import NumberError, parse_integer, shown

IDENTITY_SWIZZLE = 0xE4

SOURCE_PIPELINE = {name: reg for reg, name in PIPELINE_REGISTERS.items()}
"""Pipeline registers readable wherever a vec4 register is: `^const0` -> 12 …"""

PIPELINE_ALIASES = {
    "^tex_sampler": "^texture",
    "^sampler": "^texture",
    "^tex": "^texture",
    "^u": "^uniform",
    "^tex_coord": "^discard",
    "^vmul": "^v0",
    "^fmul": "^s0",
}
"""Other spellings seen in the proposal or the notes -> the canonical one."""

GENERAL_REGISTERS = 12
"""`$0` … `$11`; numbers 12-15 are the pipeline registers as sources."""


class AsmError(Exception):
    """A problem in one token; `column` is 1-based within the line when known."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(slots=True)
class Token:
    """A word of the source with the column of its first character.

    Not frozen: a frozen dataclass takes twice as long to build, and the assembler builds
    one per word of a text that may have a million lines.
    """

    text: str
    column: int

    def fail(self, message: str) -> AsmError:
        """An error pointing at this token."""
        return AsmError(message, self.column)


@dataclass(frozen=True, slots=True)
class Source:
    """A parsed source operand (shared between the tokens spelled alike, so frozen)."""

    register: int | str
    """A register number, or the canonical name of a pipeline register such as `^v0`."""
    swizzle: int = IDENTITY_SWIZZLE
    component: int = 0
    negate: bool = False
    absolute: bool = False


_REMEMBERED_TEXT = 64
"""Longest token whose reading `by_text` remembers: operands are short; a runaway token
is read each time rather than kept."""


def by_text(parse: Callable) -> Callable:
    """`parse(token, *args)` remembered by the token's text and the other arguments.

    A program spells the same few operands (`$1.x`, `^const0.xxxx`) over and over, and the
    reading depends on nothing else: only a problem's column does, so a problem is raised
    again at the column of the token at hand (an inner column stays relative to it).
    """

    @lru_cache(maxsize=4096)
    def remembered(text: str, *args, **kwargs):
        return parse(Token(text, 1), *args, **kwargs)

    @wraps(parse)
    def parse_token(token: Token, *args, **kwargs):
        if len(token.text) > _REMEMBERED_TEXT:
            return parse(token, *args, **kwargs)
        try:
            return remembered(token.text, *args, **kwargs)
        except AsmError as problem:
            column = None if problem.column is None else token.column + problem.column - 1
            raise AsmError(problem.message, column) from None

    return parse_token


def canonical(name: str) -> str:
    """The canonical spelling of a pipeline register name."""
    return PIPELINE_ALIASES.get(name, name)


def parse_int(token: Token, what: str, bits: int, *, signed: bool = False) -> int:
    """A decimal or 0x-hex integer that fits `bits` bits (see `lima.numbers`)."""
    try:
        return parse_integer(token.text, what, bits, signed=signed)
    except NumberError as problem:
        raise token.fail(str(problem)) from None


_REGISTER_NUMBER = re.compile(r"\$([0-9]+)")
"""`$N` with ASCII digits; the number is checked by `register_number`."""


_REGISTER_NUMBERS = {f"${number}": number for number in range(16)}


def is_register(text: str) -> bool:
    """True when `text` is spelled `$` and digits, whatever the number."""
    return _REGISTER_NUMBER.fullmatch(text) is not None


def register_number(token: Token, text: str) -> int:
    """The N of `$N` (at most 15, as 4 register bits hold); AsmError otherwise."""
    number = _REGISTER_NUMBERS.get(text)
    if number is not None:
        return number
    try:
        return parse_integer(text[1:], "register number", 4)
    except NumberError as problem:
        raise token.fail(f"{problem} in {shown(token.text)}") from None


def _register(token: Token, text: str, specials: tuple[str, ...]) -> int | str:
    number = _REGISTER_NUMBERS.get(text)
    if number is not None and number < GENERAL_REGISTERS:
        return number
    if is_register(text):
        number = register_number(token, text)
        if number >= GENERAL_REGISTERS:
            hint = f" (write {PIPELINE_REGISTERS[number]})" if number in PIPELINE_REGISTERS else ""
            raise token.fail(f"expected $0-$11 or a pipeline register, found {text!r}{hint}")
        return number
    name = canonical(text)
    if name in SOURCE_PIPELINE:
        return SOURCE_PIPELINE[name]
    if name in specials:
        return name
    allowed = ", ".join(["$0-$11", *SOURCE_PIPELINE, *specials])
    raise token.fail(f"expected a register ({allowed}), found {text!r}")


def _split_modifiers(token: Token) -> tuple[str, str, bool, bool]:
    text = token.text
    negate = text.startswith("-")
    if negate:
        text = text[1:]
    absolute = False
    if text.startswith("abs(") and text.endswith(")"):
        absolute, text = True, text[4:-1]
    register, _, components = text.partition(".")
    if register.endswith("_abs"):
        absolute, register = True, register[:-4]
    if components.endswith("_abs"):
        absolute, components = True, components[:-4]
    if components and any(c not in COMPONENTS for c in components):
        raise token.fail(f"expected components from xyzw, found {components!r} in {token.text!r}")
    return register, components, negate, absolute


def parse_swizzle(token: Token, components: str) -> int:
    """Swizzle bits from letters: none is identity, fewer than four repeat the last."""
    if not components:
        return IDENTITY_SWIZZLE
    if len(components) > 4:
        raise token.fail(f"a swizzle has at most 4 components, found {components!r}")
    return _swizzle_bits(components)


@cache
def _swizzle_bits(components: str) -> int:
    padded = components + components[-1] * (4 - len(components))
    return sum(COMPONENTS.index(c) << (2 * i) for i, c in enumerate(padded))


@by_text
def parse_vector_source(token: Token, specials: tuple[str, ...] = ()) -> Source:
    """`-$1_abs.yxzw`, `^const0.x`, or one of `specials` such as `^v0`."""
    register, components, negate, absolute = _split_modifiers(token)
    reg = _register(token, register, specials)
    return Source(reg, parse_swizzle(token, components), 0, negate, absolute)


@by_text
def parse_scalar_source(token: Token, specials: tuple[str, ...] = ()) -> Source:
    """`-$1.y_abs`, `^const1.w`, or one of `specials` (`^s0`), which takes no component."""
    register, components, negate, absolute = _split_modifiers(token)
    reg = _register(token, register, specials)
    if isinstance(reg, str):
        if components:
            raise token.fail(f"{reg} takes no component, found {token.text!r}")
        return Source(reg, negate=negate, absolute=absolute)
    if len(components) != 1:
        raise token.fail(f"expected one component (.x, .y, .z or .w) on {token.text!r}")
    return Source(reg, component=COMPONENTS.index(components), negate=negate, absolute=absolute)


def scalar_index(source: Source) -> int:
    """The 6-bit scalar register number `reg << 2 | component`."""
    return int(source.register) << 2 | source.component


@by_text
def parse_plain_scalar(token: Token) -> int:
    """A scalar register without modifiers, as its 6-bit number."""
    source = parse_scalar_source(token)
    if source.negate or source.absolute:
        raise token.fail(f"no - or _abs allowed here, found {token.text!r}")
    return scalar_index(source)


@by_text
def parse_vector_dest(
    token: Token, specials: tuple[str, ...] = (), numbered: tuple[tuple[str, int], ...] = ()
) -> tuple[int | str, int]:
    """`$3.xz` -> (3, 0b0101); `$3` writes xyzw.

    `specials` (`^v0`) take no mask and come back as their name with mask 0; `numbered`
    pipeline destinations (`^discard` -> 15) take a mask like registers do.
    """
    register, _, components = token.text.partition(".")
    name = canonical(register)
    if name in specials and not components:
        return name, 0
    numbers = dict(numbered)
    if name in numbers:
        number = numbers[name]
    elif is_register(register):
        number = register_number(token, register)
    else:
        allowed = " or ".join(["$0-$15", *specials, *numbers])
        raise token.fail(f"expected a destination ({allowed}), found {token.text!r}")
    if not components:
        return number, 0xF
    if not re.fullmatch("x?y?z?w?", components):
        raise token.fail(f"expected a write mask with xyzw in order, found {components!r}")
    return number, sum(1 << COMPONENTS.index(c) for c in components)


@by_text
def parse_scalar_dest(token: Token) -> int:
    """`$3.y` -> the 6-bit scalar register number."""
    register, _, component = token.text.partition(".")
    if not is_register(register) or component not in COMPONENTS or len(component) != 1:
        raise token.fail(f"expected a scalar destination such as $0.x, found {shown(token.text)}")
    return register_number(token, register) << 2 | COMPONENTS.index(component)


def looks_like_dest(token: Token) -> bool:
    """True when the token would be read as a destination register."""
    return _looks_like_dest(token.text) if len(token.text) <= _REMEMBERED_TEXT else _reads_as_dest(token.text)


def _reads_as_dest(text: str) -> bool:
    register = text.partition(".")[0]
    return is_register(register) or canonical(register) in ("^discard", "^v0", "^s0")


_looks_like_dest = lru_cache(maxsize=4096)(_reads_as_dest)


def vector_source_text(reg: int | str, swizzle: int, negate: bool, absolute: bool) -> str:
    """`-$1_abs.yxzw`: the canonical spelling of a vec4 source."""
    name = reg if isinstance(reg, str) else PIPELINE_REGISTERS.get(reg, f"${reg}")
    suffix = "" if swizzle == IDENTITY_SWIZZLE else "." + swizzle_text(swizzle)
    return f"{'-' if negate else ''}{name}{'_abs' if absolute else ''}{suffix}"


def scalar_source_text(reg: int | str, negate: bool = False, absolute: bool = False) -> str:
    """`-$1_abs.y`, `^const0.x`, `^s0`: the canonical spelling of a scalar source."""
    if isinstance(reg, str):
        return f"{'-' if negate else ''}{reg}{'_abs' if absolute else ''}"
    name = PIPELINE_REGISTERS.get(reg >> 2, f"${reg >> 2}")
    return f"{'-' if negate else ''}{name}{'_abs' if absolute else ''}.{COMPONENTS[reg & 3]}"
