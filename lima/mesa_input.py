"""Mesa's disassembly syntax as assembler input: each Mesa line -> the same op in our syntax.

Mesa's `ppir_disassemble_instr` prints what it knows of each field; `mesa_to_seed`
rewrites each printed op into the proposed syntax, line for line (comments kept, `@ N: `
offsets dropped), so that `lima.assembler` packs it. What Mesa's text does not carry (a
`^v0`/`^s0` destination it leaves out, the register bits of a destination it does not
write, unknown bits) takes the value Mesa's compiler writes. Branch targets are absolute
word offsets in Mesa's text and become relative word counts. Never raises: problems come
back as diagnostics with Mesa's line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.lima.decoder import words_needed
from spvinspect.lima.numbers import NumberError, parse_integer
from spvinspect.lima.meanings import half_text, sign_extend
from spvinspect.lima.ops import MUL_SHIFTS, OPS, mesa_op
from spvinspect.lima.seed_ops import BRANCH_CONDITIONS
from spvinspect.lima.syntax import AsmError, Token
from spvinspect.codec.plural import counted

_OFFSET = re.compile(r"\s*@\s*-?[0-9]+:\s?")
"""The `@ <word offset>: ` Mesa prints before an instruction (`lima dis --offsets`)."""
_UNITS = {"v0": "vec4_mul", "s0": "float_mul", "v1": "vec4_acc", "s1": "float_acc", "s2": "combine"}
_OUTMODS = {"sat": "_sat", "pos": "_pos", "int": "_int"}
_PERSPECTIVE = {"z": "load_persp_z", "w": "load_persp_w"}
_CONDITIONS = {name: name for name in BRANCH_CONDITIONS if name}
_SAMPLER_TYPES = {"2d": 0, "cube": 0x1F}
"""Older Mesa's sampler type names (bits 24-28); Mesa main prints `biasNNN` instead."""
_FIELD_OF = {
    "varying": 0, "sampler": 1, "uniform": 2, "vec4_mul": 3, "float_mul": 4, "vec4_acc": 5,
    "float_acc": 6, "combine": 7, "temp_write": 8, "branch": 9, "const0": 10, "const1": 11,
}
_SPECIAL_INPUTS = ("gl_FragCoord", "gl_FrontFacing", "gl_PointCoord")
"""Special varyings, which Mesa's compiler loads with alignment 3."""
_SHIFT_OPS = {f"<<{value}": value for value in MUL_SHIFTS}


@dataclass(slots=True)
class _Op:
    """One translated op: its text in our syntax, its field, and the column it came from."""

    text: str
    field: int | None
    column: int
    target: int | None = None
    """Absolute word offset of a branch target, made relative once the offset is known."""
    tokens: list[Token] | None = None
    """Mesa's words of the op, to point a message about ours at the same word of Mesa's."""


def _fail(column: int, message: str) -> AsmError:
    return AsmError(message, column)


def _split_head(head: Token) -> tuple[str, list[str]]:
    name, *suffixes = head.text.split(".")
    return name, suffixes


def _half(token: Token) -> str:
    """Mesa's `%f` of a half (our assembler rounds it to the nearest half), or its NaN."""
    if token.text in ("nan", "-nan"):
        return "0xfe00" if token.text.startswith("-") else "0x7e00"
    return token.text


def _dest_mask(text: str) -> tuple[str, str]:
    """`$3.` (Mesa's mask 0) -> (`$3`, ` {mask=0}`); other destinations are kept."""
    if text.endswith("."):
        return text[:-1], " {mask=0}"
    return text, ""


