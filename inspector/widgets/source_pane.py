"""The source pane: the source text a SPIR-V module carries (OpSource, DebugSource), the
line of the selected instruction highlighted; choosing a line selects its instructions."""

from __future__ import annotations

from functools import lru_cache

from pygments.lexers import get_lexer_by_name
from pygments.token import Token
from pygments.util import ClassNotFound
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.strip import Strip
from textual.content import Content

from spvinspect.codec.source_map import SourceMap, source_map
from spvinspect.messages import SelectInstruction
from spvinspect.screens.panes import BuiltPane
from spvinspect.selection import Selection
from spvinspect.themes import token_style
from spvinspect.widgets.border_text import set_border_subtitle, set_border_subtitle_alone, set_border_title
from spvinspect.widgets.row_keys import row_move_bindings
from spvinspect.widgets.row_list import RowCursorKeys, RowList

READ_AT_ONCE = 200_000
"""Instructions up to which the source map is read when the pane first needs it (a scan
of the whole module); a bigger module is read in a worker."""
LEXERS = {"GLSL": "glsl", "ESSL": "glsl", "HLSL": "hlsl", "OpenCL_C": "c", "OpenCL_CPP": "cpp", "CPP_for_OpenCL": "cpp",
          "WGSL": "rust", "Slang": "hlsl"}
"""SourceLanguage → the Pygments lexer that colours it (WGSL's nearest is Rust's)."""


