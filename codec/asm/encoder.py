"""The assembler's engine: words in, SPIR-V words out, following spirv-as step by step.

Operands are driven by a stack of operand codes (`codec.asm.plans`), which grows when
an enumerant, a mask bit, an extended instruction or OpSpecConstantOp brings operands
of its own, and which turns into the alternate parsing mode after a `!<integer>`.
The first error stops assembly, as in spirv-as, by raising `AssemblyError`.
"""

from __future__ import annotations

import difflib
import re
from array import array

from codec.asm import literals as lit
from codec.asm.plans import (
    CODE_NAMES, ENUM_BASE, EXT_INST_NUM, FIXED_OPTIONAL, ID, LIT_FLOAT, LIT_INT, LIT_STR,
    OP_EXT_INST_IMPORT, OP_SWITCH, OPT_CIV, OPT_ID, OPT_LIT_INT, OPT_LIT_STR, OPT_TYPED_INT,
    REPEATED_ENUM_BASE, RESULT_ID, SPEC_OP_NUM, TYPE_ID, TYPED_NUM, VAR_ID, VARIADIC,
    OpcodePlan, Plans,
)

ID_NAME = re.compile(r"%[A-Za-z0-9_]+\Z")
"""A valid id word."""
_DECIMAL_ID = re.compile(r"\0%([1-9][0-9]*)(?=\0)")
_OTHER_NUMERIC_ID = re.compile(r"\0%(0[0-9A-Za-z_]*)(?=\0)")
"""Ids written as numbers, in words joined by NULs: plain decimal, and the rest
(`%0`, `%0x1f`, `%017`) that `asm_literals.id_number` reads."""
_UINT_TEXT = re.compile(r"[0-9]+\Z")
_NUMBER_LIKE = re.compile(r"-?[0-9]*\.?[0-9]*\Z")
MAX_WORD_COUNT = 0xFFFF
MAX_STRING_BYTES = 0xFFFF
OP_EXT_INST = 12
OP_EXT_INST_FORWARD = 4433
OP_CONSTANT, OP_SPEC_CONSTANT = 43, 50
OP_TYPE_INT, OP_TYPE_FLOAT = 21, 22
INT, FLOAT, OTHER = 0, 1, 2

Where = tuple[str, int]
"""('start', word), ('end', word) or ('eof', 0): where a diagnostic points."""


class AssemblyError(Exception):
    """The first error in the text; stops assembly."""

    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


def encode_typed(tok: str, info: tuple) -> tuple[list[int] | None, str | None]:
    """Words of a number of a declared scalar type (see `Encoder.types`), or an error."""
    kind, width, detail = info
    if kind == FLOAT:
        return lit.encode_float(tok, width, detail)
    return lit.encode_integer(tok, width, detail)


def number_like(word: str) -> bool:
    """True when spirv-as reads a word as a number rather than a string."""
    return word not in ("", "-") and _NUMBER_LIKE.match(word) is not None


def starts_op(word: str) -> bool:
    """True for 'Op' followed by an uppercase letter, which always starts an instruction."""
    return word[:2] == "Op" and "A" <= word[2:3] <= "Z"