def _alu(head: Token, unit: str, name: str, suffixes: list[str], operands: list[Token]) -> _Op:
    outmod = ""
    for suffix in suffixes:
        if suffix not in _OUTMODS or outmod:
            raise head.fail(f"expected .sat, .pos or .int before .{unit} in {head.text!r}")
        outmod = _OUTMODS[suffix]
    field = _UNITS[unit]
    texts = [t.text for t in operands]
    if field == "combine" and name == "mul" and not suffixes:
        if len(texts) != 3:
            raise head.fail(f"mul.s2 takes a destination, a scalar and a vector source, found {counted(len(texts), 'operand')}")
        dest, extra = _dest_mask(texts[0])
        return _Op(f"mul.s2 {dest} {texts[1]} {texts[2]}{extra}", 7, head.column)
    shift = None
    for i, text in enumerate(texts):
        for suffix, value in _SHIFT_OPS.items():
            if text.endswith(suffix):
                if name != "mul" or i > 1:
                    raise operands[i].fail(f"only the first source of mul takes <<N, found {text!r}")
                texts[i], shift = text[: -len(suffix)], value
    op_text = f"mul_{MUL_SHIFTS[shift]}" if shift else name
    value = next((v for v, op in OPS[field].items() if op.name == name), None)
    raw = re.fullmatch(r"op([0-9]{1,2})", name)
    if value is None and raw is None:
        raise head.fail(f"{name!r} is not an op of the {field} unit")
    op = mesa_op(field, int(raw.group(1))) if raw else OPS[field][value]
    printed = 2 if op is not None and op.sources > 1 else 1
    dest_given = len(texts) == printed + 1
    if len(texts) not in (printed, printed + 1):
        raise head.fail(f"{head.text} takes {printed} source(s) and an optional destination, found {counted(len(texts), 'operand')}")
    args = texts[1:] if dest_given else texts
    extra = ""
    if raw and op is None:
        # Mesa prints one source of an op it cannot name; ours writes two.
        args.append("$0" if field.startswith("vec4") else "$0.x")
    if field == "combine":
        return _combine(head, name, outmod, texts[0] if dest_given else None, args)
    if dest_given:
        dest, extra = _dest_mask(texts[0])
    elif field == "vec4_mul":
        dest = "^v0"
    elif field == "float_mul":
        dest = "^s0"
    elif field == "vec4_acc":
        dest, extra = "$0", " {mask=0}"
    else:
        dest, extra = "$0.x", " {output_en=0}"
    return _Op(f"{op_text}{outmod}.{unit} {dest} {' '.join(args)}{extra}", _FIELD_OF[field], head.column)


def _combine(head: Token, name: str, outmod: str, dest: str | None, args: list[str]) -> _Op:
    """A scalar destination `$N.c`, or a vector one (`$N`, `$N.xy`): Mesa prints a vector
    destination of one component as a scalar one, and its compiler writes only scalar ones."""
    if dest is None:
        raise head.fail(f"{head.text} needs a destination")
    if re.fullmatch(r"\$[0-9]+\.[xyzw]", dest):
        return _Op(f"{name}{outmod}.s2 {dest} {' '.join(args)}", 7, head.column)
    dest, extra = _dest_mask(dest)
    return _Op(f"{name}_vec.s2 {dest} {' '.join(args)}{extra}", 7, head.column)


def _atan_pt2(head: Token, operands: list[Token]) -> _Op:
    texts = [t.text for t in operands]
    outmod = ""
    if texts and texts[0].startswith("."):
        modifier, _, rest = texts[0][1:].partition("$")
        if modifier not in _OUTMODS:
            raise operands[0].fail(f"expected .sat, .pos or .int before the destination, found {texts[0]!r}")
        outmod, texts[0] = _OUTMODS[modifier], "$" + rest
    if len(texts) != 2:
        raise head.fail(f"atan_pt2.s2 takes a destination and a source, found {counted(len(texts), 'operand')}")
    return _Op(f"atan_pt2{outmod}.s2 {texts[0]} {texts[1]}", 7, head.column)


