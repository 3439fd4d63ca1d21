"""The Lima document (no Textual): one PP program opened from bytes, for every Lima pane.

It holds what the panes render — the rows of the instruction list in both syntaxes, with
branch labels and symbol names, the breakdown of each instruction, the header tree — and
answers the questions the keys ask (the next instruction using a unit, the next branch,
a branch's target). Opening never raises: what cannot be decoded comes back as
diagnostics with word offsets, and the words after the last instruction are rows too.
"""

from __future__ import annotations

import bisect
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from pathlib import Path

from spvinspect import lima
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.formats.lima_panes import LIMA_PANES
from spvinspect.lima.breakdown import BitSelection, Breakdown, breakdown, field_unit
from spvinspect.lima.disasm_seed import branch_labels, instruction_line
from spvinspect.lima.fields import FIELDS
from spvinspect.lima.mbs import is_mbs, parse_mbs
from spvinspect.lima.meanings import sign_extend
from spvinspect.lima.model import Chunk, Instruction
from spvinspect.lima.symbols import SymbolTable, instruction_names, symbol_table
from spvinspect.codec.plural import counted

STYLES = lima.STYLES
"""`seed` (the proposed syntax of seed 004, the default) and `mesa` (Mesa's disassembler)."""
_TARGET_BITS = FIELDS[9].layout("branch").range("target").width


class RowKind(Enum):
    """What a row of the instruction list shows."""

    LABEL = "label"
    INSTRUCTION = "instruction"
    UNDECODED = "undecoded"


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the list: a branch label, an instruction, or a word left undecoded."""

    kind: RowKind
    instruction: int | None
    """Index of the instruction the row shows or labels; None for undecoded words."""
    word_offset: int
    """Stream word of the instruction (or of the undecoded word)."""


@dataclass(frozen=True, slots=True)
class HeaderNode:
    """One line of the header pane's tree: a chunk, a value in it, or a summary line."""

    label: str
    byte_offset: int | None = None
    children: tuple[HeaderNode, ...] = ()


