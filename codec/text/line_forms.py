"""Disassembly lines straight from words, for the instructions the decoder's fast path takes.

Making every line of a large module through decoded operands and segments is slow in
Python. Most instructions, though, are ones the decoder's fast
path vouches for word by word (`codec.binary.decode_plans.WordPlan`), and for those a
*line form* is compiled once per plan. The decoder runs the forms in its fast path
(`InstructionDecoder.run`), so checking the words stays the decoder's.

A form returns a *piece*: a `%`-format template of the instruction's line, newline
included, with one field for each of the instruction's words, which reads it from
`LineForms.texts`, made when the run starts: each word itself, or a named id's name, so
that an id field (`%%%s`) spells an unnamed id's number only when a line shows it. A line
shows its result id first (before its type): the field of the instruction's first word
shows it, its text put there when the run starts (the grammar says where each opcode's
result id is), and the id's own field is skipped (`%.0s`). Words that are no ids
(enumerants, literals, a string, a typed number) are spelled by the form in their
places, following `OperandFormatter`'s rules. A line the fast path did not make is made
whole and put in the place of the instruction's first word; its piece shows just that.
The pieces of a run are then formatted together, in one call, or one by one when each
line is wanted on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spvinspect.codec.binary.decode_plans import CASE, ENUM, EXT_NUMBER, LITERAL, MASK, STRING, WordPlan
from spvinspect.codec.binary.fast_forms import Form
from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.grammar import OperandKind
from spvinspect.codec.text.listing import INDENT, Listing, enum_text, quote_string
from spvinspect.codec.text.number_format import format_number

SKIP = "%.0s"
"""The field of a word a piece does not show."""
ID_FIELD = "%%%s"
"""The field of an id: its text is the id's name, or the id itself (a number)."""
_SPELL_ID = ID_FIELD.__mod__
_PAST_END = ("",) * 4
"""Put after a run's texts while result ids are looked up, so that an instruction too
short to hold the result id its opcode has (the general path's) reads no further."""


