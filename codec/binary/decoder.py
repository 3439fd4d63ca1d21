"""Grammar-driven SPIR-V decoder: bytes in, a `Module` and diagnostics out. Never raises.

Layers: `words.py` turns bytes into words (endianness, trailing bytes); this module
walks the instructions, and for each one follows the grammar's operand list, with
enumerant parameters, extended-instruction grammars and OpSpecConstantOp's embedded
opcode spliced in as they are met. An instruction whose operands do not fit the
grammar is kept with its words as raw operands and a diagnostic; decoding goes on at
the next instruction. Only a word count of 0 or one running past the end stops it.
"""

from __future__ import annotations

import gc
from array import array

from codec.diagnostics import Diagnostic, Severity
from codec.binary.decode_plans import decode_simple, simple_plans
from codec.grammar import Grammar, InstructionDesc, OperandDesc, OperandKind, load_grammar, mask_bits
from codec.binary.model import HEADER_WORDS, Header, Instruction, Module, NumberType, Operand
from codec.binary.words import words_from_bytes

OP_EXT_INST_IMPORT = 11
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_SWITCH = 251

_new = tuple.__new__

RAW = "Raw"
"""The kind given to words that could not be decoded."""


class OperandError(Exception):
    """An operand does not fit the grammar; caught per instruction, never escapes.

    `at` is the word the diagnostic points at when it is not the word being decoded
    (missing operands are reported at the instruction itself).
    """

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.at = at


