"""SPIR-V assembly text → binary, identical to `spirv-as` (SPIRV-Tools v2025.5).

`assemble(text)` is what the live editor calls on every keystroke: it never raises and
returns the words (or None), the diagnostics and, for each emitted instruction, the
source lines it came from. The syntax is SPIRV-Tools' assembly syntax; see
`codec.asm.encoder` for the engine, `codec.asm.quick` for its quick paths,
`codec.asm.bulk` for the array passes that take big texts (`spvinspect as` on a whole
module), `codec.asm.lexer` for how words are split and `codec.asm.bulk_lexer` for
how a big text's words are split and numbered by array passes.

When the text starts with the header comments `spirv-dis` prints and no target
environment is given, the version, generator, bound and schema come from them, so that
disassembling and reassembling a module gives back the same bytes.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass

from spvinspect.codec.asm.errors import AssemblyError, Where
from spvinspect.codec.asm.header import (
    ASSEMBLER_GENERATOR, DEFAULT_VERSION, MAGIC, TARGET_ENV_VERSIONS, HeaderError,
    read_header_comment,
)
from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.lexer import SourceMap, source_text, tokenize, word_codes
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.asm.quick import QuickEncoder
from spvinspect.codec.binary.words import file_bytes
from spvinspect.codec.diagnostics import Diagnostic, Severity


@dataclass(frozen=True, slots=True)
class InstructionSpan:
    """Where one emitted instruction came from and where it went."""

    word_offset: int
    """Index of its first word in the module (the header is words 0 to 4)."""
    first_line: int
    last_line: int
    """1-based source lines of its first and last words."""


class AssemblyResult:
    """The outcome of one assembly: words or None, diagnostics, instruction spans."""

    __slots__ = (
        "words", "diagnostics", "big_endian", "trailing_bytes",
        "_source", "_inst_words", "_inst_first", "_word_count", "_spans",
    )

    def __init__(
        self, words, diagnostics, source=None, inst_words=(), inst_first=(), word_count=0,
        big_endian=False, trailing_bytes=b"",
    ):
        self.words: array | None = words
        """The module's 32-bit words, or None when there are errors."""
        self.diagnostics: list[Diagnostic] = diagnostics
        self.big_endian: bool = big_endian
        """Write the words big-endian (a lossless header comment asked for it)."""
        self.trailing_bytes: bytes = trailing_bytes
        """Bytes after the last word (from a lossless trailing-bytes comment)."""
        self._source: SourceMap | None = source
        self._inst_words = inst_words
        self._inst_first = inst_first
        self._word_count = word_count
        self._spans: list[InstructionSpan] | None = None

    @property
    def ok(self) -> bool:
        """True when a module was produced."""
        return self.words is not None

    @property
    def binary(self) -> bytes | None:
        """The module as little-endian bytes, or None when there are errors."""
        if self.words is None:
            return None
        return file_bytes(self.words, self.big_endian, self.trailing_bytes)

    @property
    def spans(self) -> list[InstructionSpan]:
        """One span per emitted instruction, in order (computed on first use)."""
        if self._spans is None:
            source = self._source
            if source is None:
                self._spans = []
            else:
                line = source.word_line
                firsts = self._inst_first
                lasts = [f - 1 for f in firsts[1:]] + [self._word_count - 1]
                self._spans = [
                    InstructionSpan(5 + w, line(f), line(last))
                    for w, f, last in zip(self._inst_words, firsts, lasts)
                ]
        return self._spans


def placed_diagnostic(message: str, where: Where, source: SourceMap) -> Diagnostic:
    """An error at its line:col: a word's start or end, a character, or the end of the text."""
    kind, index = where
    if kind == "start":
        offset = source.word_start(index)
    elif kind == "end":
        offset = source.word_end(index)
    elif kind == "char":
        offset = index
    else:
        offset = len(source.text)
    line, column = source.line_col(offset)
    return Diagnostic(message, Severity.ERROR, line=line, column=column)


BULK_MIN_CHARS = 2_000_000
"""Texts of this many characters and more take the bulk path (`codec.asm.bulk`,
numpy's array passes); below it, those cost more than they save."""


