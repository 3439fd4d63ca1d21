"""Literal operands in assembly: integers, strings, numbers as wide as a type says,
extended instruction names, OpSpecConstantOp's operation, and the words of the
alternate parsing mode after a `!<integer>`.

`LiteralOperands` is the exact engine's, with spirv-as's diagnostics; the quick
paths use the same encoders (`encode_typed`, `plain_string_words`,
`literals.encode_integer`) and give up wherever these would report an error.
"""

from __future__ import annotations

import re
from array import array

from spvinspect.codec.asm import literals as lit
from spvinspect.codec.asm.declarations import FLOAT, Declarations, NumberType
from spvinspect.codec.asm.errors import AssemblyError, shown
from spvinspect.codec.asm.ids import IdTable
from spvinspect.codec.asm.plans import Plans
from spvinspect.codec.program import (
    EXT_INST_NUM, LIT_FLOAT, LIT_INT, LIT_STR, OPT_CIV, OPT_LIT_INT, OPT_LIT_STR, OPT_TYPED_INT,
    SPEC_OP_NUM, TYPED_NUM, UNKNOWN_SET_OPERANDS,
)
from spvinspect.codec.plural import counted

MAX_WORD_COUNT = 0xFFFF
"""The most words an instruction has: its word count is 16 bits."""
_UINT_TEXT = re.compile(r"[0-9]+\Z")
_NUMBER_LIKE = re.compile(r"-?[0-9]*\.?[0-9]*\Z")
_PLAIN_STRING = re.compile(r'"[^"\\]{0,16000}"\Z')
"""A quoted string without escapes, short enough to need no length check."""


def number_like(word: str) -> bool:
    """True when spirv-as reads a word as a number rather than a string."""
    return word not in ("", "-") and _NUMBER_LIKE.match(word) is not None


def encode_typed(tok: str, info: NumberType) -> tuple[list[int] | None, str | None]:
    """Words of a number of a declared scalar type, or an error."""
    kind, width, detail = info
    if kind == FLOAT:
        return lit.encode_float(tok, width, detail)
    return lit.encode_integer(tok, width, detail)


def plain_string_words(tok: str) -> list[int] | None:
    """The words of a quoted string without escapes, short enough that it cannot make
    an instruction too long; None for any other word."""
    if not _PLAIN_STRING.match(tok):
        return None
    data = lit.string_bytes(tok[1:-1])[0]
    return None if data is None else lit.string_words(data)


def immediate(tok: str, i: int) -> int:
    """The value of a `!<integer>` word (word `i`)."""
    value = lit.parse_u32(tok[1:])
    if value is None:
        raise AssemblyError(f"expected a 32-bit unsigned integer after '!', found '{shown(tok[1:])}'", ("start", i))
    return value


