"""The document every pane shows: one module's bytes, its decoded form, names, lines,
diagnostics, and the indexes (definitions, search) built on demand.

Textual-free. Opening is cheap (the codec indexes instruction boundaries and decodes
only what is asked for); whatever needs the whole module (the diagnostics pass, the
definitions and the search text) is built by `index_steps`, a generator a worker runs
in batches, so a half-million-instruction module opens at once and stays responsive.
"""

from __future__ import annotations

import bisect
from typing import Any
from dataclasses import dataclass
from pathlib import Path

from spvinspect.codec.binary.lazy import LazyModule, open_module
from spvinspect.codec.binary.words import MAGIC, SWAPPED_MAGIC
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.grammar import Grammar
from spvinspect.codec.text.listing import DisassemblyOptions, Listing, Role, Segment, generator_text
from spvinspect.codec.text.names import NameMap, module_names
from spvinspect.codec.text.reading_aids import ReadingAids, reading_rows
from spvinspect.formats.spirv_panes import SPIRV_PANES
from spvinspect.layouts import AidedLayout, PlainLayout
from spvinspect.module_index import ModuleIndex
from spvinspect.selection import Selection

HEADER_FIELDS = ("magic", "version", "generator", "bound", "schema")


def looks_like_spirv(data: bytes) -> bool:
    """True when the first word is the SPIR-V magic number in either byte order."""
    if len(data) < 4:
        return False
    word = int.from_bytes(data[:4], "little")
    return word in (MAGIC, SWAPPED_MAGIC)


@dataclass(frozen=True, slots=True)
class HeaderField:
    """One header word: what it is, where, its value and what the value means."""

    name: str
    word: int
    value: int
    meaning: str
    details: tuple[tuple[str, str], ...] = ()
    """Labelled parts of the value (the generator's vendor, tool and tool version)."""