class LineForms:
    """Compiles the line forms of one listing (its names and layout) and holds the texts
    of the run being decoded."""

    def __init__(self, listing: Listing, result_positions: bytes | bytearray) -> None:
        self.listing = listing
        self.formatter = listing.formatter
        self._names = listing.names.table()
        """The named ids' names (empty when every id is shown as its number): the table
        the names are kept in, not a text of every id (which weighs tens of MB on a
        large module, made again for each whole pass)."""
        self._result_positions = result_positions
        """Where each opcode's result id is, in words from its first word (0: none)."""
        self.texts: list = []
        """What the pieces of the current run read for each of its words: the word, or
        the name of a named id; at an instruction's first word, the text of its result
        id; the text of an operand that is no id, or a whole line, where a form or
        `place` put it."""
        self.first = 0
        """The word offset of the current run's first word."""
        self._whole: dict[int, str] = {}
        self._spellings: dict[tuple[str, str], EnumTexts] = {}

    def prepare(self, run_words: list[int], first: int, offsets: Sequence[int]) -> None:
        """Make the texts of a run of words from offset `first`, holding instructions at
        `offsets`: the words, named ids by their names, and each instruction's result id
        text in the place of its first word."""
        names = self._names
        texts = list(map(names.get, run_words, run_words)) if names else run_words[:]
        end = len(texts)
        texts += _PAST_END
        positions = self._result_positions
        for offset in offsets:
            k = offset - first
            at = positions[run_words[k] & 0xFFFF]
            if at:
                texts[k] = _SPELL_ID(texts[k + at])
        del texts[end:]
        self.texts = texts
        self.first = first

    def place(self, offset: int, word_count: int, line: str) -> str:
        """Put a whole line in the place of the instruction at `offset`; its piece."""
        self.texts[offset - self.first] = line
        return self.whole_piece(word_count)

    def whole_piece(self, word_count: int) -> str:
        """The piece of an instruction of `word_count` words whose line is in place."""
        piece = self._whole.get(word_count)
        if piece is None:
            piece = self._whole[word_count] = "%s" + SKIP * (word_count - 1) + "\n"
        return piece

    def text(self, pieces: list[str]) -> str:
        """The lines of the current run's pieces, in one call."""
        return "".join(pieces) % tuple(self.texts)

    def line(self, piece: str, offset: int, word_count: int) -> str:
        """The line of one instruction of the current run, without its newline."""
        start = offset - self.first
        return (piece % tuple(self.texts[start : start + word_count]))[:-1]

    def compile(self, plan: WordPlan) -> Form:
        """The form that makes the piece of an instruction of `plan`: it spells the
        words that are no ids in place (enumerants, literals, the trailing string or
        number) and returns the plan's piece; the piece itself when there are none."""
        converters = self._converters(plan)
        trailing = plan.trailing
        result_index = plan.result_index
        indent = INDENT if self.listing.options.indent else 0
        spelled = {k for k, _ in converters} | {trailing}
        # The extended instruction's name is the same for every instruction of the plan:
        # written in the piece, its word skipped.
        ext_opname = _literal(plan.ext_opname)
        shown = [
            f" {ext_opname}{SKIP}" if e.check == EXT_NUMBER else " %s" if k in spelled else " " + ID_FIELD
            for k, e in enumerate(plan.entries)
        ]
        opname = _literal(plan.opname)
        if result_index < 0:
            piece = SKIP + " " * indent + opname + "".join(shown)
        else:
            # The first word's field shows the result id (right-aligned when indented).
            shown[result_index] = SKIP
            piece = (f"%{indent - 3}s" if indent else "%s") + " = " + opname + "".join(shown)
        if trailing < 0 and not converters:
            return piece + "\n"
        string = trailing >= 0 and plan.entries[trailing].check == STRING
        endings = EndedPieces(piece)

        def form(
            words: list[int], offset: int, value: str | int | None, number_type: NumberType | None
        ) -> str:
            texts = self.texts
            base = offset - self.first + 1
            for k, convert in converters:
                texts[base + k] = convert(words[k])
            if trailing < 0:
                return endings[0]
            size = len(words) - trailing
            texts[base + trailing] = (
                quote_string(value)  # type: ignore[arg-type]
                if string
                else format_number(value, number_type, size)  # type: ignore[arg-type]
            )
            return endings[size]

        return form

    def _converters(self, plan: WordPlan) -> list[tuple[int, Callable[[int], str]]]:
        """For each operand word of `plan` that is no id (and not the trailing operand):
        its index and what spells it."""
        kinds = self.listing.grammar.operand_kinds
        ext = self.listing.grammar.ext_inst_set(plan.ext_inst_set) if plan.ext_inst_set else None
        ext_kinds = ext.operand_kinds if ext is not None else {}
        value_names = self.formatter.value_names
        converters: list[tuple[int, Callable[[int], str]]] = []
        for k, entry in enumerate(plan.entries):
            if entry.check in (ENUM, MASK) and entry.kind in ext_kinds:
                converters.append((k, self._enum_texts(ext_kinds[entry.kind], plan.ext_inst_set).__getitem__))
            elif entry.check == ENUM:
                converters.append((k, value_names[entry.kind].__getitem__))
            elif entry.check == MASK:
                converters.append((k, self._enum_texts(kinds[entry.kind]).__getitem__))
            elif entry.check == LITERAL:
                converters.append((k, str))
            elif entry.check == CASE:
                case_type = plan.case_type
                converters.append((k, lambda word, case_type=case_type: format_number(word, case_type, 1)))
        return converters

    def _enum_texts(self, kind: OperandKind, ext_inst_set: str = "") -> EnumTexts:
        """The texts of `kind`'s values (of the extended set `ext_inst_set`'s, if given),
        shared by every plan that shows them."""
        key = (ext_inst_set, kind.kind)
        found = self._spellings.get(key)
        if found is None:
            found = self._spellings[key] = EnumTexts(kind)
        return found


class EndedPieces(dict):
    """A piece ended for a trailing operand of each size in words (0: none) — its words
    after the first skipped, then the newline — made on first use."""

    __slots__ = ("piece",)

    def __init__(self, piece: str) -> None:
        super().__init__()
        self.piece = piece

    def __missing__(self, size: int) -> str:
        ended = self[size] = self.piece + SKIP * max(0, size - 1) + "\n"
        return ended


class EnumTexts(dict):
    """The text of each value of one enum or mask kind, made on first use, so that a
    form spells a value it has met before with one lookup (`__getitem__`)."""

    __slots__ = ("kind",)

    def __init__(self, kind: OperandKind) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, value: int) -> str:
        text = self[value] = enum_text(self.kind, value)
        return text


def _literal(text: str) -> str:
    """`text` as it stands in a `%`-format template."""
    return text.replace("%", "%%")