class LiteralOperands:
    """Encodes the literal operands of one assembly run into its output words."""

    def __init__(
        self, out: array, plans: Plans, version: int, declared: Declarations, ids: IdTable
    ) -> None:
        self.out = out
        self.plans = plans
        self.version = version
        self.declared = declared
        self.ids = ids

    def encode(
        self, code: int, tok: str, i: int, stack: list[int], opcode: int, type_id: int,
        start: int, optional: bool,
    ) -> bool:
        """Encodes literal word `tok` (word `i`) of the instruction that starts at
        `start` in the output; False when an optional one does not match."""
        if code == LIT_INT or code == OPT_LIT_INT:
            words, error = lit.encode_integer(tok, 32, False)
        elif code == LIT_STR or code == OPT_LIT_STR:
            return self.string(tok, i, opcode, start, optional)
        elif code == TYPED_NUM:
            words, error = self.typed_number(tok, i, opcode, type_id)
        elif code == OPT_TYPED_INT:
            selector = self.out[start + 1] if len(self.out) > start + 1 else 0
            info = self.declared.selector_type(selector)
            if info is None:
                raise AssemblyError(
                    "the OpSwitch selector must be a value of a scalar integer type", ("start", i)
                )
            words, error = encode_typed(tok, info)
        elif code == LIT_FLOAT:
            words, error = lit.encode_float(tok, 32)
        elif code == EXT_INST_NUM:
            self.ext_inst_number(tok, i, start, stack)
            return True
        elif code == SPEC_OP_NUM:
            self.spec_constant_opcode(tok, i, stack)
            return True
        elif code == OPT_CIV:
            self.civ(tok, i, start, opcode)
            if tok[:1] == "%":  # an id, which spirv-as checks even after a !<integer>
                self.declared.check_ext_set(self.out, start, opcode, tok, i)
            if not stack:
                stack.append(OPT_CIV)
            return True
        else:
            raise AssemblyError(f"unsupported operand code {code}", ("start", i))
        if words is None:
            if optional:
                return False
            raise AssemblyError(error, ("start", i))
        self.out.extend(words)
        return True

    def typed_number(self, tok: str, i: int, opcode: int, type_id: int):
        """A number as wide as OpConstant's result type says (any other instruction's,
        OpSpecConstantOp's embedded OpConstant, is a 32-bit number)."""
        if opcode not in self.plans.constant_opcodes:
            return lit.encode_untyped_number(tok)
        info = self.declared.constant_type(type_id)
        if info is None:
            raise AssemblyError(
                "the result type of a constant must be a scalar integer or float type", ("start", i)
            )
        return encode_typed(tok, info)

    def string(self, tok: str, i: int, opcode: int, start: int, optional: bool) -> bool:
        """A quoted string; records OpExtInstImport's set. False when an optional one
        is absent (the word is not a string, nor a number)."""
        value = lit.unquote(tok)
        if value is None or number_like(tok):
            if optional and not number_like(tok):
                return False
            raise AssemblyError(f"expected a quoted string, found '{shown(tok)}'", ("start", i))
        data, error = lit.string_bytes(value)
        if data is None:
            raise AssemblyError(error, ("start", i))
        out = self.out
        count = len(out) - start + lit.string_word_count(data)
        if count > MAX_WORD_COUNT:
            raise AssemblyError(
                f"a string of {counted(len(data), 'byte')} makes the instruction {count} words long; "
                f"the limit is {MAX_WORD_COUNT}",
                ("start", i),
            )
        if opcode == self.plans.program.opcodes.OpExtInstImport:
            self.declared.record_import(value, out[start + 1] if len(out) > start + 1 else 0, i)
        out.extend(lit.string_words(data))
        return True

    def ext_inst_number(self, tok: str, i: int, start: int, stack: list[int]) -> None:
        """An extended instruction by name (or number, for non-semantic sets)."""
        out = self.out
        imports = self.declared.imports
        set_id = out[start + 3] if len(out) > start + 3 else None
        ext = imports.get(set_id) if set_id is not None else None
        if ext is not None:
            found = self.plans.ext_instructions(ext).get(tok)
            if found is not None:
                out.append(found.number)
                stack.extend(found.stack)
                return
        non_semantic = set_id in imports and (ext is None or ext.import_name.startswith("NonSemantic."))
        if non_semantic and _UINT_TEXT.match(tok):
            digits = tok.lstrip("0")
            if len(digits) <= 10 and int(digits or "0") <= 0xFFFFFFFF:  # spirv-as reads 007 as 7
                out.append(int(digits or "0"))
                stack.extend(reversed(UNKNOWN_SET_OPERANDS))
                return
        set_name = ext.import_name if ext is not None else "the imported set"
        raise AssemblyError(f"'{shown(tok)}' is not an instruction of {set_name}", ("start", i))

    def spec_constant_opcode(self, tok: str, i: int, stack: list[int]) -> None:
        """OpSpecConstantOp's operation, named without 'Op'."""
        plan = self.plans.by_name.get("Op" + tok)
        if plan is None or not plan.has_type or not plan.program.available(self.version):
            raise AssemblyError(
                f"'{shown(tok)}' is not an operation OpSpecConstantOp can compute (name it without 'Op')",
                ("start", i),
            )
        self.out.append(plan.opcode)
        stack.extend(plan.stack[:-2])

    def civ(self, tok: str, i: int, start: int, opcode: int) -> None:
        """A word in the alternate parsing mode: a number, a string or an id."""
        if tok[:1] == "!":
            self.out.append(immediate(tok, i))
            return
        words, _ = lit.encode_untyped_number(tok)
        if words is not None:
            self.out.extend(words)
            return
        value = lit.unquote(tok)
        if value is not None and not number_like(tok):
            self.string(tok, i, opcode, start, False)
            return
        if number_like(tok) or tok[:1] != "%":
            raise AssemblyError(
                f"after !<integer>, expected a number, a quoted string or an id, found '{shown(tok)}'",
                ("start", i),
            )
        self.out.append(self.ids.id_of(tok, i))
