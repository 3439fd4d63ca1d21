"""The side-by-side comparison of two modules (or two Lima programs): A's and B's
instruction lists, aligned row by row and scrolling together, with a hex pane under
each; one cursor row for both (a side without an instruction on it shows its nearest
one), differences marked, `n` / `N` to the next or previous difference, and a summary.

The comparison is made in a thread worker, with its progress on screen, so a large
module leaves the app answering keys. Opened by `spvinspect A --diff B` (the first
screen) or from the editor (`f3`: the edit against the file on disk, or its `.bak`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker
from textual.content import Content

from spvinspect.formats.comparison import A, B, Comparison
from spvinspect.formats.panes import PaneSpec
from spvinspect.widgets.diff_hex import DiffHexView
from spvinspect.widgets.diff_list import DiffList
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.key_footer import KeyFooter
from spvinspect.widgets.status_line import StatusLine

NARROW = 100
"""Below this many columns the hex panes take the lists' place (`x`) instead of
sitting under them."""
PROGRESS_EVERY = 0.1
"""Seconds between two progress reports from the worker."""

Make = Callable[[Callable[[str, int, int], None]], Comparison]
"""Builds a comparison (on the worker thread), told how to report progress."""

DIFF_PANES = (
    PaneSpec(
        "diff-lists",
        "Side by side",
        "A's instructions on the left, B's on the right, aligned: a row shows the same "
        "instruction on both sides, or a gap where only one side has it. The gutter marks "
        "each difference: + added, - removed, ~ changed (its differing words in the hex "
        "pane), » a block that moved. B's ids are named after their partners in A.",
        selector="DiffList",
    ),
    PaneSpec(
        "diff-hex",
        "Hex of each side",
        "Each file's words; the selected instruction framed, added, removed and changed "
        "words in their colours. Moving the cursor here selects its instruction on both sides.",
        selector="DiffHexView",
    ),
)


def _bring_into_view(hex_view: HexView, words: range) -> None:
    """Scroll a hex pane so that all of an instruction's words are on screen (its first
    row at the top when it is taller than the pane)."""
    per_row = hex_view.words_per_row
    first, last = words.start // per_row, (words.stop - 1) // per_row
    height = hex_view.scrollable_content_region.height
    top = round(hex_view.scroll_offset.y)
    if height and not (top <= first and last < top + height):
        hex_view.scroll_to(y=max(0, min(first, (first + last) // 2 - height // 2)), animate=False, immediate=True)


class SummaryScreen(ModalScreen[None]):
    """The whole summary of a comparison, as `spvinspect diff` prints it."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > Static {
        width: auto; max-width: 95%; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [Binding("escape,s,q", "close", "Close", id="diff-summary.close", tooltip="Back to the comparison")]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        body = Static("\n".join(self.lines), markup=False)
        body.border_title = "Summary (escape closes)"
        yield body

    def action_close(self) -> None:
        self.dismiss()