def _varying(head: Token, suffixes: list[str], operands: list[Token]) -> _Op:
    op, extra = "load", ""
    if suffixes[:1] == ["perspective"]:
        if len(suffixes) != 2:
            raise head.fail(f"expected load.perspective.z.v, .w.v or .unknown.v, found {head.text!r}")
        if suffixes[1] == "unknown":
            extra = " {perspective=1}"
        elif suffixes[1] in _PERSPECTIVE:
            op = _PERSPECTIVE[suffixes[1]]
        else:
            raise head.fail(f"expected load.perspective.z.v, .w.v or .unknown.v, found {head.text!r}")
    elif suffixes:
        raise head.fail(f"expected load.v or load.perspective.z.v, found {head.text!r}")
    if len(operands) != 2:
        raise head.fail(f"{head.text} takes a destination and a source, found {counted(len(operands), 'operand')}")
    dest, mask = _dest_mask(operands[0].text)
    source = operands[1].text
    for wrapper, name in (("cube(", "load_cube"), ("normalize(", "normalize")):
        if source.startswith(wrapper) and source.endswith(")"):
            if op != "load" or extra:
                raise head.fail(f"{wrapper[:-1]}(…) takes no perspective divide, found {head.text!r}")
            op, source = name, source[len(wrapper) : -1]
    if source in _SPECIAL_INPUTS:
        extra += " {alignment=3}"
    return _Op(f"{op}.v {dest} {source}{mask}{extra}", 0, head.column)


_TEXLD = re.compile(r"texld(\.b)?(?:\.(2d|cube)|_t([0-9]{1,2}))?")
"""Mesa's sampler op: `.b` for a LOD bias register, then older Mesa's type (`.cube`, `_tN`)."""


def _sampler(head: Token, operands: list[Token]) -> _Op:
    match = _TEXLD.fullmatch(head.text)
    if not match:
        raise head.fail(f"expected texld, texld.b, texld.cube or texld.2d, found {head.text!r}")
    bias_register = match.group(1) is not None
    bias = 0
    if match.group(2):
        bias = _SAMPLER_TYPES[match.group(2)] << 4
    elif match.group(3):
        bias = (int(match.group(3)) & 0x1F) << 4
    texts = [t.text for t in operands]
    if texts and texts[0].startswith("bias"):
        try:
            bias = parse_integer("0x" + texts[0][4:], "a constant LOD bias", 9)
        except NumberError as problem:
            raise operands[0].fail(str(problem)) from None
        texts = texts[1:]
    if len(texts) != 1 + bias_register:
        need = "a sampler index and the LOD bias register" if bias_register else "a sampler index"
        raise head.fail(f"{head.text} takes {need}, found {counted(len(texts), 'operand')}")
    text = "texld " + " ".join(texts)
    if bias:
        text += f" {{constant_lod_bias={sign_extend(bias, 9)}}}"
    return _Op(text, 1, head.column)


_NEGATIVE_PART = re.compile(r"-([0-9]+)\.(xy|zw|[xyzw])((?:\+.*)?)")


def _index(text: str) -> str:
    """A uniform/temporary index as Mesa prints it -> ours. They differ below zero: Mesa
    divides rounding toward zero and takes the low bits for the component (index -9 is
    `-2.w`), we round down (-9 is `-3.w`), so Mesa's `-N.c` is 4(-N - 1) + c unless c is x.
    (Mesa's `0.w` may also be index -1; it reads as 3.)"""
    match = _NEGATIVE_PART.fullmatch(text)
    if not match:
        return text
    number, part, rest = -int(match.group(1)), match.group(2), match.group(3)
    size = 2 if len(part) == 2 else 4
    low = ("xy", "zw").index(part) if size == 2 else "xyzw".index(part)
    index = size * (number - 1) + low if low else size * number
    floor, low = divmod(index, size)
    name = ("xy", "zw")[low] if size == 2 else "xyzw"[low]
    return f"{floor}.{name}{rest}"


def _uniform(head: Token, suffixes: list[str], operands: list[Token]) -> _Op:
    if len(suffixes) == 2 and not suffixes[0]:
        suffixes = suffixes[1:]  # Mesa prints a source it has no letter for as `load..uN`
    unit = suffixes[0] if len(suffixes) == 1 else ""
    if len(operands) != 1:
        raise head.fail(f"{head.text} takes an index, found {counted(len(operands), 'operand')}")
    index = _index(operands[0].text)
    if unit in ("u", "t"):
        return _Op(f"load.{unit} {index}", 2, head.column)
    match = re.fullmatch(r"u([0-3])", unit)
    if not match:
        raise head.fail(f"expected load.u, load.t or load.v, found {head.text!r}")
    return _Op(f"load.u {index} {{source={match.group(1)}}}", 2, head.column)


