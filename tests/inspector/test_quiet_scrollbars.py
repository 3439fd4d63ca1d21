"""A scrollbar repaints only when the thumb it draws moves (#22: a step scrolls the
1,000-row list by a row, which moves no glyph of its bar), and draws what Textual's does."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from spvinspect.widgets.scrollbars import QuietScrollbars


class Rows(QuietScrollbars, ScrollView):
    def on_mount(self) -> None:
        self.virtual_size = Size(20, 1000)

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.size.width)


class RowsApp(App):
    def compose(self) -> ComposeResult:
        yield Rows()


async def test_the_bar_repaints_when_its_thumb_moves_and_draws_as_textual_does() -> None:
    app = RowsApp()
    async with app.run_test(size=(30, 12)) as pilot:
        view = app.query_one(Rows)
        await pilot.pause()
        bar = view.vertical_scrollbar
        repaints = []
        refresh = bar.refresh
        bar.refresh = lambda *regions, **kwargs: repaints.append(1) or refresh(*regions, **kwargs)
        view.scroll_to(y=1, animate=False, immediate=True)
        assert bar.position == 1 and repaints == [], "a row's scroll moved no glyph of the bar"
        view.scroll_to(y=500, animate=False, immediate=True)
        assert repaints, "the thumb moved to the middle"
        await pilot.pause()
        region = bar.size.region
        drawn = ["".join(s.text for s in strip) for strip in bar.render_lines(region)]
        # Textual's own bar of the same range and position, drawn the same size.
        plain = ScrollBar(vertical=True, thickness=bar.thickness)
        plain.window_virtual_size, plain.window_size, plain.position = bar.window_virtual_size, bar.window_size, 500
        options = app.console.options.update_dimensions(region.width, region.height)
        lines = app.console.render_lines(plain._render_bar(bar.bar_style()), options)
        expected = ["".join(s.text for s in line) for line in lines]
        assert drawn == expected and any(text.strip() for text in drawn)


async def test_a_bar_with_its_thumb_somewhere_new_is_put_together_from_rows_drawn_before(monkeypatch) -> None:
    app = RowsApp()
    async with app.run_test(size=(30, 12)) as pilot:
        view = app.query_one(Rows)
        await pilot.pause()
        bar = view.vertical_scrollbar
        region = bar.size.region
        textual_lines = ScrollBar.render_lines
        drawn_by_textual = []
        monkeypatch.setattr(ScrollBar, "render_lines", lambda self, crop: drawn_by_textual.append(1) or textual_lines(self, crop))
        positions = range(0, 1000, 7)
        for y in positions:
            view.scroll_to(y=y, animate=False, immediate=True)
            lines = bar._bar_lines(region)
            bar._styles_cache.clear()  # Textual's drawing of this bar, not its cached lines
            expected = textual_lines(bar, region)
            assert [list(line) for line in lines] == [list(line) for line in expected], f"the bar at {y}"
        thumbs = {bar.thumb() for y in positions if not view.scroll_to(y=y, animate=False, immediate=True)}
        assert len(thumbs) > 50
        # Textual drew the first bars; the rest were put together from their rows.
        assert len(drawn_by_textual) < 20, f"Textual drew {len(drawn_by_textual)} of {len(thumbs)} bars"