class DiffScreen(Screen):
    """Two documents side by side (see the module's docstring)."""

    PANE_SPECS = DIFF_PANES
    DEFAULT_CSS = """
    DiffScreen { layout: vertical; }
    DiffScreen #diff-summary { height: 1; padding: 0 1; background: $panel; color: $text; }
    DiffScreen #diff-loading { height: 1fr; align: center middle; }
    DiffScreen #diff-loading Static { width: auto; }
    DiffScreen #diff-sides { height: 1fr; }
    DiffScreen .diff-side { width: 1fr; }
    DiffScreen DiffList, DiffScreen DiffHexView {
        border: round $border-blurred;
        border-title-color: $text-muted;
        background: $background;
    }
    DiffScreen DiffList:focus, DiffScreen DiffHexView:focus {
        border: round $primary;
        border-title-color: $text;
    }
    DiffScreen DiffList { height: 1fr; }
    DiffScreen DiffHexView { height: 40%; scrollbar-size-vertical: 1; }
    DiffScreen.-hex-off DiffHexView { display: none; }
    DiffScreen.-hex-only DiffList { display: none; }
    DiffScreen.-hex-only DiffHexView { height: 1fr; }
    """
    BINDINGS = [
        Binding("n", "difference(1)", "Next diff", id="diff.next", tooltip="The next difference (a run of rows that differ is one)"),
        Binding("N", "difference(-1)", "Previous diff", id="diff.previous", tooltip="The previous difference"),
        Binding("s", "summary", "Summary", id="diff.summary", tooltip="Every count: per section and function (SPIR-V), per unit (Lima)"),
        Binding("x", "hex", "Hex", id="diff.hex", tooltip="Show or hide the hex panes (narrow: in place of the lists)"),
        Binding("f3", "other", "Other file", id="diff.other", tooltip="Compare with the next file offered (the file on disk, its .bak)"),
        Binding("escape", "close", "Back", id="diff.close", tooltip="Back to the screen the comparison was opened from"),
    ]

    def __init__(self, choices: Sequence[tuple[str, Make]], *, closable: bool = False) -> None:
        """`choices`: what to compare, (title, how to make it), the first shown first;
        `f3` goes to the next. `closable`: escape goes back (opened over another screen)."""
        super().__init__()
        self.choices = list(choices)
        self.choice = 0
        self.closable = closable
        self.comparison: Comparison | None = None
        """The comparison shown, once made."""
        self.row = 0
        """The shared cursor row."""
        self.problem: str | None = None
        """Why the comparison could not be made, if it could not."""
        self._user_hex: bool | None = None

    # -- building --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self.choices[self.choice][0], id="diff-summary", markup=False)
        with Vertical(id="diff-loading"):
            yield Static("Comparing…", id="diff-progress-text", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="diff-progress")
        yield StatusLine()
        yield KeyFooter()

    def on_mount(self) -> None:
        self._compare()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other":
            return len(self.choices) > 1
        if action == "close":
            return self.closable
        if action in ("difference", "summary", "hex"):
            return self.comparison is not None
        return True

    @work(thread=True, exclusive=True, group="diff")
    def _compare(self) -> None:
        worker = get_current_worker()
        title, make = self.choices[self.choice]
        last = 0.0

        def progress(step: str, done: int, of: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY and not worker.is_cancelled:
                last = now
                self.app.call_from_thread(self._progress, step, done, of)

        try:
            comparison = make(progress)
        except Exception as error:  # noqa: BLE001 - any failure is a message, never a traceback
            if not worker.is_cancelled:
                self.app.call_from_thread(self._failed, f"{title}: could not compare: {type(error).__name__}: {error}")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, comparison)

    def _progress(self, step: str, done: int, of: int) -> None:
        text = f"Comparing… {step}" + (f" {done:,} of {of:,}" if of > 1 else "")
        self.query_one("#diff-progress-text", Static).update(text)
        bar = self.query_one("#diff-progress", ProgressBar)
        if of > 1:
            bar.update(total=of, progress=done)

    def _failed(self, message: str) -> None:
        self.problem = message
        self.query_one("#diff-progress-text", Static).update(message)
        self.query_one("#diff-progress", ProgressBar).display = False
        self.notify(message, severity="error", timeout=12, markup=False)

    async def _show(self, comparison: Comparison) -> None:
        self.comparison = comparison
        self.problem = None
        for old in self.query("#diff-sides, #diff-loading"):
            await old.remove()
        lists = [DiffList(comparison, side, id=f"list-{'ab'[side]}") for side in (A, B)]
        hexes = [DiffHexView(comparison, side, id=f"hex-{'ab'[side]}") for side in (A, B)]
        lists[A].partner, lists[B].partner = lists[B], lists[A]
        columns = []
        for side in (A, B):
            lists[side].border_title = Content(f"{'AB'[side]}: {comparison.names[side]}")
            columns.append(Vertical(lists[side], hexes[side], classes="diff-side"))
        await self.mount(Horizontal(*columns, id="diff-sides"), before=self.query_one(StatusLine))
        self._lay_out_hex()
        title = self.choices[self.choice][0]
        self.query_one("#diff-summary", Static).update(f"{title} · {comparison.summary_line()}")
        first = comparison.next_difference(-1)
        self.row = first if first is not None else 0
        lists[A].focus()
        # Once laid out: centring needs the lists' height.
        self.call_after_refresh(self.select_row, self.row, True)
        self.refresh_bindings()

    # -- layout ----------------------------------------------------------------------

    def on_resize(self) -> None:
        self._lay_out_hex()

    def _lay_out_hex(self) -> None:
        """Wide: the hex panes under the lists (unless hidden with `x`); narrow: hidden,
        or in the lists' place."""
        narrow = self.size.width < NARROW
        shown = self._user_hex if self._user_hex is not None else not narrow
        self.set_class(not shown, "-hex-off")
        self.set_class(shown and narrow, "-hex-only")

    def action_hex(self) -> None:
        """Show or hide the hex panes."""
        narrow = self.size.width < NARROW
        shown = self._user_hex if self._user_hex is not None else not narrow
        self._user_hex = not shown
        self._lay_out_hex()
        if self._user_hex and narrow:
            self.query_one("#hex-a", DiffHexView).focus()
        elif not self._user_hex and self.focused is not None and isinstance(self.focused, HexView):
            self.query_one("#list-a", DiffList).focus()
        self.call_after_refresh(self.select_row, self.row)

    # -- the selection -----------------------------------------------------------------

    def select_row(self, row: int, center: bool = False, hex_word: tuple[int, int] | None = None) -> None:
        """Put both sides on `row`: the lists' cursor, and each hex pane on its side's
        instruction there (the nearest one for a gap). `hex_word`: (side, word) keeps that
        hex pane's cursor on the word the user chose."""
        comparison = self.comparison
        if comparison is None or not comparison.row_count:
            return
        self.row = row = max(0, min(row, comparison.row_count - 1))
        for side in (A, B):
            self.query_one(f"#list-{'ab'[side]}", DiffList).show_row(row, center)
            hex_view = self.query_one(f"#hex-{'ab'[side]}", DiffHexView)
            index = comparison.nearest(side, row)
            if index is None:
                hex_view.highlight(None)
                continue
            words = comparison.word_range(side, index)
            hex_view.highlight(words, comparison.cell_kinds(side, index))
            if hex_word is not None and hex_word[0] == side:
                hex_view.show_word(hex_word[1])
            else:
                hex_view.show_word(words.start)
                _bring_into_view(hex_view, words)
        self._tell_place()

    def _tell_place(self) -> None:
        comparison = self.comparison
        assert comparison is not None
        row = self.row
        places = []
        for side in (A, B):
            index = comparison.instruction(side, row)
            if index is None:
                places.append(f"{'AB'[side]}: —")
            else:
                offset = comparison.word_range(side, index).start * 4
                places.append(f"{'AB'[side]}: #{index} @0x{offset:x}")
        number, count = comparison.difference_number(row)
        status = self.query_one(StatusLine)
        status.place = f"row {row + 1:,}/{comparison.row_count:,}  {'  '.join(places)}"
        status.detail = comparison.row_detail(row)
        status.mode = f"difference {number}/{count}" if count else "no difference"

    @on(DiffList.RowRequested)
    def _row_requested(self, message: DiffList.RowRequested) -> None:
        message.stop()
        self.select_row(message.row)

    @on(HexView.WordSelected)
    def _word_selected(self, message: HexView.WordSelected) -> None:
        message.stop()
        comparison = self.comparison
        side = getattr(message, "side", None)
        if comparison is None or side is None:
            return
        hex_view = self.query_one(f"#hex-{'ab'[side]}", DiffHexView)
        index = comparison.instruction_at_word(side, message.word)
        row = comparison.row_of(side, index) if index is not None else None
        if row is None:
            hex_view.show_word(message.word)
            return
        self.select_row(row, center=True, hex_word=(side, message.word))

    @on(HexView.CardRequested)
    def _card_requested(self, message: HexView.CardRequested) -> None:
        message.stop()

    # -- actions -----------------------------------------------------------------------

    def action_difference(self, step: int) -> None:
        """Go to the next (1) or previous (-1) difference."""
        comparison = self.comparison
        if comparison is None:
            return
        row = comparison.next_difference(self.row) if step > 0 else comparison.previous_difference(self.row)
        if row is None:
            self.notify("no difference after this one" if step > 0 else "no difference before this one", timeout=3)
            return
        self.select_row(row, center=True)

    def action_summary(self) -> None:
        """Every count of the comparison, in a dialog."""
        if self.comparison is not None:
            self.app.push_screen(SummaryScreen(self.comparison.summary_lines()))

    async def action_other(self) -> None:
        """Compare with the next file offered."""
        if len(self.choices) < 2:
            return
        self.choice = (self.choice + 1) % len(self.choices)
        self.comparison = None
        for old in self.query("#diff-sides, #diff-loading"):
            await old.remove()
        await self.mount(
            Vertical(
                Static("Comparing…", id="diff-progress-text", markup=False),
                ProgressBar(total=None, show_eta=False, id="diff-progress"),
                id="diff-loading",
            ),
            before=self.query_one(StatusLine),
        )
        self.query_one("#diff-summary", Static).update(self.choices[self.choice][0])
        self.refresh_bindings()
        self._compare()

    def action_close(self) -> None:
        """Back to the screen underneath."""
        if self.closable:
            self.dismiss()
