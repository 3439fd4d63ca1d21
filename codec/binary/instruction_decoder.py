"""The decoding engine: one instruction at a time, following the grammar. Never raises.

For each instruction the decoder walks its operand program (`codec.program`: operand
codes with the grammar's operands they stand for), with repetitions, enumerant
parameters, an extended instruction's own operands and OpSpecConstantOp's embedded
opcode's spliced in as they are met, as the program states them. An instruction whose
operands do not fit the grammar is kept with its words as raw operands and a diagnostic.

Decoding is stateful across instructions, and the state is explicit: which ids are
already defined (and with which type), the numeric types that size literals, and the
extended-instruction imports. The eager decoder runs one `InstructionDecoder` over the
whole module; the lazy module seeds one per chunk with exactly the part of that state
the chunk reads (see `codec.binary.lazy`).
"""

from __future__ import annotations

from array import array

from spvinspect.codec.binary.decode_plans import STRING, WordPlan, trailing_string, words_fit
from spvinspect.codec.binary.fast_forms import EXTENDED, SWITCH, FastEntry, FastForms
from spvinspect.codec.binary.model import Instruction, NumberType, Operand
from spvinspect.codec.binary.tables import DecoderTables
from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.codec.grammar import OperandDesc, mask_bits
from spvinspect.codec.plural import counted
from spvinspect.codec.program import (
    ENUM_BASE, EXT_INST_NUM, ID, LIT_FLOAT, LIT_STR, OPT_ID, OPT_LIT_STR, OPT_TYPED_INT, RESULT_ID, SPEC_OP_NUM,
    TYPE_ID, TYPED_NUM, UNKNOWN_SET_OPERANDS, OpcodeProgram, is_optional, repetition,
)

_new = tuple.__new__

ID_CODES = frozenset({ID, TYPE_ID, RESULT_ID, OPT_ID})
"""The codes of one id (a repeated id is walked one repetition at a time)."""

UNKNOWN_SET_DESCS = (OperandDesc("IdRef", "*", "Operand"),)
"""The operands `UNKNOWN_SET_OPERANDS` stand for, as the decoded operands name them."""

RAW = "Raw"
"""The kind given to words that could not be decoded."""


def _after_nul(words: array, last: int) -> bytes:
    """The non-zero bytes after the first nul of a string's last word (b"" when the
    padding is all zero, as the specification requires): words that no string literal
    can give back, so the operand does not fit the grammar."""
    raw = words[last : last + 1].tobytes()
    return raw[raw.find(b"\0") :].strip(b"\0")


def _beyond_width(value: int, number_type: NumberType, num_words: int) -> bool:
    """True when a literal's words hold bits above its type's width that are not zero
    (sign bits, for a signed integer), as the specification requires: no number in the
    text gives such words back."""
    width = number_type.width
    spare = 32 * num_words - width
    if width <= 0 or spare <= 0:
        return False
    high = value >> width
    if number_type.signed and number_type.category == "int" and value >> (width - 1) & 1:
        return high != (1 << spare) - 1
    return high != 0


class OperandError(Exception):
    """An operand does not fit the grammar; caught per instruction, never escapes.

    `at` is the word the diagnostic points at when it is not the word being decoded
    (missing operands are reported at the instruction itself).
    """

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.at = at


def number_type_of(tables: DecoderTables, words: array, offset: int) -> NumberType | None:
    """The numeric type a valid OpTypeInt or OpTypeFloat at `offset` declares, else None."""
    first = words[offset]
    opcode, count = first & 0xFFFF, first >> 16
    if opcode == tables.opcodes.OpTypeInt and count >= 4:
        return NumberType("int", words[offset + 2], words[offset + 3] != 0)
    if opcode == tables.opcodes.OpTypeFloat and count >= 3:
        encoding = words[offset + 3] if count >= 4 else None
        return NumberType("float", words[offset + 2], True, encoding)
    return None