def decode(data: bytes, grammar: Grammar | None = None) -> Module:
    """Decode a SPIR-V binary. The module's `diagnostics` say what went wrong, and where.

    The cyclic garbage collector is paused meanwhile: decoding allocates a tuple per
    operand and instruction, none of which can form a cycle, and the collector's
    repeated passes over them would nearly double the time on a large module.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Decoder(grammar or load_grammar()).decode(data)
    finally:
        if collecting:
            gc.enable()


class _Decoder:
    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.kinds = grammar.operand_kinds
        self.instructions = grammar.instructions
        self.number_types: dict[int, NumberType] = {}
        self.value_types: dict[int, int] = {}
        """The type id of every id defined so far (0 for ids without a type)."""
        self.ext_imports: dict[int, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.bound = 0
        self.ext_inst_opcodes = frozenset(
            desc.opcode
            for desc in grammar.instructions.values()
            if any(o.kind == "LiteralExtInstInteger" for o in desc.operands)
        )
        # Instructions that `_record` must see, or whose literals depend on context,
        # always take the general path.
        self.plans = simple_plans(grammar, frozenset({OP_SWITCH, OP_TYPE_INT, OP_TYPE_FLOAT}))

    def decode(self, data: bytes) -> Module:
        words, trailing, big_endian, problems = words_from_bytes(data)
        self.diagnostics.extend(problems)
        n = len(words)
        if n < HEADER_WORDS:
            self.diagnostics.append(
                Diagnostic(
                    f"module has an incomplete header: {n} words, a header needs {HEADER_WORDS}",
                    word_offset=n,
                )
            )
            return self._module(words, None, [], 0, trailing)
        header = Header(words[0], words[1], words[2], words[3], words[4], big_endian)
        self.bound = header.bound
        if header.magic != 0x07230203:
            self.diagnostics.append(
                Diagnostic(f"invalid SPIR-V magic number 0x{header.magic:08x}", word_offset=0)
            )
            return self._module(words, header, [], HEADER_WORDS, trailing)
        instructions: list[Instruction] = []
        append = instructions.append
        offset = HEADER_WORDS
        while offset < n:
            first = words[offset]
            count = first >> 16
            if count == 0:
                self._error(
                    offset,
                    f"instruction at word {offset} has word count 0 (opcode {first & 0xFFFF}); "
                    "decoding stops here",
                )
                break
            end = offset + count
            if end > n:
                self._error(
                    offset,
                    f"instruction at word {offset} claims {count} words but the binary "
                    f"ends at word {n}; decoding stops here",
                )
                break
            append(self.instruction(words, offset, first & 0xFFFF, count))
            offset = end
        return self._module(words, header, instructions, offset, trailing)

    def _module(self, words, header, instructions, tail, trailing) -> Module:
        return Module(
            words, header, instructions, self.diagnostics, tail, trailing, self.ext_imports
        )

    def _error(self, offset: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(message, Severity.ERROR, word_offset=offset))

    # -- one instruction ---------------------------------------------------------

    def instruction(self, words: array, offset: int, opcode: int, count: int) -> Instruction:
        plan = self.plans.get(opcode)
        if plan is not None:
            operands = decode_simple(plan, words, offset, count, self.bound)
            if operands is not None:
                type_id = operands[plan.type_index].value if plan.type_index >= 0 else 0
                result_id = operands[plan.result_index].value if plan.result_index >= 0 else 0
                if result_id:
                    if result_id in self.value_types:
                        return self._general(words, offset, opcode, count)
                    self.value_types[result_id] = type_id
                return _new(
                    Instruction,
                    (offset, opcode, self.instructions[opcode].opname, count, type_id,
                     result_id, operands, "", True),
                )
        return self._general(words, offset, opcode, count)

    def _general(self, words: array, offset: int, opcode: int, count: int) -> Instruction:
        """Decode one instruction by walking the grammar's operand list."""
        desc = self.instructions.get(opcode)
        if desc is None:
            self._error(offset, f"instruction at word {offset} has unknown opcode {opcode}")
            return _raw_instruction(words, offset, opcode, f"Op{opcode}", count)
        state = _InstructionState(words, offset, count, desc)
        try:
            self._operands(state, list(desc.operands))
        except OperandError as fault:
            where = state.position if fault.at is None else fault.at
            self._error(where, f"instruction at word {offset} ({desc.opname}) {fault}")
            return _raw_instruction(
                words, offset, opcode, desc.opname, count, state.operands, state.position
            )
        inst = Instruction(
            offset,
            opcode,
            desc.opname,
            count,
            state.type_id,
            state.result_id,
            tuple(state.operands),
            state.ext_set,
        )
        self._record(inst, words)
        return inst

    def _operands(
        self,
        state: _InstructionState,
        expected: list[OperandDesc],
    ) -> None:
        """Consume the instruction's words following `expected`, which grows as enumerant
        parameters and embedded operand lists are met."""
        end = state.end
        index = 0
        while index < len(expected):
            desc = expected[index]
            if state.position >= end:
                if desc.quantifier is None:
                    missing = ", ".join(f"'{d.name or d.kind}'" for d in expected[index:] if d.quantifier is None)
                    raise OperandError(
                        f"has {end - state.offset - 1} operand word(s); the grammar needs "
                        f"more: missing {missing}",
                        at=state.offset,
                    )
                return
            if desc.quantifier == "*":
                # One more occurrence before the entry, which repeats while words remain.
                expected.insert(index, OperandDesc(desc.kind, None, desc.name))
                continue
            index += 1
            self._operand(state, desc, expected, index)
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
        desc: OperandDesc,
        expected: list[OperandDesc],
        insert_at: int,
    ) -> None:
        words = state.words
        position = state.position
        kind = desc.kind
        word = words[position]
        add = state.operands.append
        if kind.startswith("Id"):
            if word == 0:
                raise OperandError(f"has id 0 as operand '{desc.name or kind}'")
            if word >= self.bound:
                self._error(
                    position,
                    f"id {word} at word {position} is not below the module's bound {self.bound}",
                )
            if kind == "IdResult":
                if word in self.value_types:
                    raise OperandError(f"defines id {word}, which is already defined")
                state.result_id = word
            elif kind == "IdResultType":
                state.type_id = word
            elif state.desc.opcode in self.ext_inst_opcodes and position == state.offset + 3:
                name = self.ext_imports.get(word)
                if name is None:
                    raise OperandError(f"names set id {word}, which is not an OpExtInstImport")
                state.ext_set = name
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            return
        ko = state.ext_kinds.get(kind) or self.kinds.get(kind)
        if ko is None:
            raise OperandError(f"has operand kind '{kind}', unknown to the grammar")
        category = ko.category
        if category == "ValueEnum":
            enumerant = ko.by_value.get(word)
            if enumerant is None:
                raise OperandError(f"has {word} as operand '{desc.name or kind}', which is not a known {kind}")
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            if enumerant.parameters:
                expected[insert_at:insert_at] = enumerant.parameters
            return
        if category == "BitEnum":
            params: list[OperandDesc] = []
            for bit in mask_bits(word):
                enumerant = ko.by_value.get(bit)
                if enumerant is None:
                    raise OperandError(
                        f"has {kind} mask 0x{word:x}, whose bit 0x{bit:x} is not a known {kind}"
                    )
                params.extend(enumerant.parameters)
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            if params:
                expected[insert_at:insert_at] = params
            return
        if category == "Composite":
            bases = ko.bases
            if kind == "PairIdRefIdRef":
                # SPIRV-Tools reads OpPhi's pairs as a plain list of ids, odd counts too.
                bases = bases[:1]
            expected[insert_at:insert_at] = [OperandDesc(base, None, desc.name) for base in bases]
            return
        if kind == "LiteralString":
            self._string(state, desc)
            return
        if kind == "LiteralContextDependentNumber" or (
            kind == "LiteralInteger" and state.desc.opcode == OP_SWITCH
        ):
            self._typed_number(state, desc)
            return
        if kind == "LiteralExtInstInteger":
            ext = self.grammar.ext_inst_set(state.ext_set)
            if ext is not None:
                ext_desc = ext.instructions.get(word)
                if ext_desc is None:
                    raise OperandError(f"has {word}, which is not an instruction of {state.ext_set}")
                add(Operand(kind, desc.name, word, position, 1))
                state.position = position + 1
                expected[insert_at:] = ext_desc.operands
                state.ext_kinds = ext.operand_kinds
                return
            if not state.ext_set.startswith("NonSemantic."):
                raise OperandError(f"uses extended instruction set '{state.ext_set}', which is unknown")
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            expected[insert_at:] = [OperandDesc("IdRef", "*", "Operand")]
            return
        if kind == "LiteralSpecConstantOpInteger":
            inner = self.instructions.get(word)
            if inner is None or not inner.has_result_type:
                raise OperandError(f"has {word}, which is not an opcode OpSpecConstantOp can take")
            add(Operand(kind, desc.name, word, position, 1))
            state.position = position + 1
            expected[insert_at:] = inner.operands[2:]
            return
        if kind == "LiteralFloat":
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
            state.desc.opcode == OP_EXT_INST_IMPORT
            and self.grammar.ext_inst_set(text) is None
            and not text.startswith("NonSemantic.")
        ):
            raise OperandError(f"imports extended instruction set {text!r}, which is unknown")
        num_words = nul // 4 + 1
        state.operands.append(Operand("LiteralString", desc.name, text, position, num_words))
        state.position = position + num_words

    def _typed_number(self, state: _InstructionState, desc: OperandDesc) -> None:
        if state.desc.opcode == OP_SWITCH:
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
        num_words = (number_type.width + 31) // 32
        position = state.position
        if position + num_words > state.end:
            raise OperandError(
                f"needs {num_words} words for a {number_type.width}-bit literal, "
                f"{state.end - position} remain"
            )
        words = state.words
        value = words[position]
        if num_words == 2:
            value |= words[position + 1] << 32
        elif num_words > 2:
            raise OperandError(f"has a {number_type.width}-bit literal, wider than 64 bits")
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
        if opcode == OP_TYPE_INT and inst.word_count >= 4:
            self.number_types[result] = NumberType(
                "int", words[inst.offset + 2], words[inst.offset + 3] != 0
            )
        elif opcode == OP_TYPE_FLOAT and inst.word_count >= 3:
            encoding = words[inst.offset + 3] if inst.word_count >= 4 else None
            self.number_types[result] = NumberType("float", words[inst.offset + 2], True, encoding)
        elif opcode == OP_EXT_INST_IMPORT:
            name = inst.operands[1].value if len(inst.operands) > 1 else ""
            self.ext_imports[result] = str(name)


class _InstructionState:
    """Mutable state while one instruction's operands are consumed."""

    __slots__ = (
        "words",
        "offset",
        "end",
        "desc",
        "position",
        "operands",
        "type_id",
        "result_id",
        "ext_set",
        "ext_kinds",
    )

    def __init__(self, words: array, offset: int, count: int, desc: InstructionDesc) -> None:
        self.words = words
        self.offset = offset
        self.end = offset + count
        self.desc = desc
        self.position = offset + 1
        self.operands: list[Operand] = []
        self.type_id = 0
        self.result_id = 0
        self.ext_set = ""
        self.ext_kinds: dict[str, OperandKind] = {}


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