class Encoder:
    """One assembly run over a list of words."""

    def __init__(
        self,
        words: list[str],
        plans: Plans,
        version: int,
        preserve: frozenset[int] = frozenset(),
        punctuation=None,
    ) -> None:
        words += ("", "")
        self.toks = words
        """The words, to which two empty ones are added (`words` itself grows by them)
        so that looking two words ahead needs no bounds check."""
        self.n = len(words) - 2
        self.plans = plans
        self.version = version
        self.preserve = preserve
        self.punctuation = punctuation
        """word index → the character there; only needed by OpUnknown."""
        self.ids: dict[str, int] = {}
        self.next_id = 1
        self.bound = 1
        self.types: dict[int, tuple] = {}
        """Type id → (INT, width, signed), (FLOAT, width, FPEncoding or None) or (OTHER, 0, False)."""
        self.value_types: dict[int, int] = {}
        self.imports: dict[int, object] = {}
        # Arrays of 32-bit words rather than lists: they keep no int objects alive,
        # which matters by the million.
        self.out = array("I")
        self.inst_words = array("I")
        """Where each emitted instruction starts in `out`."""
        self.inst_first = array("I")
        """The index of each emitted instruction's first word in the text."""
        self.available = plans.available(version)
        """Opname → plan, for the opcodes spirv-as accepts for this version."""
        self.enum_kinds = plans.enums.kinds

    # ----------------------------------------------------------------- helpers

    def new_instruction(self, i: int) -> bool:
        """spirv-as's isStartOfNewInst for word `i`: `Op…`, or `%id = Op…`."""
        toks = self.toks
        tok = toks[i]
        if starts_op(tok):
            return True
        return tok[:1] == "%" and i + 2 < self.n and toks[i + 1] == "=" and starts_op(toks[i + 2])

    def id_of(self, tok: str, i: int) -> int:
        """The number of id word `tok`, assigning one on first sight."""
        number = self.ids.get(tok)
        if number is not None:
            return number
        if tok[:1] != "%":
            raise AssemblyError(f"expected an id (like %name), found '{tok}'", ("start", i))
        if not ID_NAME.match(tok):
            raise AssemblyError(
                f"'{tok}' is not a valid id: use letters, digits and '_' after '%'", ("start", i)
            )
        return self.assign(tok)

    def assign(self, tok: str) -> int:
        """Numbers a valid id word seen for the first time: the next free number (with
        preserved numeric ids, the next one that is not preserved)."""
        number = self.next_id
        preserve = self.preserve
        if preserve:
            while number in preserve:
                number += 1
        self.next_id = number + 1
        number &= 0xFFFFFFFF
        self.bound = max(self.bound, (number + 1) & 0xFFFFFFFF)
        self.ids[tok] = number
        return number

    def pin(self, numbers: dict[str, int]) -> None:
        """Gives id words fixed numbers before assembly: the numeric ids that
        --preserve-numeric-ids keeps ('%12' → 12), or a disassembler's names ('%main' → 4)."""
        self.ids.update(numbers)
        if numbers:
            top = max(numbers.values())
            if top == 0xFFFFFFFF:  # its bound, 2^32, wraps to 0
                top = max((n for n in numbers.values() if n != top), default=-1)
            self.bound = max(self.bound, top + 1)

    # ------------------------------------------------------------- the module

    def run(self) -> None:
        """Assembles every instruction, operand by operand as spirv-as goes; raises
        AssemblyError at the first error."""
        i = 0
        while i < self.n:
            i = self.encode_at(i)

    def encode_at(self, i: int) -> int:
        """Assembles the instruction at word `i` operand by operand; returns the index
        of the next word."""
        toks = self.toks
        n = self.n
        out = self.out
        start = len(out)
        tok = toks[i]
        plans = self.available
        if tok[:1] == "%" and i + 2 < n and toks[i + 1] == "=":
            plan = plans.get(toks[i + 2])
            if plan is not None and plan.has_result:
                j = self.instruction(i + 3, tok, i + 2, plan)
            else:
                j = self.assignment(i)
        elif tok[:1] == "!":
            j = self.immediate_instruction(i)
        elif starts_op(tok):
            plan = plans.get(tok)
            if plan is not None:
                j = self.instruction(i + 1, None, i, plan)
            elif tok == "OpUnknown":
                j = self.unknown_instruction(i)
            else:
                j = self.instruction(i + 1, None, i, self.lookup(tok, i))
        else:
            j = self.assignment(i)
        if len(out) > start:
            self.inst_words.append(start)
            self.inst_first.append(i)
        return j

    def lookup(self, opname: str, i: int) -> OpcodePlan:
        """The plan of `opname`, if spirv-as knows it for the target version."""
        plans = self.plans.by_name
        plan = plans.get(opname)
        if plan is None:
            close = difflib.get_close_matches(opname, list(plans), n=1)
            hint = f" — did you mean '{close[0]}'?" if close else ""
            raise AssemblyError(f"unknown opcode '{opname}'{hint}", ("start", i))
        if not plan.available(self.version):
            v = plan.min_version
            raise AssemblyError(
                f"'{opname}' needs SPIR-V {v >> 16}.{(v >> 8) & 0xFF} or later"
                " (see --target-env)",
                ("start", i),
            )
        return plan

    def assignment(self, i: int) -> int:
        """`%id = OpX …`: the result id, '=', then the instruction."""
        toks = self.toks
        tok = toks[i]
        if tok[:1] != "%":
            raise AssemblyError(
                f"expected an opcode or '%id =' to start an instruction, found '{tok}'", ("start", i)
            )
        if i + 1 >= self.n:
            raise AssemblyError(f"expected '=' after {tok}, found the end of the text", ("eof", 0))
        if toks[i + 1] != "=":
            raise AssemblyError(f"expected '=' after {tok}, found '{toks[i + 1]}'", ("start", i + 1))
        if i + 2 >= self.n:
            raise AssemblyError("expected an opcode after '=', found the end of the text", ("eof", 0))
        opname = toks[i + 2]
        if not starts_op(opname):
            raise AssemblyError(f"expected an opcode after '=', found '{opname}'", ("start", i + 2))
        if opname == "OpUnknown":
            raise AssemblyError(
                "OpUnknown cannot be assigned: give the result id as an operand", ("start", i + 2)
            )
        plan = self.lookup(opname, i + 2)
        if not plan.has_result:
            raise AssemblyError(f"{opname} does not produce a result id, so {tok} cannot be set", ("start", i + 2))
        return self.instruction(i + 3, tok, i + 2, plan)

    # ------------------------------------------------------ one instruction

    def instruction(self, i: int, result: str | None, op_index: int, plan: OpcodePlan) -> int:
        """Encodes the operands of `plan` from word `i`; returns the next word index."""
        if plan.has_result and result is None:
            raise AssemblyError(
                f"{plan.opname} produces a result: write '%name = {plan.opname} …'", ("start", op_index)
            )
        toks = self.toks
        n = self.n
        out = self.out
        ids = self.ids
        start = len(out)
        out.append(0)
        opcode = plan.opcode
        type_id = 0
        last = op_index
        stop: Where | None = None
        # Leading id operands, the bulk of every module, take a short path; anything
        # unusual (a '!', a missing operand, a new instruction) falls to the full loop.
        full = plan.stack
        k = len(full)
        floor = k - plan.fast
        while k > floor:
            code = full[k - 1]
            if code == RESULT_ID:
                if result is None:
                    break
                number = ids.get(result)
                if number is None:
                    self.result_id(result, op_index, last)
                else:
                    out.append(number)
            else:
                if i >= n:
                    break
                tok = toks[i]
                if tok[:1] != "%" or (i + 2 < n and toks[i + 1] == "=" and starts_op(toks[i + 2])):
                    break
                number = ids.get(tok)
                if number is None:
                    number = self.id_of(tok, i)
                out.append(number)
                if code == TYPE_ID:
                    type_id = number
                last = i
                i += 1
            k -= 1
        if k == floor and plan.optional_after_fast:
            # The rest is optional: it is absent when an instruction or the end follows.
            if i >= n:
                k, stop = 0, ("eof", 0)
            else:
                tok = toks[i]
                if starts_op(tok) or (
                    tok[:1] == "%" and i + 2 < n and toks[i + 1] == "=" and starts_op(toks[i + 2])
                ):
                    k, stop = 0, ("start", i)
        stack = list(full[:k]) if k else []
        pop = stack.pop
        while stack:
            code = pop()
            if code == RESULT_ID and result is not None:
                self.result_id(result, op_index, last)
                continue
            extra = VARIADIC.get(code)
            if extra is None and code >= REPEATED_ENUM_BASE:
                extra = self.plans.enums.repeated[code]
            if extra is not None:
                if code == VAR_ID:
                    j = self.id_list(i)
                    if j > i:
                        last, i = j - 1, j
                    if i >= n:
                        stop = ("eof", 0)
                        break
                    if self.new_instruction(i):
                        stop = ("start", i)
                        break
                stack.append(code)
                stack.extend(reversed(extra))
                continue
            optional = code in FIXED_OPTIONAL or (code >= ENUM_BASE and code & 1)
            if i >= n:
                if optional:
                    stop = ("eof", 0)
                    break
                raise AssemblyError(
                    f"expected {self.describe(code)} for {plan.opname}, found the end of the text",
                    ("eof", 0),
                )
            tok = toks[i]
            if self.new_instruction(i):
                if optional:
                    stop = ("start", i)
                    break
                raise AssemblyError(
                    f"expected {self.describe(code)} for {plan.opname}, found the next instruction '{tok}'",
                    ("start", i),
                )
            if tok[:1] == "!":
                out.append(self.immediate(tok, i))
                stack = alternate_stack(stack)
                pop = stack.pop
            elif code == ID or code == OPT_ID:
                out.append(self.id_of(tok, i))
                self.check_ext_set(tok, i, start, opcode)
            elif code == TYPE_ID:
                type_id = self.id_of(tok, i)
                out.append(type_id)
            elif code >= ENUM_BASE:
                self.enum(code, tok, i, stack)
            elif not self.literal(code, tok, i, stack, opcode, type_id, start, optional):
                return i  # an optional literal that did not match: spirv-as stops here
            last = i
            i += 1
        where = stop or ("end", last)
        count = len(out) - start
        if count > MAX_WORD_COUNT:
            raise AssemblyError(
                f"{plan.opname} is {count} words long; the limit is {MAX_WORD_COUNT}", where
            )
        out[start] = (count << 16) | opcode
        if plan.declares_type:
            self.record_type(opcode, start, where)
        elif plan.has_type and count > 2:
            self.value_types.setdefault(out[start + 2], out[start + 1])
        return i

    def check_ext_set(self, tok: str, i: int, start: int, opcode: int) -> None:
        """OpExtInst's fourth word, when an id, must be an OpExtInstImport result."""
        out = self.out
        if len(out) - start == 4 and (opcode == OP_EXT_INST or opcode == OP_EXT_INST_FORWARD):
            if out[-1] not in self.imports:
                raise AssemblyError(f"{tok} is not the result of an OpExtInstImport", ("start", i))

    def result_id(self, result: str, op_index: int, last: int) -> None:
        """Encodes the `%id =` of an assignment where the grammar puts it."""
        try:
            self.out.append(self.id_of(result, op_index - 2))
        except AssemblyError as error:
            error.where = ("end", last)
            raise

    def id_list(self, i: int) -> int:
        """Encodes ids from word `i` up to the next instruction or a word that is not an
        id; returns the index of the first word not taken."""
        toks = self.toks
        n = self.n
        ids = self.ids
        out = self.out
        while i < n:
            tok = toks[i]
            if tok[:1] != "%" or (i + 2 < n and toks[i + 1] == "=" and starts_op(toks[i + 2])):
                break
            number = ids.get(tok)
            out.append(number if number is not None else self.id_of(tok, i))
            i += 1
        return i

    def describe(self, code: int) -> str:
        """What an operand code expects, for messages."""
        if code >= ENUM_BASE:
            enum = self.plans.enums.kinds[(code - ENUM_BASE) >> 1]
            return f"a {enum.kind.kind}"
        return CODE_NAMES.get(code, "an operand")

    def record_type(self, opcode: int, start: int, where: Where) -> None:
        """Remembers a type declaration, for the literals of OpConstant and OpSwitch."""
        out = self.out
        words = out[start:]
        if len(words) < 2:
            return
        type_id = words[1]
        if type_id in self.types:
            raise AssemblyError(f"id {type_id} already declares a type", where)
        if opcode == OP_TYPE_INT:
            if len(words) != 4:
                raise AssemblyError("OpTypeInt takes a width and a signedness", where)
            self.types[type_id] = (INT, words[2], words[3] != 0)
        elif opcode == OP_TYPE_FLOAT:
            if len(words) not in (3, 4):
                raise AssemblyError("OpTypeFloat takes a width and an optional encoding", where)
            if len(words) == 4 and words[3] not in self.plans.grammar.operand_kinds["FPEncoding"].by_value:
                raise AssemblyError(f"{words[3]} is not an FPEncoding", where)
            self.types[type_id] = (FLOAT, words[2], words[3] if len(words) == 4 else None)
        else:
            self.types[type_id] = (OTHER, 0, False)

    # -------------------------------------------------------------- operands

    def immediate(self, tok: str, i: int) -> int:
        """The value of a `!<integer>` word."""
        value = lit.parse_u32(tok[1:])
        if value is None:
            raise AssemblyError(
                f"expected a 32-bit unsigned integer after '!', found '{tok[1:]}'", ("start", i)
            )
        return value

    def enum(self, code: int, tok: str, i: int, stack: list[int]) -> None:
        """A named enumerant or a `A|B` mask, pushing the parameters it brings."""
        enum = self.plans.enums.kinds[(code - ENUM_BASE) >> 1]
        by_name = enum.kind.by_name
        if enum.is_mask and tok:
            value = 0
            for part in tok.split("|"):
                e = by_name.get(part)
                if e is None:
                    raise AssemblyError(self.not_enumerant(part or tok, enum), ("start", i))
                value |= e.value
            self.out.append(value)
            params = enum.parameters
            if params:
                bit = 1 << 31
                while bit:
                    if value & bit and bit in params:
                        stack.extend(params[bit])
                    bit >>= 1
            return
        e = by_name.get(tok)
        if e is None:
            raise AssemblyError(self.not_enumerant(tok, enum), ("start", i))
        self.out.append(e.value)
        params = enum.parameters.get(e.value)
        if params:
            stack.extend(params)

    @staticmethod
    def not_enumerant(name: str, enum) -> str:
        """'Foo' is not a Decoration — did you mean …?"""
        close = difflib.get_close_matches(name, list(enum.kind.by_name), n=1)
        hint = f" — did you mean '{close[0]}'?" if close else ""
        return f"'{name}' is not a {enum.kind.kind}{hint}"

    def literal(
        self, code: int, tok: str, i: int, stack: list[int], opcode: int, type_id: int,
        start: int, optional: bool,
    ) -> bool:
        """Encodes a literal operand; False when an optional one does not match."""
        out = self.out
        if code == LIT_INT or code == OPT_LIT_INT:
            words, error = lit.encode_integer(tok, 32, False)
        elif code == LIT_STR or code == OPT_LIT_STR:
            return self.string(tok, i, opcode, start, optional)
        elif code == TYPED_NUM or code == OPT_TYPED_INT:
            words, error = self.typed_number(tok, i, opcode, type_id, start)
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
                self.check_ext_set(tok, i, start, opcode)
            if not stack:
                stack.append(OPT_CIV)
            return True
        else:
            raise AssemblyError(f"unsupported operand code {code}", ("start", i))
        if words is None:
            if optional:
                return False
            raise AssemblyError(error, ("start", i))
        out.extend(words)
        return True

    def typed_number(self, tok: str, i: int, opcode: int, type_id: int, start: int):
        """A number whose width comes from OpConstant's type or OpSwitch's selector."""
        if opcode == OP_CONSTANT or opcode == OP_SPEC_CONSTANT:
            info = self.types.get(type_id)
            if info is None or info[0] == OTHER:
                raise AssemblyError(
                    "the result type of a constant must be a scalar integer or float type",
                    ("start", i),
                )
        elif opcode == OP_SWITCH:
            selector = self.out[start + 1] if len(self.out) > start + 1 else 0
            info = self.types.get(self.value_types.get(selector, -1))
            if info is None or info[0] != INT:
                raise AssemblyError(
                    "the OpSwitch selector must be a value of a scalar integer type", ("start", i)
                )
        else:
            return lit.encode_untyped_number(tok)
        return encode_typed(tok, info)

    def string(self, tok: str, i: int, opcode: int, start: int, optional: bool) -> bool:
        """A quoted string; records OpExtInstImport's set."""
        value = lit.unquote(tok)
        if value is None or number_like(tok):
            if optional and not number_like(tok):
                return False
            raise AssemblyError(f"expected a quoted string, found '{tok}'", ("start", i))
        data_len = len(value.encode("utf-8", "surrogateescape"))
        if data_len >= MAX_STRING_BYTES:
            raise AssemblyError(f"string of {data_len} bytes is too long", ("start", i))
        if opcode == OP_EXT_INST_IMPORT:
            self.record_import(value, i, start)
        self.out.extend(lit.string_words(value))
        return True

    def record_import(self, name: str, i: int, start: int) -> None:
        """Remembers which extended set an OpExtInstImport result id stands for."""
        ext = self.plans.grammar.ext_inst_set(name)
        if ext is None and not name.startswith("NonSemantic."):
            raise AssemblyError(f"unknown extended instruction set '{name}'", ("start", i))
        result = self.out[start + 1] if len(self.out) > start + 1 else 0
        if result in self.imports:
            raise AssemblyError(f"id {result} already imports an extended instruction set", ("start", i))
        self.imports[result] = ext

    def ext_inst_number(self, tok: str, i: int, start: int, stack: list[int]) -> None:
        """An extended instruction by name (or number, for non-semantic sets)."""
        set_id = self.out[start + 3] if len(self.out) > start + 3 else None
        ext = self.imports.get(set_id) if set_id is not None else None
        if ext is not None:
            found = self.plans.ext_instructions(ext).get(tok)
            if found is not None:
                self.out.append(found[0])
                stack.extend(found[1])
                return
        non_semantic = set_id in self.imports and (ext is None or ext.import_name.startswith("NonSemantic."))
        if non_semantic and _UINT_TEXT.match(tok) and int(tok) <= 0xFFFFFFFF:
            self.out.append(int(tok))
            stack.append(VAR_ID)
            return
        set_name = ext.import_name if ext is not None else "the imported set"
        raise AssemblyError(f"'{tok}' is not an instruction of {set_name}", ("start", i))

    def spec_constant_opcode(self, tok: str, i: int, stack: list[int]) -> None:
        """OpSpecConstantOp's operation, named without 'Op'."""
        plan = self.plans.by_name.get("Op" + tok)
        if plan is None or not plan.has_type or not plan.available(self.version):
            raise AssemblyError(
                f"'{tok}' is not an operation OpSpecConstantOp can compute (name it without 'Op')",
                ("start", i),
            )
        self.out.append(plan.opcode)
        stack.extend(plan.stack[:-2])

    def civ(self, tok: str, i: int, start: int, opcode: int) -> None:
        """A word in the alternate parsing mode: a number, a string or an id."""
        if tok[:1] == "!":
            self.out.append(self.immediate(tok, i))
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
                f"after !<integer>, expected a number, a quoted string or an id, found '{tok}'",
                ("start", i),
            )
        self.out.append(self.id_of(tok, i))

    # ------------------------------------------------ instructions without grammar

    def immediate_instruction(self, i: int) -> int:
        """An instruction that starts with `!<integer>`: every word up to the next
        instruction is emitted as it is."""
        toks = self.toks
        first = toks[i]
        self.out.append(self.immediate(first, i))
        start = len(self.out) - 1
        i += 1
        while i < self.n and not self.new_instruction(i):
            tok = toks[i]
            if tok == "=":
                raise AssemblyError(f"'=' cannot follow {first}", ("start", i))
            self.civ(tok, i, start, 0)
            i += 1
        return i

    def unknown_instruction(self, i: int) -> int:
        """`OpUnknown(opcode, word count) operands…`."""
        toks = self.toks
        n = self.n
        char = self.punctuation

        def expect(j: int, ch: str, what: str) -> None:
            if j >= n:
                raise AssemblyError(f"expected '{ch}' {what}, found the end of the text", ("eof", 0))
            if toks[j] != "" or char(j) != ch:
                found = toks[j] or char(j)
                raise AssemblyError(f"expected '{ch}' {what}, found '{found}'", ("start", j))

        def number(j: int, what: str) -> int:
            if j >= n:
                raise AssemblyError(f"expected {what}, found the end of the text", ("eof", 0))
            value = lit.parse_u16(toks[j])
            if value is None:
                raise AssemblyError(f"expected {what} (0 to 65535), found '{toks[j]}'", ("start", j))
            return value

        expect(i + 1, "(", "after OpUnknown")
        opcode = number(i + 2, "an opcode number")
        expect(i + 3, ",", "after the opcode number")
        count = number(i + 4, "a word count")
        if count == 0:
            raise AssemblyError("the word count includes the opcode word, so it must be at least 1", ("start", i + 4))
        expect(i + 5, ")", "after the word count")
        start = len(self.out)
        self.out.append((count << 16) | opcode)
        i += 6
        for remaining in range(count - 1, 0, -1):
            if i >= n:
                raise AssemblyError(f"expected {remaining} more operands, found the end of the text", ("eof", 0))
            if self.new_instruction(i):
                raise AssemblyError(
                    f"expected {remaining} more operands, found the next instruction '{toks[i]}'", ("start", i)
                )
            if toks[i] == "=":
                raise AssemblyError("'=' cannot follow OpUnknown", ("start", i))
            self.civ(toks[i], i, start, opcode)
            i += 1
        return i