class Document(ModuleIndex):
    """One opened module, shared by every pane (the SPIR-V `spvinspect.formats.Format`)."""

    PANES = SPIRV_PANES
    VIEW = "spvinspect.screens.spirv_view:SpirvView"
    SAVE_KINDS = "a .spvasm name saves the text, any other the binary"

    def __init__(
        self,
        data: bytes,
        path: str | Path | None = None,
        grammar: Grammar | None = None,
        module: LazyModule | None = None,
    ) -> None:
        self.data = data
        self.path = Path(path) if path is not None else None
        self.module = module if module is not None else open_module(data, grammar)
        """`data` opened (`module`: already opened, e.g. with an index made from another's)."""
        # Every boundary first (one fast pass over the words): rows, offsets and the
        # friendly names of the first screen need it.
        self.module.ensure_indexed()
        self.grammar = self.module.grammar
        self._names: dict[bool, NameMap] = {}
        self._listings: dict[bool, Listing] = {}
        self._tail: list[str] | None = None
        self._layout: PlainLayout | None = None
        self._function_rows: list[int] | None = None
        ModuleIndex.__init__(self)
        by_name = self.grammar.by_name
        self.op_function = by_name["OpFunction"].opcode
        self.op_label = by_name["OpLabel"].opcode

    # -- what the module is ------------------------------------------------------

    @property
    def name(self) -> str:
        """The file name users see."""
        return self.path.name if self.path is not None else "<memory>"

    @property
    def file_path(self) -> Path | None:
        """The opened file, if any."""
        return self.path

    run_inputs: dict | None = None
    """The inputs a run starts with (the `spvinspect run --inputs` JSON; None: defaults)."""

    def open_execution(self):
        """The interpreter's runs of this module (`spvinspect.execution`); its settings
        (a `SpirvSettings`: inputs, the fragment, the grid) are what panes change."""
        from spvinspect.execution.spirv import spirv_execution

        return spirv_execution(self, self.run_inputs)

    def open_edit_session(self, at: int | None = None, continuing: Any = None):
        """An edit session over the module's text, friendly names pinned to their ids; on
        a big module, over the region around instruction `at` (`continuing`: the session
        of the region edited before, whose file bytes it keeps)."""
        from spvinspect.editing.region_assembler import REGION_FROM_BYTES, region_session
        from spvinspect.editing.spirv_assembler import open_spirv_session

        if len(self.data) >= REGION_FROM_BYTES or continuing is not None:
            original = continuing.original if continuing is not None else None
            saved = continuing.saved_binary if continuing is not None else None
            session = region_session(self.module, self.names(False), at or 0, self.data, original, saved)
            if session is not None:
                return session
        return open_spirv_session(self.data, hints=self.names(False).id_hints())

    def compared_with(self, file: tuple[bytes, str], names: tuple[str, str] | None = None):
        """How to compare a file of this format (bytes, name) with this module, on a worker."""
        from spvinspect.formats.compare_files import comparing

        return comparing(file, self, False, names)

    @staticmethod
    def editor_language():
        """The editor's lexer (SPIR-V assembly text; no line fix)."""
        from spvinspect.editing.language import EditorLanguage
        from spvinspect.lexers.spirv import SpirvLexer

        return EditorLanguage(SpirvLexer())

    def save_edit(self, session, file, path=None, *, overwrite: bool = False) -> Path:
        """Save an edit's binary over the opened file, or to `path` (save as)."""
        from spvinspect.editing.saving import save_binary

        return save_binary(session, file, path, overwrite=overwrite)

    def reopened(self, data: bytes, path: Path) -> tuple[Document | None, str | None]:
        """A document over the file's new bytes, or why it cannot be one."""
        if not looks_like_spirv(data):
            return None, f"Not reloaded: {path} is no longer a SPIR-V module (its first word is not the magic number)"
        return Document(data, path), None

    def edited(self, session, outcome) -> Document | None:
        """The document of a job's good binary, sharing this one's names and index."""
        state = outcome.state
        if state is None or outcome.binary == self.data:
            return None
        from spvinspect.editing.follow import edited_document

        change = session.assembler.change_since_shown(state)
        return edited_document(self, outcome.binary, change, (state.words, state.big_endian))

    def changed_cells(self, changed):
        """The hex pane's cells of an edit's changed words: the words themselves."""
        return changed

    @property
    def big_endian(self) -> bool:
        """True for a module stored big-endian."""
        return self.module.big_endian

    def header_fields(self) -> list[HeaderField]:
        """The header words present (a short file has fewer), each with its meaning."""
        words = self.module.words
        header = self.module.header
        fields = []
        for word, name in enumerate(HEADER_FIELDS[: min(5, len(words))]):
            value = words[word]
            details = self._generator_details(value) if name == "generator" else ()
            fields.append(HeaderField(name, word, value, self._meaning(name, value, header), details))
        return fields

    def _generator_details(self, value: int) -> tuple[tuple[str, str], ...]:
        """Vendor, tool and tool version from the registry of generator ids."""
        tool = value >> 16
        known = self.grammar.generators.get(tool)
        if known is None:
            return (("tool", f"{tool}, not in the registry"), ("version", str(value & 0xFFFF)))
        return (
            ("vendor", known.vendor),
            ("tool", f"{known.tool or '-'} (id {tool})"),
            ("version", str(value & 0xFFFF)),
        )

    def _meaning(self, name: str, value: int, header) -> str:
        if name == "magic":
            if value != MAGIC:
                return "not the SPIR-V magic number"
            return "SPIR-V, big-endian" if self.big_endian else "SPIR-V, little-endian"
        if name == "version":
            major, minor = (value >> 16) & 0xFF, (value >> 8) & 0xFF
            odd = value & 0xFF0000FF
            return f"{major}.{minor}" + (" (reserved bits set)" if odd else "")
        if name == "generator":
            return generator_text(header, self.grammar) if header is not None else ""
        if name == "bound":
            return f"ids below {value:,}"
        return "reserved, 0" if value == 0 else "reserved, should be 0"

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What is wrong with the module, as far as known (complete once `checked`)."""
        return self.module.diagnostics

    @property
    def instruction_count(self) -> int:
        """Instructions decoded so far (all of them once the module is indexed)."""
        return self.module.instruction_count

    @property
    def function_count(self) -> int:
        """Number of functions (OpFunction … OpFunctionEnd)."""
        return len(self.function_starts)

    # -- rows: instructions, then the undecodable tail -----------------------------

    def names(self, raw: bool = False) -> NameMap:
        """Raw numbers or friendly names, computed once each."""
        if raw not in self._names:
            self._names[raw] = module_names(self.module, friendly=not raw)
        return self._names[raw]

    def share_names(self, other: Document) -> None:
        """Name ids as `other` does, without a naming pass of this module's own: for an
        edit of `other`'s module that keeps its ids (the editor's re-assembly)."""
        self._names = dict(other._names)

    def rename_from(self, other: Document, names: NameMap) -> None:
        """Name ids as `names` does (an edit's renaming of `other`'s friendly names, see
        `codec.text.names_update`), and by number as `other` does."""
        self._names = {raw: kept for raw, kept in other._names.items() if raw}
        self._names[False] = names

    def listing(self, raw: bool = False) -> Listing:
        """The lines `spvinspect dis` prints, with raw ids or friendly names."""
        if raw not in self._listings:
            self._listings[raw] = Listing(self.module, self.names(raw))
        return self._listings[raw]

    @property
    def tail_lines(self) -> list[str]:
        """The undecodable tail as `!0x…` lines (and trailing bytes), one row each, as
        `dis --lossless` prints them; none for a module that decodes to its end."""
        if self._tail is None:
            module = self.module
            whole = module.tail_offset >= len(module.words) and not module.trailing_bytes
            lossless = DisassemblyOptions(lossless=True)
            self._tail = [] if whole else Listing(module, self.names(True), lossless).tail_lines()
        return self._tail

    # -- the layout: which row shows which instruction ------------------------------

    @property
    def layout(self) -> PlainLayout:
        """The current rows: the plain disassembly, or the reading aids (`use_layout`)."""
        if self._layout is None:
            self._layout = PlainLayout(self.module.instruction_count, len(self.tail_lines))
        return self._layout

    def use_layout(self, layout: PlainLayout | None) -> None:
        """Show `layout`'s rows (None: the plain disassembly)."""
        self._layout = layout
        self._function_rows = None

    def reading_aids_layout(self, raw: bool = False) -> AidedLayout:
        """The rows of `dis --comment --nested-indent --reorder-blocks` (the whole module is
        decoded at once: call it from a worker; `READING_AIDS_LIMIT` bounds the size)."""
        rows = reading_rows(self.listing(raw), ReadingAids(comment=True, nested_indent=True, reorder_blocks=True))
        header = len(self.listing(raw).header_lines())
        return AidedLayout(rows[header:], len(self.tail_lines))

    @property
    def row_count(self) -> int:
        """Rows of the instruction list."""
        return self.layout.count

    def row_instruction(self, row: int) -> int | None:
        """The instruction a row shows, or None (a comment, blank or tail row)."""
        return self.layout.instruction(row)

    def row_word(self, row: int) -> int | None:
        """Word offset of a row's first word; None for a comment or blank row."""
        layout = self.layout
        index = layout.instruction(row)
        if index is not None:
            return self.module.offset(index)
        tail = layout.tail(row)
        if tail is None:
            return None
        return min(self.module.tail_offset + tail, len(self.module.words))

    def segments(self, row: int, raw: bool = False) -> tuple[Segment, ...] | None:
        """A row's coloured parts, or None for a tail row (see `row_text`)."""
        layout = self.layout
        index = layout.instruction(row)
        if index is not None:
            return layout.segments(row, self.listing(raw).segments(index))
        own = layout.text(row)
        if own is None:
            return None
        return (Segment(own, Role.COMMENT, None),) if own else ()

    def row_text(self, row: int, raw: bool = False) -> str:
        """A row's text, exactly as `spvinspect dis` prints it (with the layout's aids)."""
        layout = self.layout
        own = layout.text(row)
        if own is not None:
            return own
        index = layout.instruction(row)
        if index is not None:
            return self.listing(raw).line(index)
        return self.tail_lines[layout.tail(row) or 0]

    def opcode(self, row: int) -> int | None:
        """The opcode of a row's instruction, read from its first word without decoding."""
        index = self.layout.instruction(row)
        return None if index is None else self.module.opcode(index)

    # -- selection -------------------------------------------------------------

    def select_row(self, row: int, operand: int | None = None) -> Selection:
        """The selection on `row` (clamped), on `operand` of its instruction when given;
        on a comment row, the word of the instruction after it."""
        if self.row_count == 0:
            return Selection(0, None)
        row = max(0, min(row, self.row_count - 1))
        index = self.layout.instruction(row)
        if index is None:
            word = self.row_word(row)
            if word is None:
                following = next((r for r in range(row + 1, self.row_count) if self.row_word(r) is not None), None)
                word = self.row_word(following) if following is not None else 0
            return Selection(word or 0, row)
        return self.select_instruction(index, operand)

    def select_instruction(self, index: int, operand: int | None = None) -> Selection:
        """The selection on instruction `index`, on `operand` when given."""
        row = self.layout.row_of(index)
        operands = self.module.instruction(index).operands
        if operand is not None and 0 <= operand < len(operands):
            return Selection(operands[operand].offset, row, index, operand)
        return Selection(self.module.offset(index), row, index, None)

    def select_word(self, word: int) -> Selection:
        """The selection on word `word`: its instruction and operand, a tail row, or the header."""
        module = self.module
        layout = self.layout
        if word >= len(module.words) and module.trailing_bytes and self.tail_lines:
            return Selection(len(module.words), self.row_count - 1)
        word = max(0, min(word, max(len(module.words) - 1, 0)))
        index = module.index_at(word)
        if index is None:
            if self.tail_lines and word >= module.tail_offset and word >= 5:
                return Selection(word, layout.tail_row(word - module.tail_offset))
            return Selection(word, None)
        operand = next(
            (k for k, o in enumerate(module.instruction(index).operands) if o.offset <= word < o.end),
            None,
        )
        return Selection(word, layout.row_of(index), index, operand)

    # -- functions and blocks ----------------------------------------------------

    @property
    def function_starts(self) -> list[int]:
        """Row of every OpFunction, in order (functions keep their order in every layout)."""
        if self._function_rows is None:
            self._function_rows = [self.layout.row_of(span.first) for span in self.module.functions()]
        return self._function_rows

    def function_name(self, row: int, raw: bool = False) -> str | None:
        """The name (`%main`) of the function holding `row`, or None outside functions."""
        spans = self.module.functions()
        k = bisect.bisect_right(self.function_starts, row) - 1
        if k < 0:
            return None
        index = self.layout.instruction(row)
        if index is None and self.layout.tail(row) is not None or index is not None and index >= spans[k].end:
            return None
        return "%" + self.names(raw).name(spans[k].result_id)

    def operand_text(self, row: int, operand: int, raw: bool = False) -> str:
        """An operand as the line shows it (`%v4float`, `"main"`, `Function`)."""
        segments = self.segments(row, raw) or ()
        return "".join(s.text for s in segments if s.operand == operand)

    def function_row(self, row: int, step: int) -> int | None:
        """The first row of the next (`step` 1) or previous (-1) function from `row`."""
        starts = self.function_starts
        if step > 0:
            k = bisect.bisect_right(starts, row)
            return starts[k] if k < len(starts) else None
        k = bisect.bisect_left(starts, row) - 1
        return starts[k] if k >= 0 else None

    def block_row(self, row: int, step: int) -> int | None:
        """The next (`step` 1) or previous (-1) OpLabel row from `row`, within reach of its function."""
        stop = self.function_row(row, step)
        end = (self.row_count if step > 0 else -1) if stop is None else stop
        for candidate in range(row + step, end, step):
            if self.opcode(candidate) == self.op_label:
                return candidate
        return stop

    def places(self) -> list[tuple[str, int]]:
        """("entry point main (Fragment)" or "function %main", row) for every entry point
        and function, for "go to" in the command palette."""
        names = self.names(False)
        firsts = [span.first for span in self.module.functions()]
        by_id = {self.module.instruction(index).result_id: index for index in firsts}
        entry = self.grammar.by_name["OpEntryPoint"].opcode
        model_kind = self.grammar.operand_kinds["ExecutionModel"]
        row_of = self.layout.row_of
        places = []
        for index in range(firsts[0] if firsts else 0):
            if self.module.opcode(index) != entry:
                continue
            operands = self.module.instruction(index).operands
            if len(operands) < 3 or operands[1].value not in by_id:
                continue
            model = model_kind.by_value.get(operands[0].value)
            label = f"entry point {operands[2].value} ({model.name if model else operands[0].value})"
            places.append((label, row_of(by_id[operands[1].value])))
        places += [(f"function %{names.name(id_)}", row_of(index)) for id_, index in by_id.items()]
        return places
