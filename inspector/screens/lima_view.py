"""Lima mode on the one screen: one Mali-200/400 PP program, instruction by instruction,
bit by bit.

The panes post intents (an instruction, a field's bits, a byte of the header, a word of
the hex pane) and the view turns them into the screen's selection, then every pane
follows. Layout: the header, the instruction list and the hex pane in the left column,
the breakdown (and the diagnostics, when there are any) in the right one. Below 100
columns the list sits over the breakdown and the other panes are one key away, zoomed to
the whole screen.
"""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.content import Content

from spvinspect.formats.lima_panes import LIMA_PANES
from spvinspect.lima_document import LimaDocument
from spvinspect.screens.editing import EDIT_BINDINGS
from spvinspect.screens.panes import pane_bindings
from spvinspect.screens.view import FormatView
from spvinspect.selection import Selection
from spvinspect.widgets.diagnostics_panel import DiagnosticsPanel
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.lima_breakdown import Entry, LimaBreakdown
from spvinspect.widgets.lima_header import LimaHeader
from spvinspect.widgets.lima_list import LimaInstructionList
from spvinspect.widgets.status_line import StatusLine
from spvinspect.codec.plural import counted

PROGRAM_BINDINGS = [
    # Priority, as the stepping keys (`run_keys`): acted on as the key arrives, not after it
    # travelled up from the focused pane; no pane binds them, a text field still types them.
    Binding("n", "step(1)", "Next", show=False, priority=True, id="lima_screen.next", tooltip="Next instruction, from any pane"),
    Binding("p", "step(-1)", "Previous", show=False, priority=True, id="lima_screen.previous", tooltip="Previous instruction, from any pane"),
    Binding("backspace,ctrl+o,alt+left", "back", "Back", id="lima_screen.back", tooltip="Back to where the last jump left"),
    Binding("m", "toggle_style", "Mesa/seed", id="lima_screen.toggle_style", tooltip="Switch between the seed-004 syntax and Mesa's, from any pane"),
    Binding("colon", "goto", "Go to", id="lima_screen.goto", tooltip="Go to an instruction index, from any pane"),
    Binding("ctrl+n,alt+right", "forward", "Forward", show=False, id="lima_screen.forward", tooltip="Forward again after going back"),
    Binding("z", "zoom", "Zoom", id="lima_screen.zoom", tooltip="Zoom the focused pane to the whole screen, or back"),
    *pane_bindings(LIMA_PANES, "lima_screen"),
]


def bit_ranges_text(cell: int, mask: int) -> str:
    """`w5[10:0]`: a word and the runs of bits set in `mask`, highest first."""
    runs = []
    bit = 31
    while bit >= 0:
        if mask >> bit & 1:
            high = bit
            while bit >= 0 and mask >> bit & 1:
                bit -= 1
            low = bit + 1
            runs.append(f"{high}" if high == low else f"{high}:{low}")
        else:
            bit -= 1
    return f"w{cell}[{','.join(runs)}]"


def _where(hex_view: HexView) -> str:
    """Every word and bit the hex pane picks out, as `w5[10:0] w6[3:0]`."""
    return " ".join(bit_ranges_text(cell, mask) for cell, mask in sorted(hex_view.bit_masks.items()))


