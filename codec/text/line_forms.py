"""Whole lines straight from words, for the instructions the decoder's fast path takes.

Disassembling a large module line by line through decoded operands and segments costs
several microseconds an instruction. Most instructions, though, are ones the decoder's
fast path vouches for word by word (`codec.binary.decode_plans.WordPlan`); for each such
plan a *line form* is compiled once: a format template of the whole line and, for each
operand word, how it reads — an id through the module's names, an enumerant through the
formatter's tables, a literal as its number, the trailing string quoted, the trailing
number as its type says. The forms follow `OperandFormatter`'s rules and the Listing's
layout; `LineForms.emit` is the fast path's `emit`, so decoding and checking stay the
decoder's.
"""

from __future__ import annotations

from collections.abc import Callable

from codec.binary.decode_plans import ENUM, ID, MASK, STRING, FastForms, Form, WordPlan
from codec.binary.model import NumberType
from codec.binary.tables import DecoderTables
from codec.text.listing import INDENT, Listing, enum_text, quote_string
from codec.text.number_format import format_number

ID_TABLE_LIMIT = 1 << 21
"""The text of every id is kept in a table when the bound is at most this; beyond it,
ids are spelled as they come."""


def line_forms(listing: Listing, tables: DecoderTables, bound: int) -> FastForms:
    """The fast path's forms that make the lines of `listing`."""
    forms = LineForms(listing, bound)
    return FastForms(tables.word_plan, forms.compile, forms.prepare if forms.table else None)


class LineForms:
    """Compiles the line forms of one listing (its names and layout)."""

    def __init__(self, listing: Listing, bound: int) -> None:
        self.listing = listing
        self.formatter = listing.formatter
        names = listing.names.table()
        self.table: dict[int, str] | None = None
        """`%name` of every id from 1 to the bound (when the bound allows a table)."""
        if bound <= ID_TABLE_LIMIT:
            self.table = {i: f"%{i}" for i in range(1, bound)}
            self.table.update((id_, "%" + name) for id_, name in names.items() if 0 < id_ < bound)
            self.id_text: Callable[[int], str] = self.table.__getitem__
        else:
            self.id_text = lambda id_: "%" + (names.get(id_) or str(id_))
        self.texts: list[str | None] = []
        """The id text of every word of the current run (None for words that are no id)."""
        self.first = 0

    def prepare(self, run_words: list[int], first: int) -> None:
        """Look up the id text of every word of a run at once."""
        self.texts = list(map(self.table.get, run_words))  # type: ignore[union-attr]
        self.first = first - 1

    def _template(self, plan: WordPlan) -> str:
        """`{1:>12} = OpIAdd {0} {2} {3}`: the line with a field per shown operand word."""
        indent = INDENT if self.listing.options.indent else 0
        fields = [f" {{{k}}}" for k in range(len(plan.entries)) if k != plan.result_index]
        body = plan.opname + "".join(fields)
        if plan.result_index < 0:
            return " " * indent + body
        width = f":>{indent - 3}" if indent else ""
        return f"{{{plan.result_index}{width}}} = {body}"

    def compile(self, plan: WordPlan) -> Form:
        """The form that makes the line of an instruction of `plan`."""
        template = self._template(plan).format
        id_text = self.id_text
        if plan.all_ids:
            if self.table is None:
                return lambda words, offset, value, number_type: template(*map(id_text, words))

            def ids_form(words: list[int], offset: int, value: object, number_type: object) -> str:
                start = offset - self.first
                return template(*self.texts[start : start + len(words)])

            return ids_form
        kinds = self.listing.grammar.operand_kinds
        value_names = self.formatter.value_names
        converters: list[tuple[int, Callable[[int], str]]] = []
        for k, entry in enumerate(plan.entries):
            if entry.check == ID:
                converters.append((k, id_text))
            elif entry.check == ENUM:
                converters.append((k, value_names[entry.kind].__getitem__))
            elif entry.check == MASK:
                kind = kinds[entry.kind]
                converters.append((k, lambda word, kind=kind: enum_text(kind, word)))
        trailing = plan.trailing
        string = trailing >= 0 and plan.entries[trailing].check == STRING

        def form(
            words: list[int], offset: int, value: str | int | None, number_type: NumberType | None
        ) -> str:
            args: list = list(words)
            for k, convert in converters:
                args[k] = convert(args[k])
            if trailing >= 0:
                args[trailing] = (
                    quote_string(value)  # type: ignore[arg-type]
                    if string
                    else format_number(value, number_type, len(words) - trailing)  # type: ignore[arg-type]
                )
            return template(*args)

        return form