def _branch(head: Token, suffixes: list[str], operands: list[Token]) -> _Op:
    if len(suffixes) > 1 or (suffixes and suffixes[0] not in _CONDITIONS):
        raise head.fail(f"expected branch or branch.<condition> (lt, eq, le, gt, ne, ge, nv), found {head.text!r}")
    expected = 3 if suffixes else 1
    if len(operands) != expected:
        raise head.fail(f"{head.text} takes {expected} operand(s), found {len(operands)}")
    try:
        target = parse_integer(operands[-1].text, "a target word offset", 32, signed=True)
    except NumberError as problem:
        raise operands[-1].fail(str(problem)) from None
    name = f"branch_{suffixes[0]}" if suffixes else "branch"
    sources = " ".join(t.text for t in operands[:-1])
    return _Op(f"{name} {sources}".rstrip(), 9, head.column, target)


def _op(tokens: list[Token]) -> _Op:
    op = _translated(tokens)
    op.tokens = tokens
    return op


def _translated(tokens: list[Token]) -> _Op:
    head, *operands = tokens
    name, suffixes = _split_head(head)
    if head.text in ("sync", "stop") and not operands:
        return _Op(head.text, None, head.column)
    if head.text == "discard" and not operands:
        return _Op("discard", 9, head.column)
    if name in ("const0", "const1") and not suffixes:
        if len(operands) != 4:
            raise head.fail(f"{name} takes four numbers, found {len(operands)}")
        return _Op(f"{name} " + " ".join(_half(t) for t in operands), _FIELD_OF[name], head.column)
    if name in ("fb_color", "fb_depth") and not suffixes:
        return _Op(" ".join(t.text for t in tokens), 8, head.column)
    if head.text.startswith("texld"):
        return _sampler(head, operands)
    if name == "load" and suffixes and suffixes[-1] == "v":
        return _varying(head, suffixes[:-1], operands)
    if name == "load":
        return _uniform(head, suffixes, operands)
    if name == "store" and suffixes == ["t"]:
        if len(operands) != 2:
            raise head.fail(f"store.t takes an index and a source, found {counted(len(operands), 'operand')}")
        # Mesa's compiler fills the offset register of a store without offset with ones.
        no_offset = "" if "+" in operands[0].text else " {offset_reg=0x3f}"
        index, source = _index(operands[0].text), operands[1].text
        one = re.fullmatch(r"(-?[0-9]+)\.([xyzw])((?:\+.*)?)", index)
        if one and "." not in source:
            # alignment 3: Mesa prints its index as a scalar one, its source as a register
            number = 4 * int(one.group(1)) + "xyzw".index(one.group(2))
            return _Op(f"store.t {number}{one.group(3)} {source} {{alignment=3}}{no_offset}", 8, head.column)
        return _Op(f"store.t {index} {source}{no_offset}", 8, head.column)
    if name == "branch":
        return _branch(head, suffixes, operands)
    if name == "atan_pt2" and suffixes == ["s2"]:
        return _atan_pt2(head, operands)
    if suffixes and suffixes[-1] in _UNITS:
        return _alu(head, suffixes[-1], name, suffixes[:-1], operands)
    raise head.fail(f"{head.text!r} is not an op of Mesa's lima disassembly")


@dataclass(slots=True)
class _Line:
    number: int
    ops: list[_Op]
    comment: str
    columns: list[tuple[int, int]]
    """(column in our text, column in Mesa's) of each op, to point messages at Mesa's text."""


Columns = list[tuple[int, str, int, list[Token]]]
"""Per op of a line: (its column in our text, our text, its column in Mesa's, Mesa's words)."""