class LimaView(FormatView):
    """Header, instruction list, hex pane, breakdown and diagnostics over one PP program."""

    SCREEN_BINDINGS = [*EDIT_BINDINGS, *PROGRAM_BINDINGS]
    COLUMN_IDS = ("lima-left", "lima-right")

    def __init__(self, document: LimaDocument, *, at: int | None = None, raw: bool = False) -> None:
        """`raw` (raw id numbers) has no meaning for a PP program, which has no ids."""
        super().__init__(document, at=at, id="lima-panes")
        self._picking = False
        """True once the user chose a range in the breakdown: the hex pane then shows its
        bits, for each instruction stepped to."""
        self._cell: int | None = None
        """Where the hex cursor goes with the next selection (else its first chosen bit's
        or the instruction's first word)."""

    @property
    def selected(self) -> int | None:
        """The selected instruction (the screen's selection's)."""
        selection = self.screen.selection
        return None if selection is None else selection.instruction

    def first_selection(self) -> Selection | None:
        diagnostics = self.document.located_diagnostics
        panel = self.query_one(DiagnosticsPanel)
        panel.show_diagnostics(list(diagnostics))
        panel.set_class(not diagnostics, "-empty")
        self.query_one(LimaInstructionList).border_subtitle = Content(self.document.name)
        start = 0
        self._outside = None
        if self._at is not None:
            found = self.document.instruction_at_byte(4 * self._at)
            if found is None:
                self._outside = self.document.hex_word_of_file_word(self._at)
            else:
                start = found
        return self.selection_of(start) if self.document.instructions else None

    def started(self) -> None:
        hex_view = self.query_one(HexView)
        self.call_after_refresh(hex_view.scroll_to_cursor)  # once the pane has its size
        if self._outside is not None:
            hex_view.show_word(self._outside)
            self.notify(f"Byte 0x{4 * self._at:x} is not in the code: the hex pane shows it", timeout=5)
        instruction_list = self.query_one(LimaInstructionList)
        for name in ("style", "step_unit"):
            self.watch(instruction_list, name, lambda _: self._update_status(), init=False)
        instruction_list.focus()
        self._update_status()

    # -- the selection ----------------------------------------------------------

    def selection_of(self, index: int) -> Selection:
        """The selection of instruction `index` (its row and instruction are the index)."""
        return Selection(word=self.document.instructions[index].word_offset, row=index, instruction=index)

    def select_instruction(self, index: int, jump: bool = False, cell: int | None = None) -> None:
        """Ask for instruction `index`; the hex cursor goes to `cell`, else to the first
        word of the chosen bits or instruction."""
        self._cell = cell
        self.select(self.selection_of(index), jump)

    def show(self, selection: Selection, center: bool) -> None:
        index = selection.instruction
        cell, self._cell = self._cell, None
        self.query_one(LimaInstructionList).show(index, center)
        breakdown = self.query_one(LimaBreakdown)
        breakdown.show(self.document.breakdown(index))
        hex_view = self.query_one(HexView)
        hex_view.highlight(self.document.hex_instruction_words(index))
        masks = self._chosen_masks(breakdown.selected)
        hex_view.highlight_bits(masks)
        if cell is None:
            cell = min(masks) if masks else self.document.hex_instruction_words(index).start
        hex_view.show_word(cell, center)
        self._update_status()
        self.call_after_refresh(self._prepare_next_to, index)

    def _prepare_next_to(self, index: int) -> None:
        """Once the selection is drawn: the breakdowns of the instructions before and after
        it, and the list's rows around it highlighted, so that the next step or move shows
        them without working them out."""
        if self.selected != index:
            return
        breakdown = self.query_one(LimaBreakdown)
        for near in (index + 1, index - 1):
            if 0 <= near < len(self.document.instructions):
                breakdown.prepare(self.document.breakdown(near))
        self.query_one(LimaInstructionList).prepare_rows_near(index)

    def _chosen_masks(self, entry: Entry | None) -> dict[int, int]:
        if not self._picking or entry is None:
            return {}
        return self.document.hex_bits(entry.bits)

    @on(LimaInstructionList.InstructionSelected)
    def _instruction_selected(self, message: LimaInstructionList.InstructionSelected) -> None:
        message.stop()
        self.select_instruction(message.index, message.jump)

    def selection_of_instruction(self, index: int, operand: int | None = None) -> Selection | None:
        if 0 <= index < len(self.document.instructions):
            return self.selection_of(index)
        return None

    def selection_of_row(self, row: int, operand: int | None = None) -> Selection | None:
        return self.selection_of_instruction(row)

    def selection_of_word(self, word: int) -> Selection | None:
        index = self.document.instruction_at_byte(4 * word)
        return None if index is None else self.selection_of(index)

    @on(LimaBreakdown.FieldSelected)
    def _field_selected(self, message: LimaBreakdown.FieldSelected) -> None:
        message.stop()
        self._picking = True
        masks = self.document.hex_bits(message.bits)
        hex_view = self.query_one(HexView)
        hex_view.highlight_bits(masks)
        if masks:
            hex_view.show_word(min(masks))
        self._update_status()

    @on(LimaHeader.ByteSelected)
    def _byte_selected(self, message: LimaHeader.ByteSelected) -> None:
        message.stop()
        self._go_to_file_word(message.byte_offset // 4, message.byte_offset)

    @on(DiagnosticsPanel.Chosen)
    def _diagnostic_chosen(self, message: DiagnosticsPanel.Chosen) -> None:
        message.stop()
        self._go_to_file_word(message.word, 4 * message.word)

    def _go_to_file_word(self, file_word: int, byte_offset: int) -> None:
        """Select the instruction holding a byte of the file, the hex cursor on its word."""
        cell = self.document.hex_word_of_file_word(file_word)
        index = self.document.instruction_at_byte(byte_offset)
        if index is not None:
            self.select_instruction(index, jump=True, cell=cell)
        elif cell is not None:
            self.query_one(HexView).show_word(cell)
            self._update_status()

    @on(HexView.WordSelected)
    def _word_selected(self, message: HexView.WordSelected) -> None:
        message.stop()
        index = self.document.instruction_at_hex_word(message.word)
        if index is not None and index != self.selected:
            self.select_instruction(index, message.jump, cell=message.word)
        else:
            self._update_status()

    @on(HexView.CardRequested)
    def _card_requested(self, message: HexView.CardRequested) -> None:
        message.stop()
        self.notify("Grammar cards are for SPIR-V: the breakdown (5) explains every bit of a PP instruction", timeout=4)

    def _update_status(self) -> None:
        status = self.screen.query_one(StatusLine)
        document = self.document
        instruction_list = self.query_one(LimaInstructionList)
        hex_view = self.query_one(HexView)
        index = self.selected
        count = len(document.instructions)
        if index is None:
            status.place = f"no instructions decoded · {counted(len(document.located_diagnostics), 'diagnostic')}"
        else:
            instr = document.instructions[index]
            byte = document.code_byte_offset + 4 * instr.word_offset
            status.place = f"instruction {index}/{count - 1}  w{instr.word_offset} @{byte:#06x}  {counted(len(instr.words), 'word')}"
        status.detail = self._detail_text(hex_view)
        subtitle = self._bits_text(hex_view)
        if subtitle != (hex_view.border_subtitle or ""):
            hex_view.border_subtitle = subtitle  # setting it repaints the whole pane
        unit = f" · step unit {instruction_list.step_unit}" if instruction_list.step_unit else ""
        status.mode = f"{instruction_list.style} syntax{unit}"

    def _picked(self) -> Entry | None:
        """The strip or range whose bits the hex pane shows, if the user chose one."""
        return self.query_one(LimaBreakdown).selected if self._picking else None

    def _bits_text(self, hex_view: HexView) -> str:
        """`op · w2[10:6]`: the picked range and exactly its bits, for the hex pane's border."""
        entry = self._picked()
        if entry is None or not hex_view.bit_masks:
            return ""
        where = _where(hex_view)
        return f"{entry.strip.name if entry.label is None else entry.label.name} · {where}"

    def _detail_text(self, hex_view: HexView) -> str:
        entry = self._picked()
        if entry is None:
            return ""
        where = _where(hex_view)
        if entry.label is None:
            return f"{entry.strip.name} · {entry.strip.width} bits · {where}"
        label = entry.label
        meaning = f" {label.meaning}" if label.meaning else ""
        return f"{entry.strip.name}.{label.name} = {label.value_text}{meaning} · {where}"

    def copy_choices(self):
        """What ctrl+c offers for the selected instruction, in the list's syntax."""
        from spvinspect.copying import lima_choices

        return lima_choices(self.document, self.selected, self.query_one(LimaInstructionList).style)

    # -- editing ------------------------------------------------------------------

    def new_edit_session(self, document):
        """The editor opens in the syntax the list shows (seed or Mesa's)."""
        return document.open_edit_session(self.query_one(LimaInstructionList).style)

    def before_edit(self, editing) -> None:
        """`e` opens the editor in the list's syntax: a session in the other syntax with
        nothing unsaved is opened again; one with unsaved edits keeps its syntax (and says so)."""
        session = editing.edit_session
        style = self.query_one(LimaInstructionList).style
        if session is not None and session.assembler.style != style and not (editing.editor is not None and editing.editor.display):
            if session.modified:
                self.notify(f"The editor stays in the {session.assembler.style} syntax its unsaved edits are in "
                            f"(save them, and e opens it in the {style} syntax)", timeout=6)
            else:
                editing.drop_edit_session()

    def editor_line(self, session) -> int:
        """The whole text's line of the selected instruction."""
        return session.line_of(self.selected or 0)

    def editor_selection(self, session, line: int) -> Selection | None:
        """The instruction on the editor's line."""
        index = session.location_of_line(line)
        if index is not None and index < len(self.document.instructions):
            return self.selection_of(index)
        return None

    def show_document(self, document: LimaDocument) -> None:
        """The panes over the edited program."""
        self.document = document
        words, trailing = document.hex_words()
        tail = document.hex_word(document.decoded_words) if document.program.trailing_words else None
        self.query_one(HexView).load(words, trailing_bytes=trailing, tail_offset=tail)
        self.query_one(LimaInstructionList).show_document(document)
        self.query_one(LimaHeader).show_document(document)
        panel = self.query_one(DiagnosticsPanel)
        panel.show_diagnostics(list(document.located_diagnostics))
        panel.set_class(not document.located_diagnostics, "-empty")

    def after_edit(self, session, line: int | None, kept: Selection | None) -> Selection | None:
        """The instruction on the editor's line (or the same one)."""
        kept_index = kept.instruction if kept is not None else None
        index = (session.location_of_line(line if line is not None else 0) if session is not None else kept_index) or 0
        if not self.document.instructions:
            return None
        return self.selection_of(min(index, len(self.document.instructions) - 1))

    # -- keys that work from any pane ----------------------------------------------

    def action_step(self, step: int) -> None:
        """Select the next or previous instruction."""
        self.query_one(LimaInstructionList).action_step(step)

    def action_goto(self) -> None:
        """Ask for an instruction index and go there."""
        self.query_one(LimaInstructionList).action_goto()

    def action_toggle_style(self) -> None:
        """Switch between the seed-004 syntax and Mesa's."""
        self.query_one(LimaInstructionList).action_toggle_style()

    # -- panes ----------------------------------------------------------------

    def can_show(self, name: str) -> bool:
        if name == "diagnostics" and not self.document.located_diagnostics:
            self.notify("No diagnostics: the program decodes cleanly", timeout=3)
            return False
        return True
