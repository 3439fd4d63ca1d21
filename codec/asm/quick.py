"""The assembler's quick paths: the same run as `codec.asm.encoder.Encoder`, with the
instructions that make up most modules encoded without the operand-by-operand engine.

A module is mostly instructions of a few shapes (`codec.asm.plans.QuickShape`, read
off the operand program): ids, plain literals and enumerants without parameters.
Written plainly, as disassemblers print them, these are encoded here several times
faster, by the exact engine's own encoders for each operand code. Whatever is not
plain (a `!<integer>`, a missing operand, an escape in a string, an enumerant with
parameters) goes to the engine, which gives the same words and the exact
diagnostics; the tests hold the two to the same output on edited modules.
"""

from __future__ import annotations

from spvinspect.codec.asm import literals as lit
from spvinspect.codec.asm.encoder import Encoder
from spvinspect.codec.asm.enums import plain_enum_value
from spvinspect.codec.asm.literal_operands import MAX_WORD_COUNT, encode_typed, plain_string_words
from spvinspect.codec.asm.plans import TAIL_CASES, TAIL_IDS, Plans, QuickShape
from spvinspect.codec.program import ENUM_BASE, EXT_INST_NUM, LIT_INT, LIT_STR, TYPE_ID, TYPED_NUM


def plain_literal(plans: Plans, code: int, tok: str) -> list[int] | None:
    """The words of a plain string, a 32-bit integer literal or an enumerant without
    parameters (operand `code`), or None when `tok` is not that plainly written."""
    if code == LIT_STR:
        return plain_string_words(tok)
    if code == LIT_INT:
        return lit.encode_integer(tok, 32, False)[0]
    value = plain_enum_value(plans.enums[(code - ENUM_BASE) >> 1], tok)
    return None if value is None else [value]