class SourcePane(BuiltPane, RowCursorKeys, RowList):
    """One source file's lines with their numbers; `•` marks lines tied to instructions."""

    GUTTER_WIDTH = 7
    DEFAULT_CSS = """
    SourcePane { height: 1fr; border: round $border-blurred; border-title-color: $text-muted;
                 border-subtitle-color: $text-muted; background: $background; scrollbar-size-vertical: 1; }
    SourcePane:focus { border: round $primary; border-title-color: $text; border-subtitle-color: $text; }
    SourcePane > .source-pane--gutter { color: $foreground-darken-3; }
    SourcePane > .source-pane--mark { color: $accent; }
    SourcePane > .source-pane--current { background: $hex-selection-background; }
    SourcePane > .source-pane--cursor { background: $boost; }
    SourcePane:focus > .source-pane--cursor { text-style: reverse; }
    SourcePane > .source-pane--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"source-pane--gutter", "source-pane--mark", "source-pane--current", "source-pane--cursor",
                         "source-pane--muted"}
    """Line numbers, the mark of a line with instructions, the selected instruction's line,
    the pane's own cursor, the message of a module without source."""
    BINDINGS = [
        *row_move_bindings("source", "source line"),
        Binding("home,g", "edge(0)", "First line", show=False, id="source.first", tooltip="The first line"),
        Binding("end,G", "edge(1)", "Last line", show=False, id="source.last", tooltip="The last line"),
        Binding("enter", "choose", "Select", id="source.choose", tooltip="Select the first instruction of the line under the cursor"),
        Binding("n", "cycle(1)", "Next instr", id="source.next", tooltip="Select the line's next instruction (round)"),
        Binding("N", "cycle(-1)", "Prev instr", show=False, id="source.previous", tooltip="Select the line's previous instruction (round)"),
        Binding("f", "next_file", "File", show=False, id="source.file", tooltip="Show the module's next source file"),
    ]

    def __init__(self, document) -> None:
        super().__init__()
        self.border_title = "Source"
        self._document = document
        self._map: SourceMap | None = None
        self._file = 0
        self._cursor = 0
        """The line under the pane's cursor (index from 0)."""
        self._current: int | None = None
        """The selected instruction's line (index from 0), when it is in the shown file."""
        self._instruction: int | None = None
        self._reading = False
        self._sized_for: tuple[int, int] | None = None
        """The source map and file the virtual size was set for."""
        self._strips: LRUCache[tuple, Strip] = LRUCache(256)
        """Lines drawn, by everything that decides how they look (`render_row`)."""
        self._behind = False
        """The selection moved while the pane was hidden: it has not followed."""

    # -- what the screen tells ---------------------------------------------------------

    def follow_selection(self, selection: Selection) -> None:
        self._instruction = selection.instruction
        if not self.display:
            # Hidden (x): it follows when it is shown again (`on_show`).
            self._behind = True
            return
        if self._map is None:
            self._read()
            return
        self._follow()

    def document_changed(self, document) -> None:
        self._document = document
        self._map = None
        if self.display:
            self._read()

    def on_show(self) -> None:
        behind, self._behind = self._behind, False
        if self._map is None:
            self._read()
        elif behind:
            self._follow()

    def on_resize(self) -> None:
        # Zoomed back, or the screen resized: the highlighted line stays in view.
        self.call_after_refresh(self.scroll_to_row, self._cursor, True)

    @property
    def sources(self) -> SourceMap | None:
        """The module's source files and line table, once read."""
        return self._map

    @property
    def cursor_line(self) -> int:
        """The line under the pane's cursor, from 1."""
        return self._cursor + 1

    @property
    def current_line(self) -> int | None:
        """The line of the selected instruction in the shown file, from 1."""
        return None if self._current is None else self._current + 1

    def _read(self) -> None:
        document = self._document
        if self._map is not None:
            return
        if document.instruction_count <= READ_AT_ONCE:
            self._reading = False
            self._take(source_map(document.module.instructions()))
        elif not any(w.group == "source-map" for w in self.workers):
            self._reading = True
            self.border_subtitle = "reading the line directives…"
            self.run_worker(lambda: source_map(document.module.instructions()), name="source map", thread=True,
                            group="source-map", exclusive=True)

    def on_worker_state_changed(self, event) -> None:
        if event.worker.group == "source-map" and event.worker.is_finished:
            self._reading = False
            if event.worker.result is not None:
                self._take(event.worker.result)
            elif event.worker.error is not None:
                self.border_subtitle = Content(f"could not read the line directives: {event.worker.error}")

    def _take(self, sources: SourceMap) -> None:
        self._map = sources
        self._strips.clear()
        self._file = 0
        self._follow()

    def _follow(self) -> None:
        sources = self._map
        before = (self._current, self._cursor)
        location = sources.location(self._instruction) if sources and self._instruction is not None else None
        if location is not None:
            if location.file != self._file:
                self._file = location.file
            self._current = location.line - 1
            self._cursor = min(max(0, self._current), max(0, self.row_count - 1))
        else:
            self._current = None
        self._describe()
        if self._sized_for != (id(sources), self._file):
            self.reset_rows()  # another file: a new virtual size (which lays the screen out again)
            self.call_after_refresh(self.scroll_to_row, self._cursor, True)
            return
        if (self._current, self._cursor) != before:
            self.refresh_rows((*before, self._current, self._cursor))
        if self.size.height:
            self.scroll_to_row(self._cursor, True)  # in this frame, not one after it
        else:
            self.call_after_refresh(self.scroll_to_row, self._cursor, True)

    def _describe(self) -> None:
        """The file in the title, the selected instruction's line in the subtitle (which
        changes with each step: its border line alone is repainted)."""
        sources = self._map
        if not sources:
            set_border_title(self, "Source")
            set_border_subtitle(self, "")
            return
        shown = sources.files[self._file]
        more = f" ({self._file + 1}/{len(sources.files)}, f: next)" if len(sources.files) > 1 else ""
        set_border_title(self, f"Source · {shown.name}{more}")
        if self._instruction is None or self._current is None:
            set_border_subtitle_alone(self, "no line for this instruction")
            return
        tied = sources.instructions(self._file, self._current + 1)
        place = f" · instruction {tied.index(self._instruction) + 1}/{len(tied)} of it" if self._instruction in tied else ""
        set_border_subtitle_alone(self, f"line {self._current + 1}{place}")

    # -- drawing -------------------------------------------------------------------------

    def reset_rows(self) -> None:
        """The virtual width is the file's widest line (known at once: the scrollbar does
        not change with the lines drawn so far)."""
        sources = self._map
        lines = sources.files[self._file].lines if sources else []
        widest = max((cell_len(line.expandtabs(4)) for line in lines), default=self.START_WIDTH)
        self.virtual_size = Size(self.GUTTER_WIDTH + widest, self.row_count)
        self._sized_for = (id(sources), self._file)
        self.refresh()

    def note_width(self, cells: int) -> None:
        """The width is known from the text (`reset_rows`)."""

    @property
    def row_count(self) -> int:
        sources = self._map
        if not sources:
            return 1
        return max(1, len(sources.files[self._file].lines))

    @property
    def cursor_row(self) -> int | None:
        return self._cursor

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        component = self.memo_style
        sources = self._map
        if sources is None and not self._reading:
            # Drawn means shown (a Show event does not always come when a zoom shows it).
            self._reading = True
            self.call_later(self._read)
        if not sources or not sources.files[self._file].lines:
            message = self._empty_message()
            return Strip([Segment(message, component("source-pane--muted"))]).crop(scroll_x, scroll_x + width).extend_cell_length(width).apply_style(base)
        app = self.app
        theme, dark = app.theme, app.current_theme.dark
        current = component("source-pane--current") if row == self._current else None
        cursor = component("source-pane--cursor") if row == self._cursor else None
        key = (id(sources), self._file, row, current, cursor, scroll_x, width, base, theme, dark,
               component("source-pane--gutter"), component("source-pane--mark"))
        line = self._strips.get(key)
        if line is None:
            line = self._strips[key] = self._line(sources, row, scroll_x, width, base, theme, dark, current, cursor)
        return line

    def _line(self, sources: SourceMap, row: int, scroll_x: int, width: int, base: Style, theme: str, dark: bool,
              current: Style | None, cursor: Style | None) -> Strip:
        """Line `row` of the shown file drawn: its number, its mark, its coloured text;
        the `current` and `cursor` styles when it is the selected instruction's line or
        under the pane's cursor."""
        component = self.memo_style
        shown = sources.files[self._file]
        tied = row + 1 in shown.lines_to_instructions
        gutter = Strip([
            Segment(f"{row + 1:>5}", component("source-pane--gutter")),
            Segment("•" if tied else " ", component("source-pane--mark")),
            Segment(" "),
        ])
        text = Strip(list(_coloured(shown.language.split(" ")[0], shown.text, theme, dark)[row]))
        line = Strip.join([gutter, text.crop(scroll_x, scroll_x + width - self.GUTTER_WIDTH)]).extend_cell_length(width)
        if current is not None:
            line = line.apply_style(current)
        if cursor is not None:
            line = line.apply_style(cursor)
        return line.apply_style(base)

    def notify_style_update(self) -> None:
        self._strips.clear()
        super().notify_style_update()

    def _empty_message(self) -> str:
        sources = self._map
        if sources is None:
            return "reading the line directives…"
        if not sources:
            return "This module carries no source (no OpSource text, no DebugSource; glslang's -g embeds it)."
        shown = sources.files[self._file]
        return f"The module names {shown.name} {shown.language} but carries none of its text."

    # -- keys ------------------------------------------------------------------------------

    def action_choose(self) -> None:
        """Select the first instruction tied to the cursor's line."""
        tied = self._tied(self._cursor)
        if not tied:
            self.notify(f"Line {self._cursor + 1} has no instructions.", severity="warning")
            return
        self.post_message(SelectInstruction(tied[0], jump=True))

    def action_cycle(self, step: int) -> None:
        """Select the next (or previous) instruction of the cursor's line, round."""
        tied = self._tied(self._cursor)
        if not tied:
            self.notify(f"Line {self._cursor + 1} has no instructions.", severity="warning")
            return
        at = tied.index(self._instruction) + step if self._instruction in tied else (0 if step > 0 else -1)
        self.post_message(SelectInstruction(tied[at % len(tied)], jump=False))

    def action_next_file(self) -> None:
        """Show the module's next source file."""
        if self._map and len(self._map.files) > 1:
            self._file = (self._file + 1) % len(self._map.files)
            self._cursor = 0
            self._follow_file()

    def _follow_file(self) -> None:
        location = self._map.location(self._instruction) if self._instruction is not None else None
        self._current = location.line - 1 if location is not None and location.file == self._file else None
        self._describe()
        self.reset_rows()
        self.scroll_to(y=0, animate=False)

    def _tied(self, row: int) -> list[int]:
        return self._map.instructions(self._file, row + 1) if self._map else []


@lru_cache(maxsize=8)
def _coloured(language: str, text: str, theme: str, dark: bool) -> list[list[Segment]]:
    """The text's lines as segments coloured by the language's lexer under the theme."""
    lines: list[list[Segment]] = [[]]
    try:
        lexer = get_lexer_by_name(LEXERS[language], stripnl=False, ensurenl=False)
        tokens = lexer.get_tokens(text)
    except (KeyError, ClassNotFound):
        tokens = [(Token.Text, text)]
    styles: dict = {}
    for token, value in tokens:
        style = styles.get(token)
        if style is None:
            style = styles[token] = token_style(theme, dark, token)
        parts = value.expandtabs(4).split("\n")
        for number, part in enumerate(parts):
            if number:
                lines.append([])
            if part:
                lines[-1].append(Segment(part, style))
    return lines