def _read_line(number: int, text: str) -> tuple[list[_Op] | None, str, str]:
    """The ops of one Mesa line, its comment, and any passed-through text (labels).

    An instruction without fields is what Mesa prints for it: nothing (after its `@ N: `,
    or `nop`), or `, sync` / `, stop` with nothing before the first comma. A blank line
    without an offset is only blank."""
    code, hash_, comment = text.partition("#")
    comment = hash_ + comment
    match = _OFFSET.match(code)
    start = match.end() if match else 0
    body = code[start:]
    if not body.strip():
        return ([_Op("nop", None, start + 1)] if match else []), comment, ""
    if body.strip().endswith(":") and len(body.split()) == 1:
        return None, comment, body.strip()
    if body.strip() == "nop":
        return [_Op("nop", None, start + 1 + body.index("n"))], comment, ""
    ops = []
    column = start + 1
    items = body.split(",")
    for i, item in enumerate(items):
        words = [Token(m.group(), column + m.start()) for m in re.finditer(r"\S+", item)]
        if words:
            ops.append(_op(words))
        elif i > 0 or len(items) == 1:
            raise _fail(column, "expected an op here, found nothing")
        column += len(item) + 1
    return ops, comment, ""


def mesa_to_seed(text: str) -> tuple[str, list[Diagnostic], dict[int, Columns]]:
    """Our syntax for Mesa-syntax `text`, line for line; the problems found on the way;
    and per line, (our column, Mesa's column) of each op."""
    diagnostics: list[Diagnostic] = []
    lines: list[_Line | str] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        try:
            ops, comment, passed = _read_line(number, line)
        except AsmError as problem:
            diagnostics.append(Diagnostic(problem.message, Severity.ERROR, line=number, column=problem.column or 1))
            lines.append("")
            continue
        if ops is None or not ops:
            lines.append(" ".join(part for part in (passed, comment) if part))
            continue
        presence = 0
        for op in ops:
            if op.field is not None:
                presence |= 1 << op.field
        for op in ops:
            if op.target is not None:
                relative = op.target - offset
                op.text += f" {relative:+d}"
        lines.append(_Line(number, ops, comment, []))
        offset += words_needed(presence)
    out: list[str] = []
    columns: dict[int, Columns] = {}
    for entry in lines:
        if isinstance(entry, str):
            out.append(entry)
            continue
        control = [op for op in entry.ops if op.field is None and op.text != "nop"]
        control.sort(key=lambda op: op.text != "stop")
        ordered = control + [op for op in entry.ops if op.field is not None] or entry.ops
        pieces, at, mapping = [], 1, []
        for op in ordered:
            mapping.append((at, op.text, op.column, op.tokens or []))
            pieces.append(op.text)
            at += len(op.text) + 2
        columns[entry.number] = mapping
        out.append(", ".join(pieces) + (f" {entry.comment}" if entry.comment else ""))
    return "\n".join(out), diagnostics, columns


MESA_MARKERS = re.compile(
    r"^\s*@\s*-?[0-9]+:|,\s*(sync|stop)\s*(#.*)?$|\.(sat|pos|int)\.[sv][012]\b|<<[1-7]\b"
    r"|\bbias[0-9a-f]{3}\b|\bload\.perspective\.|\babs\(|\b[0-9]+\.[0-9]{6}\b",
    re.MULTILINE,
)
"""Spellings only Mesa's disassembly uses: its offsets, sync/stop last, `.sat.s1`, `<<N`,
`biasNNN`, `load.perspective.z`, `abs(…)`, constants with six decimals."""


def looks_like_mesa(text: str) -> bool:
    """True when the text has a spelling only Mesa's disassembly uses."""
    return MESA_MARKERS.search(text) is not None


def mesa_column(mapping: Columns, column: int) -> int:
    """The column in Mesa's line of a column in our translation of it: the same word of
    the op when Mesa's text has it, else the op's first word."""
    for ours, text, theirs, tokens in reversed(mapping):
        if ours <= column:
            at = column - ours
            start = text.rfind(" ", 0, at + 1) + 1
            end = text.find(" ", at)
            word = text[start : end if end >= 0 else len(text)]
            if start > 0:
                for token in tokens[1:]:
                    if token.text == word:
                        return token.column
            return theirs
    return 1
