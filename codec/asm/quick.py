"""The assembler's quick paths: the same run as `codec.asm.encoder.Encoder`, with the
instructions that make up most modules encoded without the operand-by-operand engine.

A module is mostly instructions of a few shapes (`codec.asm.plans.QuickShape`): ids,
plain literals and enumerants without parameters. Written plainly, as disassemblers
print them, these are encoded here several times faster. Whatever is not plain (a
`!<integer>`, a missing operand, an escape in a string, an enumerant with parameters)
goes to the engine, which gives the same words and the exact diagnostics; the tests
hold the two to the same output on edited modules.
"""

from __future__ import annotations

import re

from codec.asm import literals as lit
from codec.asm.encoder import ID_NAME, INT, MAX_WORD_COUNT, OTHER, Encoder, encode_typed
from codec.asm.plans import (
    ENUM_BASE, EXT_INST_NUM, ID, LIT_INT, LIT_STR, TAIL_CASES, TAIL_IDS, TYPE_ID, TYPED_NUM,
    QuickShape,
)

_PLAIN_STRING = re.compile(r'"[^"\\]{0,16000}"\Z')
"""A quoted string without escapes, short enough to need no length check."""
_PLAIN_UINT = re.compile(r"(?:0|[1-9][0-9]*)\Z")
"""A decimal integer without sign or leading zeros (which would make it octal)."""


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
        get = self.ids.get
        value_types = self.value_types
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
                numbers = [self.number_of(word) for word in words]
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
        get = self.ids.get
        words: list[int] = []
        if result is not None and not has_type:
            number = self.number_of(result)
            if number is None:
                return -1
            words.append(number)
        ext_ids = None  # how many ids an extended instruction takes after its name
        for code, tok in zip(codes, self.toks[k : k + length]):
            if code <= TYPE_ID:
                number = get(tok)
                if number is None:
                    number = self.number_of(tok)
                    if number is None:
                        return -1
                words.append(number)
                if code == TYPE_ID and result is not None:
                    number = self.number_of(result)
                    if number is None:
                        return -1
                    words.append(number)
            elif code == LIT_STR:
                if not _PLAIN_STRING.match(tok):
                    return -1
                words += lit.string_words(tok[1:-1])
            elif code == LIT_INT:
                if not _PLAIN_UINT.match(tok):
                    return -1
                value = int(tok)
                if value > 0xFFFFFFFF:
                    return -1
                words.append(value)
            elif code == EXT_INST_NUM:
                ext = self.imports.get(words[-1])
                found = None if ext is None else self.plans.ext_instructions(ext).get(tok)
                if found is None or found[1] != (ID,) * len(found[1]):
                    return -1
                words.append(found[0])
                ext_ids = len(found[1])
            elif code == TYPED_NUM:
                info = self.types.get(words[0])
                if info is None or info[0] == OTHER:
                    return -1
                encoded = encode_typed(tok, info)[0]
                if encoded is None:
                    return -1
                words += encoded
            else:
                enum = self.enum_kinds[(code - ENUM_BASE) >> 1]
                by_name = enum.kind.by_name
                if enum.is_mask:
                    value = 0
                    for part in tok.split("|"):
                        e = by_name.get(part)
                        if e is None:
                            return -1
                        value |= e.value
                    if value & enum.parameter_bits:
                        return -1
                else:
                    e = by_name.get(tok)
                    if e is None or e.value in enum.parameters:
                        return -1
                    value = e.value
                words.append(value)
        if tail:
            rest = self.toks[k + length : j]
            if tail == TAIL_CASES:  # (literal, label) pairs, the literal as wide as the selector
                info = self.types.get(self.value_types.get(words[0], -1))
                if info is None or info[0] != INT:
                    return -1
                for literal, label in zip(rest[::2], rest[1::2]):
                    encoded = lit.encode_integer(literal, info[1], info[2])[0]
                    number = None if encoded is None else self.number_of(label)
                    if number is None:
                        return -1
                    words += encoded
                    words.append(number)
            else:
                if ext_ids is not None and len(rest) != ext_ids:
                    return -1
                for tok in rest:
                    number = self.number_of(tok)
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
            self.value_types.setdefault(words[1], words[0])
        return j

    def number_of(self, tok: str) -> int | None:
        """The number of id word `tok`, numbering it on first sight; None when it is
        not a valid id."""
        number = self.ids.get(tok)
        if number is None and ID_NAME.match(tok):
            number = self.assign(tok)
        return number
