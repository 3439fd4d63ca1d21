"""Panes that put their changed lines between their borders themselves (`FramedLines`), and
hand the compositor lines kept from the last frame (`KeptLines`), show what Textual draws
for them from scratch, step after step, in both formats (#22, #26)."""

from __future__ import annotations

from lima_apps import program_words, to_bytes

from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.framed_lines import FramedLines


def _screen(screen) -> list[list]:
    return [list(strip) for strip in screen._compositor.render_strips()]


def _drawn_from_scratch(screen) -> list[list]:
    """The screen once every widget forgot what it drew."""
    for widget in screen.walk_children(with_self=True):
        widget._styles_cache.clear()
        for kept in ("_framed_lines", "_kept_lines"):
            if kept in vars(widget):
                setattr(widget, kept, None)
    return _screen(screen)


async def _steps_drawn_as_from_scratch(app: InspectorApp, keys: tuple[str, ...], steps: int, then=None) -> set[str]:
    """Press `keys`, then step `steps` times; after each step the screen drawn from what the
    panes kept equals the screen drawn from scratch. The framed panes that drew lines."""
    framed: set[str] = set()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*keys)
        for _ in range(steps):
            await pilot.press("full_stop")
            await pilot.pause()
            screen = app.screen
            framed |= {type(w).__name__ for w in screen.walk_children() if getattr(w, "_framed_lines", None)}
            kept = _screen(screen)
            assert kept == _drawn_from_scratch(screen)
        if then is not None:
            await then(app, pilot)
    return framed


async def test_lima_steps_draw_what_textual_draws() -> None:
    app = InspectorApp(LimaDocument(to_bytes(program_words()), "shader.bin"), theme="spvinspect-dark")
    framed = await _steps_drawn_as_from_scratch(app, ("6",), 4, _restyled_registers)
    assert {"LimaRegisters", "LimaBreakdown", "LimaInstructionList", "HexView", "StatusLine"} <= framed


async def _restyled_registers(app: InspectorApp, pilot) -> None:
    """A step works out no pane's frame again; after the registers' border changes, the
    steps that follow draw it with the new border."""
    screen = app.screen
    await pilot.press("full_stop")  # after every pane forgot what it drew
    await pilot.pause()
    worked_out = []
    for widget in screen.walk_children():
        if isinstance(widget, FramedLines):
            plain_frame = widget._plain_frame
            widget._plain_frame = lambda cache, f=plain_frame, w=widget: worked_out.append(w) or f(cache)
    await pilot.press("full_stop")
    await pilot.pause()
    assert worked_out == []
    registers = screen.query_one("#registers")
    _registers_lines_drawn_as_textual_draws_them(registers)
    registers.styles.border = ("heavy", "red")
    registers.styles.color = "yellow"  # the pieces' styles are worked out again
    for _ in range(2):
        await pilot.press("full_stop")
        await pilot.pause()
    assert "┃" in "".join(segment.text for segment in screen._compositor.render_strips()[25])
    assert _screen(screen) == _drawn_from_scratch(screen)
    _registers_lines_drawn_as_textual_draws_them(registers)
    # The focus moves (a pane's border colour changes, its kept rows do not): its rows
    # drawn again after a step and back are framed anew.
    for pane in ("5", "2"):
        await pilot.press(pane, "full_stop", "comma")
        await pilot.pause()
        assert _screen(screen) == _drawn_from_scratch(screen)
    _framed_anew_in_another_frame(screen.query_one("#breakdown"))
    # The view and its columns draw nothing: the compositor does not ask them, the panes it does.
    from spvinspect.screens.view import Column, FormatView

    drawn = screen._compositor.visible_widgets
    assert not [w for w in drawn if isinstance(w, (Column, FormatView))] and registers in drawn


