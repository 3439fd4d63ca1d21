"""The assembler's exact engine: words in, SPIR-V words out, following spirv-as step by step.

Each instruction's operands are walked off a stack of operand codes (`codec.asm.plans`,
from `codec.program`), which grows when an enumerant, a mask bit, an extended
instruction or OpSpecConstantOp brings operands of its own, and which turns into the
alternate parsing mode after a `!<integer>`. The parts: ids in `codec.asm.ids`,
literals in `codec.asm.literal_operands`, enums in `codec.asm.enums`, what earlier
instructions declared in `codec.asm.declarations`, instructions without grammar in
`codec.asm.raw_instructions`. The first error stops assembly, as in spirv-as, by
raising `AssemblyError`.
"""

from __future__ import annotations

import difflib
from array import array

from spvinspect.codec.asm import raw_instructions
from spvinspect.codec.asm.declarations import Declarations
from spvinspect.codec.asm.enums import encode_enum
from spvinspect.codec.asm.errors import AssemblyError, Where, shown
from spvinspect.codec.asm.ids import IdTable
from spvinspect.codec.asm.literal_operands import MAX_WORD_COUNT, LiteralOperands, immediate
from spvinspect.codec.asm.plans import OpcodePlan, Plans
from spvinspect.codec.program import (
    CODE_NAMES, ENUM_BASE, FIXED_OPTIONAL, ID, OPT_CIV, OPT_ID, RESULT_ID, TYPE_ID, VAR_ID, repetition,
)


def starts_op(word: str) -> bool:
    """True for 'Op' followed by an uppercase letter, which always starts an instruction."""
    return word[:2] == "Op" and "A" <= word[2:3] <= "Z"


