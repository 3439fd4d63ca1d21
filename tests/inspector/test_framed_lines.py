"""A pane framing its content lines once (#26: a step shifts the values pane's rows and
scrolls the list a row, repainting lines framed before): a shifted row is not framed
anew, a focus or a theme frames every line anew, and what is on screen is what Textual
draws for the same pane without the mixin."""

from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from rich.segment import Segment
from rich.style import Style

from spvinspect.widgets.framed_lines import FramedLines


class Rows(ScrollView, can_focus=True):
    """Rows of text, one kept strip per row, in a border whose colour the focus changes."""

    DEFAULT_CSS = """
    Rows { width: 1fr; border: round $border-blurred; padding: 0 1; }
    Rows:focus { border: round $primary; }
    """

    def on_mount(self) -> None:
        self.virtual_size = Size(20, 40)
        self.strips = {row: Strip([Segment(f"row {row}", Style(bold=row % 3 == 0))]) for row in range(40)}

    def render_line(self, y: int) -> Strip:
        return self.strips[self.scroll_offset.y + y]


class FramedRows(FramedLines, Rows):
    pass


class RowsApp(App):
    AUTO_FOCUS = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield FramedRows()
            yield Rows()


def _lines(app: App, widget) -> list[list[tuple[str, Style]]]:
    region = widget.region
    strips = app.screen._compositor.render_strips()[region.y:region.bottom]
    return [[(char, segment.style) for segment in strip.crop(region.x, region.right) for char in segment.text] for strip in strips]


async def test_shifted_rows_are_framed_once_and_drawn_as_textual_draws_them(monkeypatch) -> None:
    framed = []
    render_line = StylesCache.render_line
    monkeypatch.setattr(StylesCache, "render_line", lambda self, *args: framed.append(self) or render_line(self, *args))
    app = RowsApp()
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        ours = app.query_one(FramedRows)
        textual = next(view for view in app.query(Rows) if type(view) is Rows)
        assert _lines(app, ours) == _lines(app, textual)
        for view in (ours, textual):
            view.scroll_to(y=1, animate=False, immediate=True)
        framed.clear()
        for view in (ours, textual):
            view.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert _lines(app, ours) == _lines(app, textual)
        # The rows came back: none is framed again (Textual frames every one).
        assert framed.count(ours._styles_cache) == 0 < framed.count(textual._styles_cache)
        ours.focus()
        await pilot.pause()
        assert _lines(app, ours)[3] != _lines(app, textual)[3], "the focused border is another colour"
        ours.scroll_to(y=1, animate=False, immediate=True)
        await pilot.pause()
        ours.scroll_to(y=0, animate=False, immediate=True)
        app.screen.set_focus(None)
        await pilot.pause()
        assert _lines(app, ours) == _lines(app, textual), "rows framed when focused are not shown blurred"
        app.theme = "textual-light"
        await pilot.pause()
        assert _lines(app, ours) == _lines(app, textual)