def _framed_anew_in_another_frame(pane) -> None:
    """A content line the pane framed before (kept with its filtered versions) is framed
    again once its frame changed."""
    from rich.segment import Segment
    from textual.geometry import Region

    cache = pane._styles_cache
    frame = pane._frame(cache)
    top = frame[3]
    crop = Region(0, 0, *pane.region.size)
    cache._dirty_lines.add(top)
    assert pane._frame_dirty_lines(crop, cache, frame)[top].text.startswith("│")
    other = (Segment("X", frame[0].style), *frame[1:])
    cache._dirty_lines.add(top)
    assert pane._frame_dirty_lines(crop, cache, other)[top].text.startswith("X")


def _registers_lines_drawn_as_textual_draws_them(registers) -> None:
    """Every line of the registers pane's text that it makes from its pieces (each on screen
    but blank ones and those that wrap) is Textual's drawing of it (styles, offsets
    for selecting with the mouse)."""
    from textual.visual import RenderOptions

    from spvinspect.widgets.lima_registers import _as_line

    width = registers.content_region.width
    options = RenderOptions(registers._get_style, registers.styles, None, None)
    drawn = registers._lines_on_screen()
    made = row = 0
    for index, line in enumerate(registers._lines):
        if row >= len(drawn):
            break
        pieces = registers._drawn_line(line, index, width, options)
        textual = [list(strip) for strip in _as_line(registers._textual_line(line, width, options), index)]
        wraps = sum(len(text) for text, _ in line) > width
        assert (pieces is None) == (not line or wraps), line
        if pieces is not None:
            assert [list(strip) for strip in pieces] == textual, line
            assert list(drawn[row]) == textual[0], line  # what the pane shows
            made += 1
        row += len(textual)
    assert made >= 6


async def test_spirv_steps_draw_what_textual_draws() -> None:
    app = InspectorApp(Document(EXAMPLE_MODULE.read_bytes(), "example.spv"), theme="spvinspect-dark")
    framed = await _steps_drawn_as_from_scratch(app, ("7", "8"), 4, _containers_not_asked)
    assert {"InstructionList", "ValuesPane", "HexView", "WordDetailPanel", "StatusLine"} <= framed


async def _containers_not_asked(app: InspectorApp, pilot) -> None:
    """The view, its columns, the hex pane's group and the CFG pane's box draw nothing: the
    compositor asks the panes in them, not them; zoomed, the hex group shows its panes."""
    from spvinspect.screens.panes import PaneGroup
    from spvinspect.screens.view import Column, FormatView

    screen = app.screen
    drawn = screen._compositor.visible_widgets
    assert not [w for w in drawn if isinstance(w, (Column, FormatView, PaneGroup))]
    assert {"list", "cfg", "hex", "word", "values", "source"} <= {w.id for w in drawn}
    await pilot.press("4", "z")
    await pilot.pause()
    assert {"hex", "word"} <= {w.id for w in screen._compositor.visible_widgets}
    assert _screen(screen) == _drawn_from_scratch(screen)


async def test_status_line_drawn_from_its_parts_as_textual_draws_its_text() -> None:
    """The status line's one line, made from its parts, equals Textual's drawing of its text
    (styles, offsets for selecting with the mouse), cut with an ellipsis or not."""
    app = InspectorApp(LimaDocument(to_bytes(program_words()), "shader.bin"), theme="spvinspect-dark")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("j")
        status = app.screen.query_one("StatusLine")
        width, height = status.size
        states = [
            {},
            {"busy": "indexing 40%", "mode": "friendly names"},
            {"detail": "operand 2 · %v × 3", "mode": "raw"},
            {"place": "instruction 1/99  w7 @0x001c  5 words " * 3, "busy": "busy"},
        ]
        for state in states:
            for name, value in state.items():
                setattr(status, name, value)
            await pilot.pause()
            drawn = status._drawn_line(width, status.visual_style.rich_style)
            assert drawn is not None and list(drawn) == list(status._textual_line(width, height)), state
