"""The app on an 80x24 terminal, as a user sees it: the footer keeps Quit and Help, no
hatched filler, the go-to dialog's texts whole, the help only our panes' keys, the
palette one Quit, and counts in the singular where there is one."""

from __future__ import annotations

from textual.command import CommandList

from inspector_apps import ext_inst_module_bytes, make_app, settle
from waiting import search_palette
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.screens.go_to import GoToDialog
from spvinspect.screens.help import HelpScreen

SIZE = (80, 24)


def screen_lines(app) -> list[str]:
    """The terminal's rows as the app draws them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_an_80x24_screen_shows_whole_keys_texts_and_no_filler() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), name="example.spv")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in ("2", "4"):  # the list's keys, then the hex pane's
            await pilot.press(key)
            await settle(pilot)
            footer = screen_lines(app)[-1]
            assert "q Quit" in footer and "? Help" in footer, footer

        await pilot.press("1")  # the header, zoomed on a narrow screen
        await settle(pilot)
        assert not any("╱" in line for line in screen_lines(app)), "\n".join(screen_lines(app))

        await pilot.press("4", "g")
        await settle(pilot)
        assert isinstance(app.screen, GoToDialog)
        assert any("(decimal, or hex with 0x)" in line for line in screen_lines(app)), "\n".join(screen_lines(app))
        await pilot.press("z", "z", "enter")
        await settle(pilot)
        shown = " ".join(line.strip("│ ") for line in screen_lines(app))
        assert "'zz' is not an offset (decimal, or hex with 0x)" in " ".join(shown.split()), "\n".join(screen_lines(app))
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        titles = [section.title for section in app.screen.sections]
        assert "KeyFooter" not in titles and "Input" not in titles, titles
        assert "Search bar" in titles
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("ctrl+p")
        await settle(pilot)
        await search_palette(pilot, "quit")
        commands = app.screen.query_one(CommandList)
        prompts = [str(commands.get_option_at_index(k).prompt) for k in range(commands.option_count)]
        assert sum(prompt.splitlines()[0].strip() == "Quit" for prompt in prompts) == 1, prompts


async def test_counts_of_one_are_singular() -> None:
    app = make_app(ext_inst_module_bytes(), name="one.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        assert "1 function ·" in shown and "1 functions" not in shown, shown