class Encoder:
    """One assembly run over a list of words: the operand walk."""

    def __init__(
        self,
        words: list[str],
        plans: Plans,
        version: int,
        preserve: frozenset[int] = frozenset(),
        punctuation=None,
    ) -> None:
        if isinstance(words, list):
            words += ("", "")
        self.toks = words
        """The words, to which two empty ones are added (a list itself grows by them;
        any other sequence must end with them) so that looking two words ahead needs
        no bounds check."""
        self.n = len(words) - 2
        self.plans = plans
        self.version = version
        self.punctuation = punctuation
        """word index → the character there; only needed by OpUnknown."""
        self.ids = IdTable(preserve)
        self.declared = Declarations(plans.program)
        # Arrays of 32-bit words rather than lists: they keep no int objects alive,
        # which matters by the million.
        self.out = array("I")
        self.inst_words = array("I")
        """Where each emitted instruction starts in `out`."""
        self.inst_first = array("I")
        """The index of each emitted instruction's first word in the text."""
        self.literals = LiteralOperands(self.out, plans, version, self.declared, self.ids)
        self.available = plans.available(version)
        """Opname → plan, for the opcodes spirv-as accepts for this version."""

    def new_instruction(self, i: int) -> bool:
        """spirv-as's isStartOfNewInst for word `i`: `Op…`, or `%id = Op…`."""
        toks = self.toks
        tok = toks[i]
        if starts_op(tok):
            return True
        return tok[:1] == "%" and i + 2 < self.n and toks[i + 1] == "=" and starts_op(toks[i + 2])

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
        out = self.out
        start = len(out)
        tok = toks[i]
        plans = self.available
        if tok[:1] == "%" and i + 2 < self.n and toks[i + 1] == "=":
            plan = plans.get(toks[i + 2])
            if plan is not None and plan.has_result:
                j = self.instruction(i + 3, tok, i + 2, plan)
            else:
                j = self.assignment(i)
        elif tok[:1] == "!":
            j = raw_instructions.immediate_instruction(self, i)
        elif starts_op(tok):
            plan = plans.get(tok)
            if plan is not None:
                j = self.instruction(i + 1, None, i, plan)
            elif tok == "OpUnknown":
                j = raw_instructions.unknown_instruction(self, i)
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
            raise AssemblyError(f"unknown opcode '{shown(opname)}'{hint}", ("start", i))
        if not plan.program.available(self.version):
            v = plan.program.min_version
            raise AssemblyError(
                f"'{shown(opname)}' needs SPIR-V {v >> 16}.{(v >> 8) & 0xFF} or later (see --target-env)",
                ("start", i),
            )
        return plan

    def assignment(self, i: int) -> int:
        """`%id = OpX …`: the result id, '=', then the instruction."""
        toks = self.toks
        tok = toks[i]
        if tok[:1] != "%":
            raise AssemblyError(
                f"expected an opcode or '%id =' to start an instruction, found '{shown(tok)}'", ("start", i)
            )
        if i + 1 >= self.n:
            raise AssemblyError(f"expected '=' after {shown(tok)}, found the end of the text", ("eof", 0))
        if toks[i + 1] != "=":
            raise AssemblyError(f"expected '=' after {shown(tok)}, found '{shown(toks[i + 1])}'", ("start", i + 1))
        if i + 2 >= self.n:
            raise AssemblyError("expected an opcode after '=', found the end of the text", ("eof", 0))
        opname = toks[i + 2]
        if not starts_op(opname):
            raise AssemblyError(f"expected an opcode after '=', found '{shown(opname)}'", ("start", i + 2))
        if opname == "OpUnknown":
            raise AssemblyError(
                "OpUnknown cannot be assigned: give the result id as an operand", ("start", i + 2)
            )
        plan = self.lookup(opname, i + 2)
        if not plan.has_result:
            raise AssemblyError(f"{shown(opname)} does not produce a result id, so {shown(tok)} cannot be set", ("start", i + 2))
        return self.instruction(i + 3, tok, i + 2, plan)

    # ------------------------------------------------------ one instruction

    def instruction(self, i: int, result: str | None, op_index: int, plan: OpcodePlan) -> int:
        """Encodes the operands of `plan` from word `i` (the opcode is word `op_index`,
        `result` the id word before '=', if any); returns the next word index."""
        if plan.has_result and result is None:
            raise AssemblyError(
                f"{plan.opname} produces a result: write '%name = {plan.opname} …'", ("start", op_index)
            )
        start = len(self.out)
        self.out.append(0)
        i, k, type_id, last = self.leading_ids(i, result, op_index, plan)
        stop: Where | None = None
        if k == len(plan.stack) - plan.fast and plan.optional_after_fast:
            stop = self.absent(i)  # the rest is optional: absent when an instruction or the end follows
        stack = list(plan.stack[:k]) if k and stop is None else []
        return self.operands(stack, i, result, op_index, plan, start, type_id, last, stop)

    def leading_ids(self, i: int, result: str | None, op_index: int, plan: OpcodePlan):
        """The short path for the leading run of plain ids, the bulk of every module:
        encodes them until anything unusual (a '!', a missing operand, a new
        instruction). Returns the next word, how many codes are left on the plan's
        stack, the result type id and the last word taken."""
        toks = self.toks
        n = self.n
        out = self.out
        get = self.ids.numbers.get
        type_id = 0
        last = op_index
        full = plan.stack
        k = len(full)
        floor = k - plan.fast
        while k > floor:
            code = full[k - 1]
            if code == RESULT_ID:
                if result is None:
                    break
                number = get(result)
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
                number = get(tok)
                if number is None:
                    number = self.ids.id_of(tok, i)
                out.append(number)
                if code == TYPE_ID:
                    type_id = number
                last = i
                i += 1
            k -= 1
        return i, k, type_id, last

    def absent(self, i: int) -> Where | None:
        """Where optional operands from word `i` end when they are absent: at the end of
        the text or at the next instruction; None when they are present."""
        if i >= self.n:
            return ("eof", 0)
        return ("start", i) if self.new_instruction(i) else None

    def operands(
        self, stack: list[int], i: int, result: str | None, op_index: int, plan: OpcodePlan,
        start: int, type_id: int, last: int, stop: Where | None,
    ) -> int:
        """Encodes the operands left on `stack` from word `i`, then completes the
        instruction that starts at `start` in the output; returns the next word index."""
        toks = self.toks
        n = self.n
        out = self.out
        opcode = plan.opcode
        pop = stack.pop
        while stack:
            code = pop()
            if code == RESULT_ID and result is not None:
                self.result_id(result, op_index, last)
                continue
            extra = repetition(code)
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
            if i >= n or self.new_instruction(i):
                stop = ("eof", 0) if i >= n else ("start", i)
                if optional:
                    break
                found = "the end of the text" if i >= n else f"the next instruction '{shown(toks[i])}'"
                raise AssemblyError(f"expected {self.describe(code)} for {plan.opname}, found {found}", stop)
            tok = toks[i]
            if tok[:1] == "!":
                out.append(immediate(tok, i))
                stack[:] = alternate_stack(stack)
            elif code == ID or code == OPT_ID:
                out.append(self.ids.id_of(tok, i))
                self.declared.check_ext_set(out, start, opcode, tok, i)
            elif code == TYPE_ID:
                type_id = self.ids.id_of(tok, i)
                out.append(type_id)
            elif code >= ENUM_BASE:
                out.append(encode_enum(self.plans.program.enum(code), tok, i, stack))
            elif not self.literals.encode(code, tok, i, stack, opcode, type_id, start, optional):
                return i  # an optional literal that did not match: spirv-as stops here
            last = i
            i += 1
        self.finish(plan, start, stop or ("end", last))
        return i

    def finish(self, plan: OpcodePlan, start: int, where: Where) -> None:
        """Writes the opcode word of the instruction at `start` in the output and
        records what it declares; `where` is its end, for diagnostics."""
        out = self.out
        count = len(out) - start
        if count > MAX_WORD_COUNT:
            raise AssemblyError(f"{plan.opname} is {count} words long; the limit is {MAX_WORD_COUNT}", where)
        out[start] = (count << 16) | plan.opcode
        if plan.declares_type:
            self.declared.record_type(out[start:], where)
        elif plan.has_type and count > 2:
            self.declared.value_types.setdefault(out[start + 2], out[start + 1])

    def result_id(self, result: str, op_index: int, last: int) -> None:
        """Encodes the `%id =` of an assignment where the grammar puts it."""
        try:
            self.out.append(self.ids.id_of(result, op_index - 2))
        except AssemblyError as error:
            error.where = ("end", last)
            raise

    def id_list(self, i: int) -> int:
        """Encodes ids from word `i` up to the next instruction or a word that is not an
        id; returns the index of the first word not taken."""
        toks = self.toks
        n = self.n
        get = self.ids.numbers.get
        out = self.out
        while i < n:
            tok = toks[i]
            if tok[:1] != "%" or (i + 2 < n and toks[i + 1] == "=" and starts_op(toks[i + 2])):
                break
            number = get(tok)
            out.append(number if number is not None else self.ids.id_of(tok, i))
            i += 1
        return i

    def describe(self, code: int) -> str:
        """What an operand code expects, for messages."""
        if code >= ENUM_BASE:
            return f"a {self.plans.program.enum(code).kind.kind}"
        return CODE_NAMES.get(code, "an operand")


def alternate_stack(stack: list[int]) -> list[int]:
    """The operands still expected after a `!<integer>`: anything (literals or ids) up
    to the result id if it is still to come, then anything until the next instruction."""
    for depth, code in enumerate(reversed(stack)):
        if code == RESULT_ID:
            return [OPT_CIV, RESULT_ID] + [OPT_CIV] * depth
    return [OPT_CIV]