def _encoder(
    words, source: SourceMap, version: int, numbered: dict[str, int], hints: dict[str, int]
) -> QuickEncoder:
    def punctuation(index: int) -> str:
        offset = source.word_start(index)
        return source.text[offset : offset + 1]

    kept = frozenset(numbered.values()) | frozenset(hints.values())
    encoder = QuickEncoder(words, load_plans(), version, kept, punctuation)
    encoder.ids.pin(numbered)
    encoder.ids.pin(hints)
    return encoder


def _run(text: str, source: SourceMap, version: int, preserve: bool, hints: dict[str, int]) -> QuickEncoder:
    if len(text) >= BULK_MIN_CHARS:
        from spvinspect.codec.asm.bulk import run_bulk
        from spvinspect.codec.asm.bulk_lexer import word_codes_array
        from spvinspect.codec.asm.bulk_words import Distinct, Words

        codes, unique, chars = word_codes_array(text) or (*word_codes(text), None)
        words = Words(codes, unique)
        distinct = Distinct(unique, chars)
        del codes, unique, chars
        if distinct.ok:
            # The bulk path pins the numeric ids and the hints itself.
            encoder = _encoder(words, source, version, {}, {})
            if run_bulk(encoder, distinct, preserve, hints):
                return encoder
            del encoder
        del words, distinct
        words = tokenize(text)  # the engines' list, from the text again (errors are rare)
        numbered = numeric_ids(words) if preserve else {}
    else:
        words = tokenize(text)
        numbered = numeric_ids(words) if preserve else {}
    encoder = _encoder(words, source, version, numbered, hints)
    encoder.run()
    return encoder


def assemble(
    text: str,
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    id_hints: Mapping[str, int] | None = None,
) -> AssemblyResult:
    """Assemble SPIR-V assembly `text`; never raises.

    `target_env` is a spirv-as `--target-env` name (it sets the version word); when it
    is None the header comments, if present, give the version, generator, bound and
    schema, numeric ids keep their numbers and SPIR-V 1.6 is the default version.
    `id_hints` pins named ids to numbers (`{"main": 4}`), as the disassembler that
    chose the names knows them, so that friendly-named text reassembles exactly; the
    other named ids fill the gaps as with --preserve-numeric-ids.
    """
    hints = {"%" + name.lstrip("%"): number & 0xFFFFFFFF for name, number in (id_hints or {}).items()}
    if target_env is not None and target_env not in TARGET_ENV_VERSIONS:
        choices = ", ".join(TARGET_ENV_VERSIONS)
        return AssemblyResult(None, [Diagnostic(f"unknown target environment '{target_env}' (one of {choices})")])
    if text == "":
        return AssemblyResult(None, [Diagnostic("the text is empty: there is nothing to assemble", line=1, column=1)])
    text = source_text(text)
    source = SourceMap(text)
    try:
        header = None if target_env is not None else read_header_comment(text, load_plans().grammar)
    except HeaderError as error:
        return AssemblyResult(None, [placed_diagnostic(error.message, ("char", error.offset), source)], source)
    # The header comments give the version word but, as for spirv-as, which reads them
    # as comments, the instructions accepted are those of the default target.
    accepted = TARGET_ENV_VERSIONS.get(target_env or "", DEFAULT_VERSION)
    version = header.version if header is not None else accepted
    try:
        round_trip = header is not None
        encoder = _run(text, source, accepted, preserve_numeric_ids or round_trip, hints)
    except AssemblyError as error:
        return AssemblyResult(None, [placed_diagnostic(error.message, error.where, source)], source)
    if header is not None and header.words is not None and len(header.words) < 5 and encoder.n:
        message = (f"the header comment gives {len(header.words)} header word(s), not 5: "
                   "no instructions can follow an incomplete header")
        return AssemblyResult(None, [placed_diagnostic(message, ("start", 0), source)], source)
    generator = ASSEMBLER_GENERATOR
    bound = encoder.ids.bound
    schema = 0
    if header is not None:
        generator = header.generator if header.generator is not None else generator
        bound = max(bound, header.bound)
        schema = header.schema
    words = array("I", (MAGIC, version, generator, bound, schema))
    if header is not None and header.words is not None:
        words = array("I", header.words)
    words += encoder.out
    return AssemblyResult(
        words, [], source, encoder.inst_words, encoder.inst_first, encoder.n,
        big_endian=header is not None and header.big_endian,
        trailing_bytes=header.trailing_bytes if header is not None else b"",
    )


__all__ = ["AssemblyResult", "InstructionSpan", "assemble"]