class LimaDocument:
    """A PP program (MBS file or raw little-endian stream) decoded once, rendered on demand
    (the Lima `spvinspect.formats.Format`)."""

    PANES = LIMA_PANES
    VIEW = "spvinspect.screens.lima_view:LimaView"
    SAVE_KINDS = "a .mbs name saves the MBS with the edited code, .s the text, any other the raw stream"

    def __init__(self, data: bytes, name: str | Path = "") -> None:
        self.data = data
        self.name = str(name)
        self.is_mbs = is_mbs(data)
        """True when the content is an MBS container, whatever the file name says."""
        self.program = lima.decode(data)
        self.instructions: tuple[Instruction, ...] = self.program.instructions
        self.diagnostics: tuple[Diagnostic, ...] = self.program.diagnostics
        self.symbols: SymbolTable = symbol_table(self.program.chunks)
        self.labels: dict[int, str] = branch_labels(self.program)
        """Stream word offset -> label name, for every branch target that starts an instruction."""
        self._starts = [instr.word_offset for instr in self.instructions]
        self._index_of_word = {word: i for i, word in enumerate(self._starts)}
        self._lengths = {instr.word_offset: len(instr.words) for instr in self.instructions}
        self.rows: tuple[Row, ...] = self._build_rows()
        self._instruction_rows = {row.instruction: y for y, row in enumerate(self.rows) if row.kind is RowKind.INSTRUCTION}
        self._texts: dict[tuple[int, str], str] = {}
        self._breakdowns: dict[int, Breakdown] = {}

    @property
    def file_path(self) -> Path | None:
        """The opened file (the name as given), if any."""
        return Path(self.name) if self.name else None

    def open_execution(self):
        """The emulator's runs of this program (`spvinspect.execution`), with default inputs."""
        from spvinspect.execution.lima import lima_execution

        return lima_execution(self.program)

    def open_edit_session(self, style: str = "seed"):
        """An edit session over the program's text in `style` (`lima.assemble` is its
        assembler, and reads both)."""
        from spvinspect.editing.lima_assembler import open_lima_session

        return open_lima_session(self.data, style)

    def compared_with(self, file: tuple[bytes, str], names: tuple[str, str] | None = None):
        """How to compare a file of this format (bytes, name) with this program, on a worker."""
        from spvinspect.formats.compare_files import comparing

        return comparing(file, self, True, names)

    @staticmethod
    def editor_language():
        """The editor's lexer and its order fix (seed-004 or Mesa's text)."""
        from spvinspect.editing.language import EditorLanguage
        from spvinspect.editing.lima_fix import fixed_line
        from spvinspect.lexers.lima import LimaLexer

        return EditorLanguage(LimaLexer(), fixed_line)

    def save_edit(self, session, file, path=None, *, overwrite: bool = False) -> Path:
        """Save an edit's program over the opened file (its MBS container or raw stream),
        or to `path` (save as: an `.mbs` name gets the container)."""
        from spvinspect.editing.lima_saving import save_lima

        return save_lima(session, file, path, overwrite=overwrite)

    def reopened(self, data: bytes, path: Path) -> tuple[LimaDocument | None, str | None]:
        """A document over the file's new bytes, under the same name."""
        return LimaDocument(data, self.name), None

    def edited(self, session, outcome) -> LimaDocument | None:
        """The document of a job's good binary, under the same name."""
        return None if outcome.binary is None else LimaDocument(outcome.binary, self.name)

    def changed_cells(self, changed) -> frozenset[int]:
        """The hex pane's cells of an edit's changed words (`ranges` of stream words)."""
        cells = (self.hex_word_of_file_word(w) for start, end in changed.ranges for w in range(start, end))
        return frozenset(cell for cell in cells if cell is not None)

    def _build_rows(self) -> tuple[Row, ...]:
        rows = []
        for i, instr in enumerate(self.instructions):
            if instr.word_offset in self.labels:
                rows.append(Row(RowKind.LABEL, i, instr.word_offset))
            rows.append(Row(RowKind.INSTRUCTION, i, instr.word_offset))
        first = self.decoded_words
        rows += [Row(RowKind.UNDECODED, None, first + k) for k in range(len(self.program.trailing_words))]
        return tuple(rows)

    # -- sizes -----------------------------------------------------------------------

    @property
    def decoded_words(self) -> int:
        """Words held by decoded instructions."""
        return sum(len(instr.words) for instr in self.instructions)

    @property
    def code_byte_offset(self) -> int:
        """Byte offset of stream word 0 in the file (the `DBIN` contents of an MBS file)."""
        return self.program.code_byte_offset

    @property
    def row_count(self) -> int:
        """Rows of the instruction list."""
        return len(self.rows)

    # -- text --------------------------------------------------------------------------

    def instruction_text(self, index: int, style: str = "seed") -> str:
        """Instruction `index` in `style`, with the names its loads read as a `#` comment."""
        key = (index, style)
        text = self._texts.get(key)
        if text is None:
            instr = self.instructions[index]
            if style == "mesa":
                text = lima.mesa_line(instr)
            else:
                following = self.instructions[index + 1] if index + 1 < len(self.instructions) else None
                next_count = len(following.words) if following is not None else 0
                text = instruction_line(instr, next_count, self.labels, self._lengths)
            names = instruction_names(instr, self.symbols)
            if names:
                text = f"{text}   # {', '.join(names)}"
            self._texts[key] = text
        return text

    def row_text(self, row: int, style: str = "seed") -> str:
        """The text of a row: `L4:`, an instruction, or `# word N: 0x… (not decoded)`."""
        shown = self.rows[row]
        if shown.kind is RowKind.LABEL:
            return f"{self.labels[shown.word_offset]}:"
        if shown.kind is RowKind.INSTRUCTION:
            return self.instruction_text(shown.instruction, style)
        word = self.program.trailing_words[shown.word_offset - self.decoded_words]
        return f"# word {shown.word_offset}: 0x{word:08x} (not decoded)"

    # -- rows and instructions ----------------------------------------------------------

    def instruction_row(self, index: int) -> int:
        """The row showing instruction `index` (its label is the row above, if any)."""
        return self._instruction_rows[index]

    def instruction_at_word(self, word_offset: int) -> int | None:
        """The instruction holding stream word `word_offset`, or None past the decoded words."""
        if not self.instructions or word_offset < 0 or word_offset >= self.decoded_words:
            return None
        return bisect.bisect_right(self._starts, word_offset) - 1

    def instruction_at_byte(self, byte_offset: int) -> int | None:
        """The instruction holding the file's byte `byte_offset` (`--at`), or None."""
        relative = byte_offset - self.code_byte_offset
        return None if relative < 0 else self.instruction_at_word(relative // 4)

    def breakdown(self, index: int) -> Breakdown:
        """The bit-by-bit breakdown of instruction `index`."""
        found = self._breakdowns.get(index)
        if found is None:
            found = self._breakdowns[index] = breakdown(self.instructions[index], self._starts)
        return found

    def file_bits(self, selection: BitSelection) -> tuple[tuple[int, int], ...]:
        """The selection in file terms: (byte offset of the word, 32-bit mask) pairs."""
        base = self.code_byte_offset
        return tuple((base + 4 * word, mask) for word, mask in selection.words)

    def file_words(self) -> tuple[array, bytes]:
        """The whole file as little-endian 32-bit words (what a hex pane shows) and the
        bytes after the last whole word."""
        whole = len(self.data) - len(self.data) % 4
        words = array("I", self.data[:whole])
        if sys.byteorder == "big":
            words.byteswap()
        return words, self.data[whole:]

    # -- the hex pane ----------------------------------------------------------------------

    @property
    def hex_in_file(self) -> bool:
        """True when the hex pane shows the file's words: the code starts on a word of the
        file (raw streams, and MBS files as compilers write them). A `DBIN` that does not
        start on a word boundary is shown as its own stream instead, so that every stream
        word is one cell and a field's bits stay exact."""
        return self.code_byte_offset % 4 == 0

    def hex_words(self) -> tuple[array, bytes]:
        """The words the hex pane shows, and the bytes after the last whole one."""
        if self.hex_in_file:
            return self.file_words()
        stream = [word for instr in self.instructions for word in instr.words]
        return array("I", stream + list(self.program.trailing_words)), b""

    @property
    def _hex_base(self) -> int:
        return self.code_byte_offset // 4 if self.hex_in_file else 0

    def hex_word(self, stream_word: int) -> int:
        """The hex pane's cell of stream word `stream_word`."""
        return stream_word + self._hex_base

    def hex_instruction_words(self, index: int) -> range:
        """The hex pane's cells of instruction `index`."""
        instr = self.instructions[index]
        start = self.hex_word(instr.word_offset)
        return range(start, start + len(instr.words))

    def instruction_at_hex_word(self, cell: int) -> int | None:
        """The instruction holding the hex pane's cell `cell`, or None outside the code."""
        return self.instruction_at_word(cell - self._hex_base)

    def hex_bits(self, selection: BitSelection) -> dict[int, int]:
        """A breakdown's selection as the hex pane's cells and the mask of each."""
        return {self.hex_word(word): mask for word, mask in selection.words}

    @cached_property
    def located_diagnostics(self) -> tuple[Diagnostic, ...]:
        """The diagnostics with every word offset counted from the start of the file
        (the decoder counts from the first code word; an MBS container's own problems
        already count from the file's start)."""
        if not self.is_mbs:
            return self.diagnostics
        own = len(parse_mbs(self.data).diagnostics)
        base = self.code_byte_offset // 4
        moved = tuple(
            replace(d, word_offset=d.word_offset + base) if d.word_offset is not None else d
            for d in self.diagnostics[own:]
        )
        return (*self.diagnostics[:own], *moved)

    def hex_word_of_file_word(self, file_word: int) -> int | None:
        """The hex pane's cell showing file word `file_word`; None when the pane shows the
        code stream only and the word is outside it."""
        if self.hex_in_file:
            return file_word
        relative = file_word * 4 - self.code_byte_offset
        return relative // 4 if 0 <= relative < 4 * self.decoded_words + 4 * len(self.program.trailing_words) else None

    # -- branches -------------------------------------------------------------------------

    def branch_target_word(self, index: int) -> int | None:
        """The stream word instruction `index` branches to; None if it has no branch."""
        instr = self.instructions[index]
        for f in instr.fields:
            if f.name == "branch" and f.layout == "branch":
                return instr.word_offset + sign_extend(f["target"], _TARGET_BITS)
        return None

    def branch_target(self, index: int) -> int | None:
        """The instruction instruction `index` branches to, when the target starts one."""
        word = self.branch_target_word(index)
        return None if word is None else self._index_of_word.get(word)

    # -- stepping ----------------------------------------------------------------------------

    def units(self, index: int) -> tuple[str, ...]:
        """The themes' units (`vec4-mul`, `texture`…) instruction `index` uses, in field order."""
        return tuple(field_unit(f) for f in self.instructions[index].fields)

    @cached_property
    def units_used(self) -> tuple[str, ...]:
        """Every unit some instruction uses, in field order of first use."""
        seen: dict[str, None] = {}
        for i in range(len(self.instructions)):
            seen.update(dict.fromkeys(self.units(i)))
        return tuple(seen)

    def next_using(self, index: int, unit: str, step: int = 1) -> int | None:
        """The next (step 1) or previous (step -1) instruction using `unit`, or None."""
        return self._find(index, step, lambda i: unit in self.units(i))

    def next_branch(self, index: int, step: int = 1) -> int | None:
        """The next or previous instruction with a branch or discard, or None."""
        return self._find(index, step, lambda i: "branch" in self.units(i))

    def _find(self, index: int, step: int, wanted) -> int | None:
        i = index + step
        while 0 <= i < len(self.instructions):
            if wanted(i):
                return i
            i += step
        return None

    # -- header ------------------------------------------------------------------------------

    @cached_property
    def header(self) -> tuple[HeaderNode, ...]:
        """The header pane's tree: a summary, then for MBS files the chunk tree."""
        words = len(self.data) // 4
        kind = "MBS file" if self.is_mbs else "raw little-endian PP stream"
        summary = [
            HeaderNode(f"{kind}: {counted(len(self.data), 'byte')} ({counted(words, 'word')})", 0),
            HeaderNode(f"instructions: {len(self.instructions)} in {counted(self.decoded_words, 'word')}", self.code_byte_offset),
            HeaderNode("units used: " + (", ".join(self.units_used) or "none")),
        ]
        for title, symbols in (("uniforms", self.symbols.uniforms), ("varyings", self.symbols.varyings)):
            if symbols:
                entries = tuple(
                    HeaderNode(
                        f"{symbol.name}: components {symbol.offset}-{symbol.offset + symbol.span - 1}",
                        symbol.byte_offset,
                    )
                    for symbol in symbols
                )
                summary.append(HeaderNode(f"{title}: {len(symbols)}", children=entries))
        if self.program.trailing_words:
            first = self.code_byte_offset + 4 * self.decoded_words
            summary.append(HeaderNode(f"undecoded words: {len(self.program.trailing_words)}", first))
        if self.diagnostics:
            summary.append(
                HeaderNode(
                    f"diagnostics: {len(self.diagnostics)}",
                    children=tuple(HeaderNode(d.format()) for d in self.diagnostics),
                )
            )
        return (*summary, *_chunk_nodes(self.program.chunks))


def _chunk_nodes(chunks: Sequence[Chunk]) -> tuple[HeaderNode, ...]:
    nodes = []
    for chunk in chunks:
        values = tuple(
            HeaderNode(
                f"{v.name} = {repr(v.value) if isinstance(v.value, str) else v.value}"
                + (f" ({v.meaning})" if v.meaning else "")
                + f"  @0x{v.byte_offset:x}",
                v.byte_offset,
            )
            for v in chunk.fields
        )
        label = f"{chunk.ident}  @0x{chunk.byte_offset:x}  {counted(chunk.size, 'byte')}"
        nodes.append(HeaderNode(label, chunk.byte_offset, values + _chunk_nodes(chunk.children)))
    return tuple(nodes)