class InstructionDecoder:
    """Decodes instructions in module order, carrying the state later ones read.

    `value_types` maps every id defined so far to its type id (0 for ids without a
    type); `number_types` maps numeric type ids to their `NumberType`; `ext_imports`
    maps OpExtInstImport result ids to their import names. Diagnostics are appended to
    `diagnostics` in word order.
    """

    __slots__ = (
        "tables",
        "grammar",
        "program",
        "bound",
        "diagnostics",
        "value_types",
        "number_types",
        "ext_imports",
        "general",
    )

    def __init__(
        self,
        tables: DecoderTables,
        bound: int,
        value_types: dict[int, int] | None = None,
        number_types: dict[int, NumberType] | None = None,
        ext_imports: dict[int, str] | None = None,
    ) -> None:
        self.tables = tables
        self.grammar = tables.grammar
        self.program = tables.program
        self.bound = bound
        self.diagnostics: list[Diagnostic] = []
        self.value_types: dict[int, int] = {} if value_types is None else value_types
        self.number_types: dict[int, NumberType] = {} if number_types is None else number_types
        self.ext_imports: dict[int, str] = {} if ext_imports is None else ext_imports
        self.general: list[int] = []
        """Indexes, in the list the last `run` returned, of the instructions the general
        path decoded (the `Instruction`s, when the fast path's forms make something else)."""

    def run(self, words: array, offsets, forms: FastForms | None = None) -> list:
        """Decode the instructions at `offsets`, in order.

        An instruction whose fast-path plan vouches for every word (and whose result id
        is new) is made by the plan's form from `forms` (the decoded `Instruction` by
        default; a line of text for the disassembler), or is the form itself when that
        is a str, without walking the grammar; the others are decoded by the general
        path, into `Instruction`s.
        """
        self.general = general_indexes = []
        if not len(offsets):
            return []
        forms = forms or self.tables.instruction_forms
        known = forms.entries.get
        resolve = self._resolve
        bound = self.bound
        value_types = self.value_types
        general = self._general
        trailing = self._trailing
        # The run's words as a list: slicing it and reading its ints is cheaper than
        # boxing array elements again for every instruction.
        first = offsets[0]
        last = offsets[-1]
        run_words = words[first : last + (words[last] >> 16)].tolist()
        if forms.prepare is not None:
            forms.prepare(run_words, first, offsets)
        out: list = []
        append = out.append
        for offset in offsets:
            k = offset - first
            head = run_words[k]
            entry = known(head) or resolve(forms, head, run_words, k)
            if entry is not None:
                form, all_ids, start, result_index, type_index, plan = entry
                operand_words = run_words[k + 1 : k + (head >> 16)]
                if all_ids:
                    # Most instructions: every operand word an id, no trailing operand.
                    if 0 not in operand_words and max(operand_words) < bound:
                        if result_index < 0:
                            append(form if form.__class__ is str else form(operand_words, offset, None, None))
                            continue
                        result = operand_words[result_index]
                        if result not in value_types:
                            value_types[result] = operand_words[type_index] if type_index >= 0 else 0
                            append(form if form.__class__ is str else form(operand_words, offset, None, None))
                            continue
                elif words_fit(plan, operand_words, bound):
                    value = number_type = None
                    if start >= 0:
                        value = trailing(plan, operand_words, words, offset)
                        if type(value) is tuple:
                            value, number_type = value
                    if start < 0 or value is not None:
                        if result_index < 0:
                            append(form if form.__class__ is str else form(operand_words, offset, value, number_type))
                            continue
                        result = operand_words[result_index]
                        if result not in value_types:
                            value_types[result] = operand_words[type_index] if type_index >= 0 else 0
                            append(form if form.__class__ is str else form(operand_words, offset, value, number_type))
                            continue
            general_indexes.append(len(out))
            append(general(words, offset, head & 0xFFFF, head >> 16))
        return out

    def _resolve(self, forms: FastForms, head: int, run_words: list[int], k: int) -> FastEntry | None:
        """The fast path's entry for an instruction whose first word `forms` has not
        cached an entry for: a new first word, an extended instruction (whose plan
        depends on its import and number) or OpSwitch (on its selector's type)."""
        entry = forms.entry(head)
        if entry is EXTENDED:
            at = k + self.tables.ext_set_positions[head & 0xFFFF]
            name = self.ext_imports.get(run_words[at])
            return None if name is None else forms.extended(head, name, run_words[at + 1])
        if entry is SWITCH:
            case_type = self.number_types.get(self.value_types.get(run_words[k + 1], 0))
            return None if case_type is None else forms.switch(head, case_type)
        return entry

    def error(self, offset: int, message: str) -> None:
        """Record an error at a word offset."""
        self.diagnostics.append(Diagnostic(message, Severity.ERROR, word_offset=offset))

    # -- one instruction ---------------------------------------------------------

    def _trailing(
        self, plan: WordPlan, operand_words: list[int], words: array, offset: int
    ) -> str | tuple[int, NumberType] | None:
        """The value of the plan's trailing operand: a string, or a number with its type;
        None when it does not fit (then the general path decodes the instruction)."""
        start = plan.trailing
        if plan.entries[start].check == STRING:
            first = offset + 1 + start
            end = first + len(operand_words) - start
            return trailing_string(words, first, end)
        number_type = self.number_types.get(operand_words[plan.type_index])
        size = len(operand_words) - start
        if number_type is None or (number_type.width + 31) // 32 != size or size > 2:
            return None
        value = operand_words[start]
        if size == 2:
            value |= operand_words[start + 1] << 32
        # A number as wide as its words (the common case) has no bits beyond its width.
        if number_type.width != 32 * size and _beyond_width(value, number_type, size):
            return None
        return value, number_type

    def _general(self, words: array, offset: int, opcode: int, count: int) -> Instruction:
        """Decode one instruction by walking its operand program."""
        op = self.program.by_opcode.get(opcode)
        if op is None:
            self.error(offset, f"instruction at word {offset} has unknown opcode {opcode}")
            return _raw_instruction(words, offset, opcode, f"Op{opcode}", count)
        state = _InstructionState(words, offset, count, op)
        try:
            self._operands(state, list(zip(op.codes, op.operands)))
        except OperandError as fault:
            where = state.position if fault.at is None else fault.at
            self.error(where, f"instruction at word {offset} ({op.opname}) {fault}")
            return _raw_instruction(
                words, offset, opcode, op.opname, count, state.operands, state.position
            )
        inst = Instruction(
            offset,
            opcode,
            op.opname,
            count,
            state.type_id,
            state.result_id,
            tuple(state.operands),
            state.ext_set,
        )
        self._record(inst, words)
        return inst

    def _operands(self, state: _InstructionState, expected: list[tuple[int, OperandDesc]]) -> None:
        """Consume the instruction's words following `expected` (operand codes with the
        grammar's operands they stand for), which grows as repetitions, enumerant
        parameters and embedded operand lists are met."""
        end = state.end
        index = 0
        while index < len(expected):
            code, desc = expected[index]
            if state.position >= end:
                if not is_optional(code):
                    missing = ", ".join(f"'{d.name or d.kind}'" for c, d in expected[index:] if not is_optional(c))
                    raise OperandError(
                        f"has {end - state.offset - 1} operand word(s); the grammar needs "
                        f"more: missing {missing}",
                        at=state.offset,
                    )
                return
            if repetition(code) is not None:
                # One more repetition before the entry, which repeats while words remain.
                expected[index:index] = self.tables.repetition(code, desc)
                continue
            index += 1
            self._operand(state, code, desc, expected, index)
        if state.position < end:
            extra = end - state.position
            # No operand is left to hold these words, so none of the instruction's
            # words can be trusted to mean what the grammar says: keep them all raw.
            state.operands.clear()
            state.position = state.offset + 1
            raise OperandError(
                f"has {extra} word(s) past the operands the grammar allows "
                f"(word count {end - state.offset})",
                at=end - extra,
            )

    def _operand(
        self,
        state: _InstructionState,
        code: int,
        desc: OperandDesc,
        expected: list[tuple[int, OperandDesc]],
        insert_at: int,
    ) -> None:
        words = state.words
        position = state.position
        kind = desc.kind
        word = words[position]
        add = state.operands.append
        if code in ID_CODES:
            if word == 0:
                raise OperandError(f"has id 0 as operand '{desc.name or kind}'")
            if word >= self.bound:
                self.error(
                    position,
                    f"id {word} at word {position} is not below the module's bound {self.bound}",
                )
            if code == RESULT_ID:
                if word in self.value_types:
                    raise OperandError(f"defines id {word}, which is already defined")
                state.result_id = word
            elif code == TYPE_ID:
                state.type_id = word
            elif position - state.offset == self.tables.ext_set_positions[state.op.opcode]:
                name = self.ext_imports.get(word)
                if name is None:
                    raise OperandError(f"names set id {word}, which is not an OpExtInstImport")
                state.ext_set = name
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            return
        if code >= ENUM_BASE:
            enum = self.program.enum(code)
            ko = enum.kind
            if not enum.is_mask:
                enumerant = ko.by_value.get(word)
                if enumerant is None:
                    raise OperandError(f"has {word} as operand '{desc.name or kind}', which is not a known {kind}")
                add(Operand(kind, desc.name, word, position, 1))
                state.position = position + 1
                if enumerant.parameters:
                    expected[insert_at:insert_at] = zip(enum.parameters[word], enumerant.parameters)
                return
            params: list[tuple[int, OperandDesc]] = []
            for bit in mask_bits(word):
                enumerant = ko.by_value.get(bit)
                if enumerant is None:
                    raise OperandError(
                        f"has {kind} mask 0x{word:x}, whose bit 0x{bit:x} is not a known {kind}"
                    )
                if enumerant.parameters:
                    params.extend(zip(enum.parameters[bit], enumerant.parameters))
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            if params:
                expected[insert_at:insert_at] = params
            return
        if code == LIT_STR or code == OPT_LIT_STR:
            self._string(state, desc)
            return
        if code == TYPED_NUM or code == OPT_TYPED_INT:
            self._typed_number(state, desc, code == OPT_TYPED_INT)
            return
        if code == EXT_INST_NUM:
            ext = self.grammar.ext_inst_set(state.ext_set)
            if ext is not None:
                inst = self.program.ext_instructions(ext).by_number.get(word)
                if inst is None:
                    raise OperandError(f"has {word}, which is not an instruction of {state.ext_set}")
                add(Operand(kind, desc.name, word, position, 1))
                state.position = position + 1
                expected[insert_at:] = zip(inst.codes, inst.operands)
                return
            if not state.ext_set.startswith("NonSemantic."):
                raise OperandError(f"uses extended instruction set '{state.ext_set}', which is unknown")
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            expected[insert_at:] = zip(UNKNOWN_SET_OPERANDS, UNKNOWN_SET_DESCS)
            return
        if code == SPEC_OP_NUM:
            embedded = self.program.embedded_operands(word)
            if embedded is None:
                raise OperandError(f"has {word}, which is not an opcode OpSpecConstantOp can take")
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            expected[insert_at:] = zip(*embedded)
            return
        if code == LIT_FLOAT:
            add(Operand(kind, desc.name, word, position, 1, NumberType("float", 32)))
            state.position = position + 1
            return
        add(Operand(kind, desc.name, word, position, 1))
        state.position = position + 1

    def _string(self, state: _InstructionState, desc: OperandDesc) -> None:
        words = state.words
        position = state.position
        raw = words[position : state.end].tobytes()
        nul = raw.find(b"\0")
        if nul < 0:
            raise OperandError(
                f"has string operand '{desc.name or 'LiteralString'}' at word {position} "
                "with no terminating nul within the instruction"
            )
        text = raw[:nul].decode("utf-8", "surrogateescape")
        if (
            state.op.opcode == self.tables.opcodes.OpExtInstImport
            and self.grammar.ext_inst_set(text) is None
            and not text.startswith("NonSemantic.")
        ):
            raise OperandError(f"imports extended instruction set {text!r}, which is unknown")
        num_words = nul // 4 + 1
        last = position + num_words - 1
        if _after_nul(words, last):
            raise OperandError(
                f"has string operand '{desc.name or 'LiteralString'}' with non-zero bytes after "
                f"its terminating nul, in word {last}",
                at=last,
            )
        state.operands.append(Operand("LiteralString", desc.name, text, position, num_words))
        state.position = position + num_words

    def _typed_number(self, state: _InstructionState, desc: OperandDesc, selector_width: bool) -> None:
        """A number as wide as the result type says, or (`selector_width`: OpSwitch's case
        literals) as the selector's type says."""
        if selector_width:
            selector = state.words[state.offset + 1]
            type_id = self.value_types.get(selector)
            if not type_id:
                raise OperandError(f"has selector id {selector}, which has no type")
            number_type = self.number_types.get(type_id)
            if number_type is None or number_type.category != "int":
                raise OperandError(f"has selector id {selector}, which is not a scalar integer")
        else:
            number_type = self.number_types.get(state.type_id)
            if number_type is None:
                raise OperandError(
                    f"has result type id {state.type_id}, which is not a scalar numeric type"
                )
        if number_type.width <= 0:
            raise OperandError(f"has a literal of a {number_type.width}-bit type, which holds no value")
        num_words = (number_type.width + 31) // 32
        position = state.position
        if position + num_words > state.end:
            raise OperandError(
                f"needs {counted(num_words, 'word')} for a {number_type.width}-bit literal, "
                f"{state.end - position} remain"
            )
        words = state.words
        value = words[position]
        if num_words == 2:
            value |= words[position + 1] << 32
        elif num_words > 2:
            raise OperandError(f"has a {number_type.width}-bit literal, wider than 64 bits")
        if _beyond_width(value, number_type, num_words):
            raise OperandError(
                f"has a {number_type.width}-bit literal 0x{value:x} whose bits above bit "
                f"{number_type.width - 1} are not {'its sign' if number_type.category == 'int' and number_type.signed else 'zero'}",
                at=position + num_words - 1,
            )
        state.operands.append(
            Operand(desc.kind, desc.name, value, position, num_words, number_type)
        )
        state.position = position + num_words

    def _record(self, inst: Instruction, words: array) -> None:
        """Remember what later instructions need: numeric types, value types, imports."""
        result = inst.result_id
        if not result:
            return
        self.value_types[result] = inst.type_id
        opcode = inst.opcode
        if opcode == self.tables.opcodes.OpTypeInt or opcode == self.tables.opcodes.OpTypeFloat:
            number_type = number_type_of(self.tables, words, inst.offset)
            if number_type is not None:
                self.number_types[result] = number_type
        elif opcode == self.tables.opcodes.OpExtInstImport:
            name = inst.operands[1].value if len(inst.operands) > 1 else ""
            self.ext_imports[result] = str(name)


class _InstructionState:
    """Mutable state while one instruction's operands are consumed."""

    __slots__ = (
        "words",
        "offset",
        "end",
        "op",
        "position",
        "operands",
        "type_id",
        "result_id",
        "ext_set",
    )

    def __init__(self, words: array, offset: int, count: int, op: OpcodeProgram) -> None:
        self.words = words
        self.offset = offset
        self.end = offset + count
        self.op = op
        self.position = offset + 1
        self.operands: list[Operand] = []
        self.type_id = 0
        self.result_id = 0
        self.ext_set = ""


def _raw_instruction(
    words: array,
    offset: int,
    opcode: int,
    opname: str,
    count: int,
    decoded: list[Operand] | None = None,
    fault: int | None = None,
) -> Instruction:
    """An instruction that does not fit the grammar: the operands decoded before the
    fault, then every remaining word as a raw operand."""
    operands = list(decoded or ())
    start = fault if fault is not None else offset + 1
    operands.extend(Operand(RAW, "", words[p], p, 1) for p in range(start, offset + count))
    return Instruction(offset, opcode, opname, count, 0, 0, tuple(operands), "", False)
