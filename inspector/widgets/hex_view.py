"""The hex pane: a module's words (or bytes and ASCII) with a word cursor.

A Line-API `ScrollView`: only the rows on screen are rendered, each cached as a `Strip`
until the cursor, the highlight or the marks change on it, so an 8 MB module scrolls as a
small one does. The pane shows what it is given (words, byte order, where the tail
starts, which words diagnostics name, the kinds of the selected instruction's words) and
posts what the user asks for (`WordSelected`, `CardRequested`); the screen decides.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Container, Iterable, Mapping, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events, on
from textual.binding import Binding
from textual.cache import LRUCache
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spvinspect.codec.text.word_detail import WordKind
from spvinspect.screens.go_to import GoToDialog
from spvinspect.widgets.row_refresh import refresh_row_spans
from spvinspect.widgets.scrollbars import QuietScrollbars
from spvinspect.widgets.framed_lines import FramedLines

GUTTER = 10
"""Columns of the byte-offset gutter: eight hex digits and two spaces."""
WORD_CELL = 9
"""A word in word mode: eight hex digits and a space."""
BYTES_CELL = 12
"""A word in bytes mode: four two-digit bytes, each followed by a space."""
NARROW = 4
"""Words a row before the pane has a width."""


def row_width(words_per_row: int, bytes_mode: bool) -> int:
    """Columns one row needs."""
    if bytes_mode:
        return GUTTER + words_per_row * BYTES_CELL + 1 + words_per_row * 4
    return GUTTER + words_per_row * WORD_CELL - 1


def words_for_width(width: int, bytes_mode: bool) -> int:
    """Words a row of a pane `width` columns wide: as many as fit, rounded down to a
    power of two from 8 on (rows 0x20, 0x40… bytes apart, as hex dumps have them), and
    at least one."""
    fits = 1
    while row_width(fits + 1, bytes_mode) <= width:
        fits += 1
    return fits if fits < 8 else 1 << (fits.bit_length() - 1)


class HexView(FramedLines, QuietScrollbars, ScrollView, can_focus=True):
    """A module's words with byte offsets, the selected instruction framed and coloured
    by operand kind, diagnostic words marked, and a word cursor."""

    COMPONENT_CLASSES = {
        "hex-view--offset",
        "hex-view--cursor",
        "hex-view--selected",
        "hex-view--diagnostic",
        "hex-view--ascii",
        "hex-view--changed",
        "hex-view--bits",
        "hex-view--bits-partial",
        *(f"hex-view--{kind.value.replace('_', '-')}" for kind in WordKind),
    }
    DEFAULT_CSS = """
    HexView { background: $surface; }
    HexView > .hex-view--offset { color: $text-muted; }
    HexView > .hex-view--ascii { color: $text-muted; }
    HexView > .hex-view--cursor { text-style: reverse bold; }
    HexView > .hex-view--selected { background: $hex-selection-background; }
    HexView > .hex-view--changed { background: $warning 35%; }
    HexView > .hex-view--diagnostic { color: $diagnostic-error; text-style: bold underline; }
    HexView > .hex-view--header { color: $hex-header; }
    HexView > .hex-view--opcode { color: $hex-opcode; text-style: bold; }
    HexView > .hex-view--type-id { color: $hex-type-id; }
    HexView > .hex-view--result-id { color: $hex-result-id; text-style: bold; }
    HexView > .hex-view--id { color: $hex-id; }
    HexView > .hex-view--literal { color: $hex-literal; }
    HexView > .hex-view--string { color: $hex-string; }
    HexView > .hex-view--enum { color: $hex-enum; }
    HexView > .hex-view--raw { color: $hex-raw; text-style: italic; }
    HexView > .hex-view--tail { color: $hex-tail; text-style: italic; }
    HexView > .hex-view--trailing { color: $hex-tail; text-style: italic underline; }
    HexView > .hex-view--bits { background: $accent; color: $background; text-style: bold; }
    HexView > .hex-view--bits-partial { background: $accent 40%; text-style: bold underline; }
    """
    BINDINGS = [
        Binding("left,h", "move(-1)", "Word left", show=False, id="hex.left", tooltip="Previous word"),
        Binding("right,l", "move(1)", "Word right", show=False, id="hex.right", tooltip="Next word"),
        Binding("up,k", "move_rows(-1)", "Row up", show=False, id="hex.up", tooltip="Same word a row up"),
        Binding("down,j", "move_rows(1)", "Row down", show=False, id="hex.down", tooltip="Same word a row down"),
        Binding("pageup", "move_pages(-1)", "Page up", show=False, id="hex.page-up", tooltip="A page up"),
        Binding("pagedown", "move_pages(1)", "Page down", show=False, id="hex.page-down", tooltip="A page down"),
        Binding("home", "move_to_start", "First word", show=False, id="hex.home", tooltip="The first word"),
        Binding("end,G", "move_to_end", "Last word", show=False, id="hex.end", tooltip="The last word"),
        Binding(
            "g",
            "goto",
            "Go to",
            id="hex.goto",
            tooltip="Go to a byte offset (decimal or 0x hex)",
            priority=True,  # the offset typed right after goes to the dialog, not this pane
        ),
        Binding("b", "toggle_bytes", "Bytes", id="hex.bytes", tooltip="Switch between words and bytes with ASCII"),
        Binding("c", "card", "Card", id="hex.card", tooltip="The grammar card of the word under the cursor"),
    ]

    cursor: reactive[int] = reactive(0, init=False, repaint=False)
    """Word offset under the cursor (`len(words)`: the trailing bytes, when there are any)."""
    bytes_mode: reactive[bool] = reactive(False, init=False)
    """True to show bytes in file order with an ASCII column instead of words."""

    class WordSelected(Message):
        """The user moved the word cursor: select that word (its instruction and operand).

        Like the shared `SelectWord`, but its own type: the screen keeps the focus on the
        hex pane for these, where a `SelectWord` from elsewhere sends it to the list."""

        def __init__(self, word: int, jump: bool = False) -> None:
            super().__init__()
            self.word = word
            """Word offset from the start of the module."""
            self.jump = jump
            """True for a jump (`g`) that the screen's jump history should remember."""

    class CardRequested(Message):
        """The user asked for the grammar card of the word under the cursor."""

        def __init__(self, word: int) -> None:
            super().__init__()
            self.word = word
            """Word offset from the start of the module."""

    def __init__(
        self,
        words: array,
        *,
        big_endian: bool = False,
        trailing_bytes: bytes = b"",
        tail_offset: int | None = None,
        marked: Iterable[int] = (),
        cell_kind: Callable[[int], str | None] = lambda offset: None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.words = words
        self.big_endian = big_endian
        self.trailing_bytes = trailing_bytes
        self.tail_offset = len(words) if tail_offset is None else tail_offset
        self.cell_kind = cell_kind
        """The format's static style name of a word, if any (SPIR-V's header words)."""
        self.marked: frozenset[int] = frozenset(marked)
        self.changed: Container[int] = frozenset()
        """Words an edit changed since the file was opened (`mark_changed`)."""
        self.highlighted = range(0)
        self.highlight_kinds: Sequence[str] = ()
        self.bit_masks: dict[int, int] = {}
        """Word offset -> mask of the bits picked out in it (`highlight_bits`)."""
        self.words_per_row = NARROW
        self._rows: LRUCache[int, Strip] = LRUCache(1024)
        self._styles: dict[str, Style] = {}
        self.border_title = f"Hex · {'big' if big_endian else 'little'}-endian"

    # -- what the pane is given --------------------------------------------------

    @property
    def cell_count(self) -> int:
        """Cells: every word, and one for the trailing bytes if there are any."""
        return len(self.words) + (1 if self.trailing_bytes else 0)

    def show_word(self, word_offset: int, center: bool = False) -> None:
        """Put the cursor on a word and scroll it into view, without posting anything
        (the selection changed elsewhere; this pane follows); `center` puts an off-screen
        word's row mid-pane (a jump, a run's next instruction)."""
        self._set_cursor(word_offset, center)

    def highlight(self, words: range | None, kinds: Sequence[str] = ()) -> None:
        """Frame `words` (the selected instruction) and colour them by `kinds` (style
        names the format gives), one per word from the first; None clears the highlight."""
        old = self.highlighted
        self.highlighted = words if words is not None else range(0)
        self.highlight_kinds = tuple(kinds)
        self._repaint_words(old, self.highlighted)

    def highlight_bits(self, masks: Mapping[int, int]) -> None:
        """Pick out exactly these bits: word offset -> mask of the word's value (bit 0 the
        least significant). Each hex digit holding picked bits is marked, more softly
        when it holds only some of them; an empty mapping clears the marks."""
        old = self.bit_masks
        self.bit_masks = {word: mask & 0xFFFFFFFF for word, mask in masks.items() if mask & 0xFFFFFFFF}
        self._repaint_words(*(range(word, word + 1) for word in old.keys() | self.bit_masks.keys()))

    def digit_marks(self, word_offset: int) -> tuple[str | None, ...]:
        """How each hex digit of a word is marked, in the order the pane shows them
        (word mode: most significant first; bytes mode: file order): `bits` when all
        four of its bits are picked out, `bits-partial` when some are, else None."""
        mask = self.bit_masks.get(word_offset, 0)
        marks = []
        for shift in self._digit_shifts():
            nibble = (mask >> shift) & 0xF
            marks.append("bits" if nibble == 0xF else "bits-partial" if nibble else None)
        return tuple(marks)

    def _digit_shifts(self) -> tuple[int, ...]:
        """The bit each shown hex digit starts at, in the order the pane shows them."""
        if self.bytes_mode and not self.big_endian:
            return tuple(8 * byte + nibble for byte in range(4) for nibble in (4, 0))
        return tuple(range(28, -1, -4))

    def mark(self, word_offsets: Iterable[int]) -> None:
        """Mark the words diagnostics name (replacing earlier marks), e.g. once the
        whole-module check has run."""
        self.marked = frozenset(word_offsets)
        self._rows.clear()
        self.refresh()

    def load(self, words: array, *, trailing_bytes: bytes = b"", tail_offset: int | None = None) -> None:
        """Show other words in place of these (an edit's new binary, same byte order),
        keeping the cursor where it is as far as the new words reach."""
        self.words = words
        self.trailing_bytes = trailing_bytes
        self.tail_offset = len(words) if tail_offset is None else tail_offset
        self._layout_rows()
        self._set_cursor(self.cursor)

    def mark_changed(self, words: Container[int]) -> None:
        """Mark the words an edit changed (replacing earlier marks); anything with `in`,
        or word ranges (`.ranges`). The first word newly marked is scrolled into view
        with the cursor, so an edit's effect is seen."""
        old, self.changed = self.changed, words
        self._rows.clear()
        self.refresh()
        first = _first_new(old, words)
        if first is not None:
            self.call_after_refresh(self._reveal, first)

    def _reveal(self, word: int) -> None:
        """Scroll the least needed to show `word` while the cursor stays in view (when
        both fit on the pane)."""
        height = self.scrollable_content_region.height
        per_row = self.words_per_row
        row, cursor_row = word // per_row, self.cursor // per_row
        low, high = min(row, cursor_row), max(row, cursor_row)
        top = round(self.scroll_offset.y)
        if height <= 0 or high - low >= height:
            return
        if low < top:
            self.scroll_to(y=low, animate=False, immediate=True)
        elif high >= top + height:
            self.scroll_to(y=high - height + 1, animate=False, immediate=True)

    def set_tail_offset(self, tail_offset: int) -> None:
        """Where decoding stopped for good, once the module is indexed."""
        self.tail_offset = tail_offset
        self._rows.clear()
        self.refresh()

    # -- cursor --------------------------------------------------------------------

    def _set_cursor(self, word_offset: int, center: bool = False) -> bool:
        """Move the cursor (clamped) and scroll to it; True when it moved."""
        last = max(self.cell_count - 1, 0)
        target = max(0, min(word_offset, last))
        moved = target != self.cursor
        self.cursor = target
        self.scroll_to_cursor(center)
        return moved

    def _move_and_post(self, word_offset: int, jump: bool = False) -> None:
        if self._set_cursor(word_offset) or jump:
            self.post_message(self.WordSelected(self.cursor, jump=jump))

    def watch_cursor(self, old: int, new: int) -> None:
        """Repaint the rows the cursor left and entered."""
        self._repaint_words(range(old, old + 1), range(new, new + 1))

    def watch_bytes_mode(self) -> None:
        """Rows change shape: lay them out again."""
        self._layout_rows()
        self.scroll_to_cursor()

    def scroll_to_cursor(self, center: bool = False) -> None:
        """Scroll the least needed to show the cursor's word (`center`: a row off screen
        comes mid-pane)."""
        row, column = divmod(self.cursor, self.words_per_row)
        region = self.scrollable_content_region
        height, width = max(region.height, 1), max(region.width, 1)
        left, top = round(self.scroll_offset.x), round(self.scroll_offset.y)
        cell = BYTES_CELL if self.bytes_mode else WORD_CELL
        start = GUTTER + column * cell
        end = start + cell - 1
        if top <= row < top + height:
            y = top
        elif center:
            y = max(0, row - height // 2)
        else:
            y = row if row < top else row - height + 1
        x = (0 if column == 0 else start) if start < left else end - width + 1 if end >= left + width else left
        if (x, y) != (left, top):
            self.scroll_to(x=x, y=y, animate=False, immediate=True)
            if not region.height and self.screen.outer_size and round(self.scroll_offset.y) != y:
                # Left out of the screen's layout (a narrow screen lays out the list alone),
                # the pane was never laid out, and Textual scrolls only a pane that was: it
                # keeps the cursor's row at its top for when it shows, as a hidden pane does.
                self.scroll_to(y=y, animate=False, immediate=True, force=True)

    @property
    def page_rows(self) -> int:
        """Rows a page key moves."""
        return max(self.scrollable_content_region.height, 1)

    def action_move(self, delta: int) -> None:
        """Move the cursor `delta` words."""
        self._move_and_post(self.cursor + delta)

    def action_move_rows(self, delta: int) -> None:
        """Move the cursor `delta` rows, staying in its column."""
        target = self.cursor + delta * self.words_per_row
        if 0 <= target < self.cell_count:
            self._move_and_post(target)

    def action_move_pages(self, delta: int) -> None:
        """Move the cursor and the view a page."""
        rows = delta * self.page_rows
        self.scroll_to(y=self.scroll_offset.y + rows, animate=False, immediate=True)
        self._move_and_post(self.cursor + rows * self.words_per_row)

    def action_move_to_start(self) -> None:
        """Move the cursor to the first word."""
        self._move_and_post(0)

    def action_move_to_end(self) -> None:
        """Move the cursor to the last word (or the trailing bytes)."""
        self._move_and_post(self.cell_count - 1)

    def action_goto(self) -> None:
        """Ask for a byte offset and jump to the word holding it."""

        def chosen(offset: int | None) -> None:
            if offset is not None:
                self._move_and_post(offset // 4, jump=True)

        size = len(self.words) * 4 + len(self.trailing_bytes)
        self.app.push_screen(GoToDialog.byte_offset(size), chosen)

    def action_toggle_bytes(self) -> None:
        """Switch between words and bytes with ASCII."""
        self.bytes_mode = not self.bytes_mode

    def action_card(self) -> None:
        """Ask for the grammar card of the word under the cursor."""
        self.post_message(self.CardRequested(self.cursor))

    def on_click(self, event: Click) -> None:
        """Put the cursor on the clicked word."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        column = offset.x + round(self.scroll_offset.x) - GUTTER
        cell = BYTES_CELL if self.bytes_mode else WORD_CELL
        if column < 0 or column >= self.words_per_row * cell:
            return
        row = offset.y + round(self.scroll_offset.y)
        word = row * self.words_per_row + column // cell
        if word < self.cell_count:
            self._move_and_post(word)

    # -- layout and rendering ------------------------------------------------------

    def on_mount(self) -> None:
        """Lay the rows out for the first time."""
        self._layout_rows()

    def on_resize(self) -> None:
        """As many words a row as fit; the cursor stays in view (once the new
        size bounds the scrolling: a pane zoomed from a hidden column starts at 0 rows)."""
        self._layout_rows()
        self.call_after_refresh(self.scroll_to_cursor)

    def _width(self) -> int:
        return self.scrollable_content_region.width or self.size.width

    def _layout_rows(self) -> None:
        per_row = words_for_width(self._width(), self.bytes_mode)
        self.words_per_row = per_row
        rows = -(-self.cell_count // per_row)
        self._rows.clear()
        self.virtual_size = Size(row_width(per_row, self.bytes_mode), rows)
        self.refresh()

    def notify_style_update(self) -> None:
        """Styles changed (theme switch): forget the rendered rows and styles."""
        super().notify_style_update()
        self._styles.clear()
        self._rows.clear()

    def _repaint_words(self, *ranges: range) -> None:
        """Forget the rendered rows holding the words of `ranges` and repaint them, in one
        refresh (each call clears the widget's caches and prompts its message loop)."""
        per_row = self.words_per_row
        spans = [(words.start // per_row, (words.stop - 1) // per_row) for words in ranges if words]
        if not spans:
            return
        if any(last - first > 512 for first, last in spans):
            self._rows.clear()
            self.refresh()
            return
        for first, last in spans:
            for row in range(first, last + 1):
                self._rows.discard(row)
        refresh_row_spans(self, spans)

    def cell_style(self, name: str) -> Style:
        """The style of a cell kind (`opcode`, `type-id`, `header`...) under the theme:
        what the legend and the word table colour a kind with."""
        return self._style(name)

    def _style(self, name: str) -> Style:
        """A component's own colours and text style, translucent colours (`$boost`)
        blended over the pane's background, so styles can be stacked; '' is the pane's
        own style."""
        style = self._styles.get(name)
        if style is None and not name:
            style = self._styles[name] = self.rich_style
        elif style is None:
            styles = self.get_component_styles(f"hex-view--{name}")
            _, background = self.background_colors
            style = Style(
                color=(background + styles.color).rich_color if styles.has_rule("color") else None,
                bgcolor=(background + styles.background).rich_color if styles.has_rule("background") else None,
            ) + styles.text_style
            self._styles[name] = style
        return style

    def render_line(self, y: int) -> Strip:
        """Row `y` of the view: the cached row strip, cropped to the visible columns."""
        scroll_x, scroll_y, width, rows, base = self.once_a_pass(self._line_view)
        row = scroll_y + y
        if row >= rows:
            return Strip.blank(width, base)
        strip = self._rows.get(row)
        if strip is None:
            strip = self._render_row(row, base)
            self._rows[row] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _line_view(self) -> tuple[int, int, int, int, Style]:
        """The scroll offset, the width, the rows and the base style the rows on screen
        are drawn with (the rows laid out again first if the width changed)."""
        if self.size.width and words_for_width(self._width(), self.bytes_mode) != self.words_per_row:
            # Resized without a Resize event (Textual sends none when a zoom ends).
            self._layout_rows()
            self.call_after_refresh(self.scroll_to_cursor)
        scroll_x, scroll_y = self.scroll_offset
        return scroll_x, scroll_y, self.scrollable_content_region.width, self.virtual_size.height, self._style("")

    def _word_style(self, offset: int, cursor: bool = True) -> Style:
        """Static kind (trailing, the format's, tail), then the selection's kinds, the marks
        and (unless `cursor` is False) the cursor, each on top of the one before."""
        words = self.words
        style = Style()
        if offset >= len(words):
            style = self._style("trailing")
        elif (kind := self.cell_kind(offset)) is not None:
            style = self._style(kind)
        elif offset >= self.tail_offset:
            style = self._style("tail")
        if offset in self.highlighted:
            position = offset - self.highlighted.start
            if position < len(self.highlight_kinds):
                style += self._style(self.highlight_kinds[position])
            style += self._style("selected")
        if offset in self.changed:
            style += self._style("changed")
        if offset in self.marked:
            style += self._style("diagnostic")
        if cursor and offset == self.cursor:
            style += self._style("cursor")
        return style

    def _file_bytes(self, offset: int) -> bytes:
        """The word's bytes as they are in the file."""
        if offset >= len(self.words):
            return self.trailing_bytes
        return self.words[offset].to_bytes(4, "big" if self.big_endian else "little")

    def _render_row(self, row: int, base: Style) -> Strip:
        per_row = self.words_per_row
        first = row * per_row
        last = min(first + per_row, self.cell_count)
        segments = [Segment(f"{first * 4:08x}  ", base + self._style("offset"))]
        ascii_parts: list[Segment] = []
        selected = self._style("selected")
        for offset in range(first, last):
            style = base + self._word_style(offset)
            if offset in self.bit_masks and offset < len(self.words):
                segments.extend(self._marked_digits(offset, style, base))
                if self.bytes_mode:
                    ascii_parts.append(Segment(self._ascii(offset), base + self._style("ascii") + self._word_style(offset)))
            elif self.bytes_mode:
                data = self._file_bytes(offset)
                segments.append(Segment(" ".join(f"{b:02x}" for b in data).ljust(11), style))
                ascii_parts.append(Segment(self._ascii(offset), base + self._style("ascii") + self._word_style(offset)))
            elif offset < len(self.words):
                segments.append(Segment(f"{self.words[offset]:08x}", style))
            else:
                segments.append(Segment(self.trailing_bytes.hex().ljust(8), style))
            if offset + 1 < last:
                # The gap inside the selected instruction is shaded too, so it reads as one frame.
                inside = offset in self.highlighted and offset + 1 in self.highlighted
                segments.append(Segment(" ", base + selected if inside else base))
        if ascii_parts:
            segments.append(Segment(" " * ((first + per_row - last) * BYTES_CELL + 2), base))
            segments.extend(ascii_parts)
        return Strip(segments)

    def _ascii(self, offset: int) -> str:
        """The word's bytes as ASCII, dots for the rest."""
        return "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in self._file_bytes(offset)).ljust(4)

    def _marked_digits(self, offset: int, style: Style, base: Style) -> list[Segment]:
        """A word with picked-out bits, digit by digit (bytes mode: a space between bytes);
        the picked digits keep their mark under the cursor, the others show the cursor."""
        picked = base + self._word_style(offset, cursor=False)
        if self.bytes_mode:
            digits = self._file_bytes(offset).hex()
        else:
            digits = f"{self.words[offset]:08x}"
        segments = []
        for position, (digit, mark) in enumerate(zip(digits, self.digit_marks(offset))):
            if self.bytes_mode and position and position % 2 == 0:
                segments.append(Segment(" ", style))
            segments.append(Segment(digit, picked + self._style(mark) if mark else style))
        return segments


def _first_new(old: Container[int], new: Container[int]) -> int | None:
    """The first word marked in `new` and not in `old`: both word ranges (`.ranges`,
    sorted [start, end) pairs) or sets of words; None when there is none (or the marks
    are of neither kind)."""
    new_ranges = getattr(new, "ranges", None)
    if new_ranges is not None:
        old_ranges = tuple(getattr(old, "ranges", ()))
        for start, end in new_ranges:
            word = start
            while word < end:
                at = bisect_right(old_ranges, (word, 1 << 62)) - 1
                if at < 0 or old_ranges[at][1] <= word:
                    return word
                word = old_ranges[at][1]  # covered up to the old range's end
        return None
    if isinstance(new, (set, frozenset)):
        fresh = [word for word in new if word not in old]
        return min(fresh) if fresh else None
    return None
