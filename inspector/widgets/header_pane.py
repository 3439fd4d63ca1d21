"""The header pane: the five header words with their offsets and meanings, and counts.

Beside the other panes it is compact (a line a field, the counts on a line or two);
zoomed, it spreads every field's offset and parts over lines of their own."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from spvinspect.document import Document
from spvinspect.messages import SelectWord
from spvinspect.codec.plural import noun
from spvinspect.widgets.kept_lines import KeptLines


class HeaderPane(KeptLines, Widget, can_focus=True):
    """Magic and byte order, version, generator, bound and schema, each with its word
    offset and hex value; then the module's counts. `enter` selects the field's word."""

    BINDINGS = [
        Binding("down,j", "move(1)", "Down", show=False, id="header.down", tooltip="Next header field"),
        Binding("up,k", "move(-1)", "Up", show=False, id="header.up", tooltip="Previous header field"),
        Binding("enter", "choose", "Select word", id="header.choose", tooltip="Select this header word in the other panes"),
    ]
    COMPONENT_CLASSES = {"header-pane--label", "header-pane--offset", "header-pane--value", "header-pane--cursor", "header-pane--problem"}
    """Field names, offsets, hex values, the cursor row, a field that is wrong."""

    cursor: reactive[int] = reactive(0)
    """The header field under the cursor."""
    progress: reactive[float | None] = reactive(None)
    """How far the whole-module index is, while it is being built; None when done."""

    def __init__(self, document: Document, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.document = document
        self.border_title = "Header"

    def show_document(self, document: Document) -> None:
        """Show `document` (an edit's): repainted only when what the pane shows of it
        differs (a keystroke that keeps the header and the counts repaints nothing here)."""
        shown = _shown_facts(self.document)
        self.document = document
        if _shown_facts(document) != shown:
            self.refresh()

    def action_move(self, step: int) -> None:
        """Move the cursor between header fields."""
        fields = len(self.document.header_fields())
        if fields:
            self.cursor = max(0, min(self.cursor + step, fields - 1))

    def action_choose(self) -> None:
        """Ask for the word under the cursor to be selected."""
        fields = self.document.header_fields()
        if fields:
            self.post_message(SelectWord(fields[self.cursor].word))

    def render(self) -> Group:
        if not self.has_class("-maximized"):
            return self._compact()
        style = self.get_component_rich_style
        fields = Table.grid(padding=(0, 1), expand=True)
        fields.add_column(no_wrap=True, width=9)
        fields.add_column(ratio=1)
        document = self.document
        for position, field in enumerate(document.header_fields()):
            row_style = style("header-pane--cursor") if self.has_focus and position == self.cursor else None
            problem = field.meaning.startswith(("not ", "reserved, should"))
            offset = Text.assemble(
                (f"{field.value:08x}", style("header-pane--value")),
                (f"  word {field.word}, byte {field.word * 4}", style("header-pane--offset")),
            )
            fields.add_row(Text(field.name, style("header-pane--label")), offset, style=row_style)
            if field.details:
                for label, text in field.details:
                    detail = Text.assemble((f"{label:<8}", style("header-pane--label")), text)
                    fields.add_row(Text(""), detail, style=row_style)
            else:
                meaning = Text(field.meaning, style("header-pane--problem") if problem else "")
                fields.add_row(Text(""), meaning, style=row_style)
        if not document.header_fields():
            fields.add_row(Text("no header: the file is shorter than one word", style("header-pane--problem")))
        return Group(fields, Text(""), self._counts())

    def _compact(self) -> Group:
        """A line a field (name, hex value, word, meaning), then the counts as one text."""
        style = self.get_component_rich_style
        fields = Table.grid(padding=(0, 1), expand=True)
        fields.add_column(no_wrap=True, width=9)
        fields.add_column(no_wrap=True)
        fields.add_column(ratio=1)
        document = self.document
        for position, field in enumerate(document.header_fields()):
            row_style = style("header-pane--cursor") if self.has_focus and position == self.cursor else None
            problem = field.meaning.startswith(("not ", "reserved, should"))
            meaning = " · ".join(text for _, text in field.details) if field.details else field.meaning
            value = Text.assemble((f"{field.value:08x}", style("header-pane--value")), (f" w{field.word}", style("header-pane--offset")))
            fields.add_row(
                Text(field.name, style("header-pane--label")),
                value,
                Text(meaning, style("header-pane--problem") if problem else ""),
                style=row_style,
            )
        if not document.header_fields():
            fields.add_row(Text("no header: shorter than one word", style("header-pane--problem")))
        return Group(fields, self._count_line())

    def _count_line(self) -> CountLine:
        """`199 instructions · 2 functions · 117/126 ids · 0 diagnostics · 4,040 bytes`."""
        document = self.document
        header = document.module.header
        ids = document.ids_defined
        ids_text = f"{ids:,}" if ids is not None else "…"
        parts = [
            (f"{document.instruction_count:,}", noun(document.instruction_count, "instruction")),
            (f"{document.function_count:,}", noun(document.function_count, "function")),
            (f"{ids_text}/{header.bound:,}" if header is not None else ids_text, "ids"),
            (f"{len(document.diagnostics):,}", noun(len(document.diagnostics), "diagnostic") + ("" if document.checked else " so far")),
            (f"{len(document.data):,}", noun(len(document.data), "byte")),
        ]
        if self.progress is not None:
            parts.append((f"{self.progress:.0%}", "indexed"))
        return CountLine(parts, self.get_component_rich_style("header-pane--label"))

    def _counts(self) -> Table:
        document = self.document
        style = self.get_component_rich_style
        counts = Table.grid(padding=(0, 1))
        counts.add_column(no_wrap=True)
        counts.add_column(no_wrap=True, justify="right")
        counts.add_column(no_wrap=True)
        header = document.module.header
        bound = f"of bound {header.bound:,}" if header is not None else ""
        ids = document.ids_defined
        pending = "…" if self.progress is not None else ""
        rows = [
            ("instructions", f"{document.instruction_count:,}", ""),
            ("functions", f"{document.function_count:,}", ""),
            ("ids defined", f"{ids:,}" if ids is not None else pending or "-", bound),
            ("diagnostics", f"{len(document.diagnostics):,}", "" if document.checked else "so far"),
            ("size", f"{len(document.data):,}", noun(len(document.data), "byte")),
        ]
        for label, value, note in rows:
            counts.add_row(Text(label, style("header-pane--label")), Text(value), Text(note, style("header-pane--offset")))
        if self.progress is not None:
            counts.add_row(Text("indexing", style("header-pane--label")), Text(f"{self.progress:.0%}"), Text(""))
        return counts

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class CountLine:
    """Counts as `value name` pairs on one line, broken between two counts (never inside
    one) at the width they are drawn in: the pane's width is known as it draws, not
    while it renders (asking for it then lays the whole screen out again)."""

    def __init__(self, parts: list[tuple[str, str]], label: Style) -> None:
        self.parts = parts
        self.label = label

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.text(max(options.max_width, 20))

    def text(self, width: int) -> Text:
        """The counts broken for `width` columns."""
        line = Text()
        column = 0
        for number, (value, name) in enumerate(self.parts):
            size = len(value) + 1 + len(name)
            if number:
                breaks = column + 3 + size > width
                line.append("\n" if breaks else " · ", self.label)
                column = 0 if breaks else column + 3
            line.append(value)
            line.append(f" {name}", self.label)
            column += size
        return line


def _shown_facts(document: Document) -> tuple:
    """What the pane shows of a document: its header words and its counts."""
    module = document.module
    return (tuple(module.words[:5]), document.instruction_count, len(module.functions()), document.ids_defined,
            len(document.diagnostics), document.checked, len(document.data))