def numeric_ids(words: list[str]) -> dict[str, int]:
    """The ids written as numbers (`%12`, `%0x1f`) with their numbers, which
    --preserve-numeric-ids keeps. spirv-as finds them with a dry run; when that run
    succeeds every word starting with '%' is an id, so a scan finds the same set.
    The scan runs as one regular expression over the distinct words joined by NULs
    (which no word contains), which is several times faster than a loop over them.
    The words are taken in order of first appearance, so that the ids the assembler
    meets one after another sit close together in the dictionary's memory."""
    joined = "\0" + "\0".join(dict.fromkeys(words)) + "\0"
    decimal = _DECIMAL_ID.findall(joined)
    found = dict(zip(["%" + digits for digits in decimal], map(int, decimal)))
    for name in _OTHER_NUMERIC_ID.findall(joined):
        value = lit.id_number(name)
        if value is not None:
            found["%" + name] = value
    if found and max(found.values()) > 0xFFFFFFFF:
        found = {tok: value for tok, value in found.items() if value <= 0xFFFFFFFF}
    return found


def alternate_stack(stack: list[int]) -> list[int]:
    """The operands still expected after a `!<integer>`: anything (literals or ids) up
    to the result id if it is still to come, then anything until the next instruction."""
    for depth, code in enumerate(reversed(stack)):
        if code == RESULT_ID:
            return [OPT_CIV, RESULT_ID] + [OPT_CIV] * depth
    return [OPT_CIV]