class QuickEncoder(Encoder):
    """An assembly run that takes the quick paths wherever the words allow."""

    def run(self) -> None:
        """Assembles every instruction; raises AssemblyError at the first error.

        Most instructions have a quick shape (`codec.asm.plans.QuickShape`): this loop
        encodes those of ids only itself and those with literals or enumerants through
        `simple`, when they are plainly written. Everything else, and anything either
        is unsure of, goes to `encode_at`, which follows spirv-as operand by operand
        and gives the exact diagnostics; the quick paths never produce a diagnostic."""
        toks = self.toks
        n = self.n
        out = self.out
        get = self.ids.numbers.get
        number_of = self.ids.number_of
        value_types = self.declared.value_types
        inst_words = self.inst_words
        inst_first = self.inst_first
        quick_result, quick_plain = self.plans.quick(self.version)
        slow = self.encode_at
        i = 0
        while i < n:
            tok = toks[i]
            if toks[i + 1] == "=":
                shape = quick_result.get(toks[i + 2])
                result = tok
                k = i + 3
            else:
                shape = quick_plain.get(tok)
                result = None
                k = i + 1
            if shape is None:
                i = slow(i)
                continue
            opcode, j, has_type, tail, codes = shape
            if codes is not None:
                j = self.simple(i, k, result, shape)
                i = j if j >= 0 else slow(i)
                continue
            j += k
            if j > n:
                i = slow(i)
                continue
            if tail:
                j = self.tail_end(j, tail)
                if j < 0:
                    i = slow(i)
                    continue
            elif toks[j] == "=":  # the last id is the next instruction's result
                i = slow(i)
                continue
            words = toks[k:j]
            if result is not None:
                words.insert(has_type, result)  # spirv-as's order: type, result, the rest
            numbers = list(map(get, words))
            if None in numbers:  # ids seen for the first time, numbered as `simple` does
                numbers = [number_of(word) for word in words]
                if None in numbers:
                    i = slow(i)
                    continue
            count = len(numbers) + 1
            if count > MAX_WORD_COUNT:
                i = slow(i)
                continue
            if has_type:
                value_types.setdefault(numbers[1], numbers[0])
            inst_words.append(len(out))
            inst_first.append(i)
            out.append((count << 16) | opcode)
            out.extend(numbers)
            i = j

    def encode_one(self, i: int) -> int:
        """Assembles the one instruction at word `i` as `run` would, but that id-only
        shapes go straight to `encode_at` (which encodes them the same); returns the
        next word index."""
        toks = self.toks
        if toks[i + 1] == "=":
            shape = self.plans.quick(self.version)[0].get(toks[i + 2])
            result = toks[i]
            k = i + 3
        else:
            shape = self.plans.quick(self.version)[1].get(toks[i])
            result = None
            k = i + 1
        if shape is not None and shape.codes is not None:
            j = self.simple(i, k, result, shape)
            if j >= 0:
                return j
        return self.encode_at(i)

    def tail_end(self, j: int, tail: int) -> int:
        """Where an instruction of a quick shape ends, its fixed run ending before word
        `j`: past the list of ids (TAIL_IDS) or at `j` (TAIL_OPTIONAL), if the next
        instruction or the end of the text follows; otherwise -1."""
        toks = self.toks
        n = self.n
        if tail == TAIL_IDS:
            while toks[j][:1] == "%" and toks[j + 1] != "=":
                j += 1
        elif tail == TAIL_CASES:
            while j < n and not self.new_instruction(j):
                j += 2
            if j > n:
                return -1
        if j < n:
            nxt = toks[j]
            if nxt not in self.available and not (
                toks[j + 1] == "=" and nxt[:1] == "%" and toks[j + 2] in self.available
            ) and not self.new_instruction(j):
                return -1
        return j

    def simple(self, i: int, k: int, result: str | None, shape: QuickShape) -> int:
        """The quick path for an instruction of ids, plain literals and enumerants
        without parameters (`QuickShape.codes`), written plainly; its operands start at
        word `k`. Encodes it and returns the next word index, or returns -1 when the
        words are not the plain case, for `encode_at` to take them from the start.

        Ids are numbered as they come, in spirv-as's order (result type, result, the
        rest), so when this path gives up it has numbered exactly the ids that
        `encode_at` numbers, the same way, before it reaches the same word."""
        opcode, length, has_type, tail, codes = shape
        j = k + length
        if j > self.n:
            return -1
        j = self.tail_end(j, tail) if tail else j
        if j < 0 or self.toks[j] == "=":
            return -1
        get = self.ids.numbers.get
        number_of = self.ids.number_of
        words: list[int] = []
        if result is not None and not has_type:
            number = number_of(result)
            if number is None:
                return -1
            words.append(number)
        declared = self.declared
        ext_ids = -1  # how many ids an extended instruction takes after its name
        for code, tok in zip(codes, self.toks[k : k + length]):
            if code <= TYPE_ID:
                number = get(tok)
                if number is None:
                    number = number_of(tok)
                    if number is None:
                        return -1
                words.append(number)
                if code == TYPE_ID and result is not None:
                    number = number_of(result)
                    if number is None:
                        return -1
                    words.append(number)
                continue
            if code == TYPED_NUM:
                info = declared.constant_type(words[0])
                encoded = None if info is None else encode_typed(tok, info)[0]
            elif code == EXT_INST_NUM:
                ext = declared.imports.get(words[-1])
                found = None if ext is None else self.plans.ext_instructions(ext).get(tok)
                if found is None or found.ids < 0:
                    return -1
                encoded = [found.number]
                ext_ids = found.ids
            else:
                encoded = plain_literal(self.plans, code, tok)
            if encoded is None:
                return -1
            words += encoded
        if tail:
            rest = self.toks[k + length : j]
            if tail == TAIL_CASES:  # (literal, label) pairs, the literal as wide as the selector
                info = declared.selector_type(words[0])
                if info is None:
                    return -1
                for literal, label in zip(rest[::2], rest[1::2]):
                    encoded = encode_typed(literal, info)[0]
                    number = None if encoded is None else number_of(label)
                    if number is None:
                        return -1
                    words += encoded
                    words.append(number)
            else:
                if ext_ids >= 0 and len(rest) != ext_ids:
                    return -1
                for tok in rest:
                    number = number_of(tok)
                    if number is None:
                        return -1
                    words.append(number)
        if len(words) >= MAX_WORD_COUNT:
            return -1
        out = self.out
        self.inst_words.append(len(out))
        self.inst_first.append(i)
        out.append(((len(words) + 1) << 16) | opcode)
        out.extend(words)
        if has_type:
            declared.value_types.setdefault(words[1], words[0])
        return j
