"""SPIR-V on the one screen: the instruction list with the diagnostics and the CFG of the
selected function under it; beside it the header, the hex pane and the detail of the word
under the cursor. Below 100 columns only the list is laid out and every other pane is one
key away, zoomed to the whole screen. Definitions, uses and search over the module; its
whole-module index built by a worker while the user reads.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on, work
from textual.binding import Binding
from textual.reactive import var
from textual.widget import Widget
from textual.worker import get_current_worker

from spvinspect.cfgview.graphs import FunctionGraphs
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.text.grammar_card import card_for
from spvinspect.codec.text.word_detail import word_detail
from spvinspect.document import Document
from spvinspect.folding import FoldedLayout, fold_anchors, refold
from spvinspect.formats.spirv_hex import header_cell, instruction_cells
from spvinspect.formats.spirv_panes import SPIRV_PANES
from spvinspect.layouts import PlainLayout
from spvinspect.messages import GoToDefinition, IndexProgress, ListUses
from spvinspect.responsive.pacing import WhenIdle
from spvinspect.screens.cfg_follow import CfgFollow
from spvinspect.screens.editing import EDIT_BINDINGS
from spvinspect.screens.grammar_card import GrammarCardScreen
from spvinspect.screens.module_indexing import ModuleIndexing
from spvinspect.screens.module_navigation import ModuleNavigation
from spvinspect.screens.panes import pane_bindings
from spvinspect.screens.view import FormatView
from spvinspect.selection import Selection
from spvinspect.widgets.border_text import set_border_subtitle
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.widgets.diagnostics_panel import DiagnosticsPanel
from spvinspect.widgets.header_pane import HeaderPane
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.search_bar import SearchBar
from spvinspect.widgets.status_line import StatusLine
from spvinspect.widgets.word_detail import WordDetailPanel

READING_AIDS_LIMIT = 150_000
"""Instructions up to which the reading aids are offered: they decode the whole module at
once and keep every instruction (a few hundred bytes each)."""
NEAR_DEFINITIONS_LIMIT = 50_000
"""Instructions up to which the word detail looks for an id's definition before the
index knows them all (a scan of the function and the part before the functions)."""

NAVIGATION_BINDINGS = [
    Binding(
        "slash",
        "search",
        "Search",
        id="main.search",
        tooltip="Search: opcode, %id or name, 0x word, decimal value (literal or enum), literal, text",
        priority=True,  # acted on before the next key is routed, so a typed burst lands in the bar
    ),
    Binding("n", "search_step(1)", "Next match", show=False, id="main.search_next", tooltip="The next match of the last search"),
    Binding("N", "search_step(-1)", "Previous match", show=False, id="main.search_previous", tooltip="The previous match of the last search"),
    Binding("ctrl+o,alt+left", "back", "Back", id="main.back", tooltip="Back to where the last jump left"),
    Binding("ctrl+n,alt+right", "forward", "Forward", show=False, id="main.forward", tooltip="Forward again after going back"),
]
MODULE_BINDINGS = [
    Binding("r", "toggle_raw", "Raw ids", id="main.raw", tooltip="Raw id numbers or friendly names"),
    Binding(
        "a",
        "toggle_reading_aids",
        "Reading aids",
        show=False,
        id="main.reading_aids",
        tooltip="Section comments, decorations beside definitions, blocks nested in structured order (spirv-dis --comment --nested-indent --reorder-blocks)",
    ),
    Binding("c", "card", "Card", show=False, id="main.card", tooltip="The grammar card of the selected instruction or operand"),
    Binding("z", "zoom", "Zoom", id="main.zoom", tooltip="Zoom the focused pane to the whole screen, or back"),
    Binding("x", "hide_pane", "Hide pane", show=False, id="main.hide", tooltip="Hide the focused pane (its number key shows it again)"),
    *pane_bindings(SPIRV_PANES, "main"),
]


def module_hex_view(module: LazyModule, **kwargs) -> HexView:
    """The hex pane over a module: its words, byte order, tail (once indexed; see
    `HexView.set_tail_offset`), trailing bytes, the words its diagnostics name so far,
    and the header words styled as such."""
    return HexView(
        module.words,
        big_endian=module.big_endian,  # known for a file shorter than its header too
        trailing_bytes=module.trailing_bytes,
        tail_offset=module.tail_offset if module.indexed else None,
        marked=(d.word_offset for d in module.diagnostics if d.word_offset is not None),
        cell_kind=header_cell,
        **kwargs,
    )


class SpirvView(FormatView):
    """Header, instruction list, hex, word detail, CFG and diagnostics over one module."""

    SCREEN_BINDINGS = [*NAVIGATION_BINDINGS, *EDIT_BINDINGS, *MODULE_BINDINGS]
    COLUMN_IDS = ("main", "inspect")

    raw: var[bool] = var(False)
    """Raw id numbers instead of friendly names, in every pane."""

    _pending: Callable[[], None] | None = None
    """A request (search, uses, definition) waiting for the index."""

    def __init__(self, document: Document, *, at: int | None = None, raw: bool = False) -> None:
        super().__init__(document, at=at, id="panes")
        self.indexing = ModuleIndexing(self)
        """The whole-module index's worker."""
        self.navigation = ModuleNavigation(self, self.indexing)
        """Definitions, uses and search."""
        self._cfg_follow = CfgFollow(self, self._follow_in_cfg)
        # Outside every function the CFG pane folds to its one-line message, giving the
        # list the rows; only once the user pauses: folding re-lays out the whole screen
        # (long frames on a big module), which keys in quick succession would
        # wait for, and a list that changes height under the keys is hard to follow.
        self._fold_cfg = WhenIdle(self, self._fold_now)
        self.set_reactive(SpirvView.raw, raw)

    @property
    def selection(self) -> Selection | None:
        """The screen's selection."""
        return self.screen.selection

    def overlays(self) -> list[Widget]:
        search_bar = SearchBar(id="search")
        search_bar.display = False
        return [search_bar]

    def function_graphs(self, previous: FunctionGraphs | None = None) -> FunctionGraphs:
        """The CFG pane's graphs over the document, in the current naming; after an edit,
        keeping what `previous` made that the edit did not touch."""
        return FunctionGraphs(self.document.module, self.document.names(self.raw), previous=previous)

    def first_selection(self) -> Selection:
        self.show_diagnostics()
        return self.document.select_word(self._at) if self._at is not None else self.document.select_row(0)

    def started(self) -> None:
        # The CFG pane (and its fold) in the first layout, not in another one just after
        # the first paint, where the user's first key would wait for it.
        self._cfg_follow.now()
        self.query_one(InstructionList).focus()
        # After the first paint: the worker would otherwise compete with it for the GIL.
        self.call_after_refresh(self.build_index)

    # -- the selection ----------------------------------------------------------

    def show(self, selection: Selection, center: bool) -> None:
        self.query_one(InstructionList).show(selection, center=center)
        module = self.document.module
        instruction = module.instruction(selection.instruction) if selection.instruction is not None else None
        hex_view = self.query_one(HexView)
        hex_view.show_word(selection.word, center)
        if instruction is None:
            hex_view.highlight(None)
        else:
            hex_view.highlight(range(instruction.offset, instruction.end), instruction_cells(instruction))
        self.query_one(WordDetailPanel).show(self._word_detail(selection))
        # A moment later: the list and hex answer the key in the frame that goes out
        # first, and keys in quick succession cost the CFG pane one follow (of the last).
        self._cfg_follow.soon()
        self._update_status()

    def _follow_in_cfg(self, new_module: bool) -> None:
        cfg = self.query_one(CfgView)
        if new_module:
            cfg.set_graphs(self.function_graphs(previous=cfg.graphs))
        if self.selection is not None:
            cfg.follow(self.selection.instruction)
            self._fold_cfg()

    def _fold_now(self) -> None:
        self.query_one("#cfg-box").set_class(self.query_one(CfgView).function_id is None, "-idle")

    def _word_detail(self, selection: Selection):
        document = self.document
        definition: Callable[[int], int | None] | None = None
        if document.ids_defined is not None:
            definition = document.definition
        elif document.instruction_count <= NEAR_DEFINITIONS_LIMIT:
            definition = lambda id_: document.definition(id_, near=selection.instruction)  # noqa: E731
        return word_detail(document.module, selection.word, document.listing(self.raw).formatter, definition=definition)

    def selection_of_row(self, row: int, operand: int | None = None) -> Selection | None:
        return self.document.select_row(row, operand)

    def selection_of_instruction(self, index: int, operand: int | None = None) -> Selection | None:
        if 0 <= index < self.document.instruction_count:
            return self.document.select_instruction(index, operand)
        return None

    def selection_of_word(self, word: int) -> Selection | None:
        return self.document.select_word(word)

    @on(HexView.WordSelected)
    def _hex_word(self, message: HexView.WordSelected) -> None:
        """The hex cursor moved: select its word; the focus stays in the hex pane."""
        message.stop()
        self.select(self.document.select_word(message.word), message.jump)

    @on(CfgView.BlockChosen)
    def _block_chosen(self, message: CfgView.BlockChosen) -> None:
        """A block chosen in the CFG pane: select its OpLabel; the focus stays there."""
        message.stop()
        self.select(self.document.select_word(message.word), jump=True)

    @on(DiagnosticsPanel.Chosen)
    def _diagnostic_chosen(self, message: DiagnosticsPanel.Chosen) -> None:
        message.stop()
        self.select(self.document.select_word(message.word), jump=True)
        self.screen.focus_home()

    def _update_status(self) -> None:
        status = self.screen.query_one(StatusLine)
        selection = self.selection
        document = self.document
        if selection is None:
            return
        place = f"{selection.byte_offset:#010x} w{selection.word}"
        if selection.instruction is not None:
            # Counted from 1, as the word detail counts them.
            total = f"/{document.instruction_count:,}" if document.module.indexed else ""
            place += f"  instruction {selection.instruction + 1:,}{total}"
        elif selection.row is not None:
            place += f"  row {selection.row + 1:,}/{document.row_count:,}"
        else:
            place += "  header"
        status.place = place
        status.detail = self._operand_text(selection)
        status.mode = ("raw ids" if self.raw else "friendly names") + (" · reading aids" if document.layout.aided else "")
        function = document.function_name(selection.row, self.raw) if selection.row is not None else None
        set_border_subtitle(self.query_one(InstructionList), f"in {function}" if function else "")

    def _operand_text(self, selection: Selection) -> str:
        described = self.navigation.session.describe(selection.row)
        if described:
            return described
        if selection.instruction is None or selection.operand is None:
            return ""
        operand = self.document.module.instruction(selection.instruction).operands[selection.operand]
        shown = self.document.operand_text(selection.row, selection.operand, self.raw) if selection.row is not None else ""
        label = f"'{operand.name}' " if operand.name else ""
        return f"{label}{operand.kind} {shown}"

    def copy_choices(self):
        """What ctrl+c offers for the selection, named as the list shows it."""
        from spvinspect.copying import spirv_choices

        return spirv_choices(self.document, self.selection, self.raw) if self.selection is not None else None

    def places(self) -> list[tuple[str, Callable[[], None]]]:
        """Entry points and functions, each with a callback that jumps there."""
        return [(label, self._jumper(row)) for label, row in self.document.places()]

    def _jumper(self, row: int) -> Callable[[], None]:
        return lambda: self.select(self.document.select_row(row), jump=True)

    # -- editing ------------------------------------------------------------------

    def new_edit_session(self, document):
        """The document's session, over the region around the selection on a big module."""
        selection = self.selection
        return document.open_edit_session(selection.instruction if selection is not None else None)

    def editor_line(self, session) -> int:
        """The whole text's line of the selected word."""
        line = session.line_of(self.selection.word) if self.selection is not None else None
        return line if line is not None else 0

    def editor_selection(self, session, line: int) -> Selection | None:
        """The word starting the instruction on the editor's line."""
        word = session.location_of_line(line)
        return None if word is None else self.document.select_word(word)

    def show_document(self, document: Document) -> None:
        """Put the document of an edit's binary into the panes, with the folds the list had."""
        anchors = fold_anchors(self.document)
        self.indexing.drop()
        self.document = document
        if anchors:
            document.use_layout(refold(document, anchors, self.raw))
        listing = self.query_one(InstructionList)
        listing.document = document
        listing.rows_changed()
        self.query_one(HeaderPane).show_document(document)
        module = document.module
        self.query_one(HexView).load(module.words, trailing_bytes=module.trailing_bytes, tail_offset=module.tail_offset)
        self._cfg_follow.new_module()
        self.navigation.session.forget_matches()
        self.show_diagnostics()

    def after_edit(self, session, line: int | None, kept: Selection | None) -> Selection | None:
        """The word on the editor's line (or the same word)."""
        word = session.location_of_line(line) if line is not None and session is not None else None
        if word is None and kept is not None:
            word = kept.word
        return self.document.select_word(word or 0)

    # -- the grammar card ------------------------------------------------------------

    def action_card(self) -> None:
        """The grammar card of the selected instruction, or of the operand under the cursor."""
        if self.selection is not None:
            self._show_card(self.selection)

    @on(HexView.CardRequested)
    def _card_requested(self, message: HexView.CardRequested) -> None:
        message.stop()
        self._show_card(self.document.select_word(message.word))

    def _show_card(self, selection: Selection) -> None:
        if selection.instruction is None:
            self.notify("No instruction here: the grammar has cards for instructions and their operands", severity="warning")
            return
        instruction = self.document.module.instruction(selection.instruction)
        card = card_for(self.document.grammar, instruction, selection.operand)
        if card is None:
            self.notify("The grammar has no card for this instruction", severity="warning")
        else:
            self.app.push_screen(GrammarCardScreen(card))

    # -- panes -------------------------------------------------------------------

    def can_show(self, name: str) -> bool:
        if name == "diagnostics" and not self.document.diagnostics:
            self.notify("No diagnostics: the module decodes cleanly", timeout=3)
            return False
        return True

    def show_diagnostics(self) -> None:
        """The document's diagnostics in the panel, the list's gutter and the hex pane."""
        document = self.document
        diagnostics = document.diagnostics
        panel = self.query_one(DiagnosticsPanel)
        panel.show_diagnostics(diagnostics)
        panel.set_class(not diagnostics, "-empty")
        words = [d.word_offset for d in diagnostics if d.word_offset is not None]
        rows = {row for row in (document.select_word(word).row for word in words) if row is not None}
        self.query_one(InstructionList).diagnostic_rows = frozenset(rows)
        self.query_one(HexView).mark(words)

    # -- the index -----------------------------------------------------------------

    def index_advanced(self, fraction: float | None) -> None:
        self.query_one(HeaderPane).progress = fraction
        self.screen.query_one(StatusLine).busy = "" if fraction is None else f"indexing {fraction:.0%}"

    def index_complete(self) -> None:
        self.show_diagnostics()
        self.query_one(InstructionList).refresh()
        self.query_one(HeaderPane).refresh()
        if self.selection is not None:
            self.query_one(WordDetailPanel).show(self._word_detail(self.selection))

    # -- naming ---------------------------------------------------------------

    def action_toggle_raw(self) -> None:
        """Switch between raw id numbers and friendly names."""
        self.raw = not self.raw

    def watch_raw(self, raw: bool) -> None:
        if not self.is_mounted:
            return
        if self.document.layout.aided:
            # The reading aids' rows hold names: lay them out again in the new naming.
            self._show_layout(None)
            self._build_reading_aids(raw)
        elif isinstance(self.document.layout, FoldedLayout):
            self._show_layout(None)  # the folds' summaries name their function or block
        self.query_one(InstructionList).raw = raw
        self.query_one(CfgView).set_graphs(self.function_graphs())
        self.screen.selection = self.screen.selection  # every pane shows the new naming
        if self.navigation.session.query is not None:
            self.navigation.session.start(self.document.parse_query(self.navigation.session.query.text, raw))
        self.build_index()

    # -- reading aids ----------------------------------------------------------------

    def action_toggle_reading_aids(self) -> None:
        """Switch between the plain disassembly and spirv-dis's reading aids."""
        if self.document.layout.aided:
            self._show_layout(None)
        elif self.document.instruction_count > READING_AIDS_LIMIT:
            self.notify(
                f"Reading aids lay out the whole module at once: offered up to {READING_AIDS_LIMIT:,} instructions",
                severity="warning",
            )
        else:
            self._build_reading_aids(self.raw)

    @work(thread=True, exclusive=True, group="reading-aids")
    def _build_reading_aids(self, raw: bool) -> None:
        layout = self.document.reading_aids_layout(raw)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_layout, layout)

    def _show_layout(self, layout: PlainLayout | None) -> None:
        """Show the rows of `layout` (None: plain), keeping the selected word and the folds."""
        kept = self.selection
        anchors = fold_anchors(self.document)
        self.document.use_layout(layout)
        if anchors:
            self.document.use_layout(refold(self.document, anchors, self.raw))
        self.navigation.session.forget_matches()
        self.query_one(InstructionList).rows_changed()
        self.show_diagnostics()
        if kept is not None:
            if kept.instruction is not None:
                self.screen.selection = self.document.select_instruction(kept.instruction, kept.operand)
            else:
                self.screen.selection = self.document.select_word(kept.word)

    # -- definitions, uses, search and the index ------------------------------------

    @on(GoToDefinition)
    def _go_to_definition(self, message: GoToDefinition) -> None:
        message.stop()
        self.navigation.go_to_definition()

    @on(ListUses)
    def _list_uses(self, message: ListUses) -> None:
        message.stop()
        self.navigation.list_uses()

    def action_search(self) -> None:
        """Open the search bar."""
        self.screen.query_one(SearchBar).open()

    def action_search_step(self, step: int) -> None:
        """Go to the next (1) or previous (-1) match of the last search."""
        self.navigation.search_step(step)

    def search(self, text: str) -> None:
        """Search for `text` (the search bar's)."""
        self.navigation.search(text)

    def pause_background(self, paused: bool) -> None:
        """The index worker rests while `paused` (`ModuleIndexing.pause`)."""
        self.indexing.pause(paused)

    def build_index(self) -> None:
        """(Re)start the whole-module index for the current naming."""
        self.indexing.build()

    @on(IndexProgress)
    def _index_progress(self, message: IndexProgress) -> None:
        self.indexing.progress(message)

    def on_unmount(self) -> None:
        self.indexing.stop()
