"""The help screen and the command palette on a tiny app: the keys listed are the keys bound,
grouped by pane, and every bound action can be run from the palette."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static

from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.config import KeySettings
from spvinspect.keymap import binding_ids, checked_keymap, key_clashes
from spvinspect.palette import ActionsProvider, GotoProvider, bound_actions
from spvinspect.formats.panes import PaneSpec
from spvinspect.screens.help import EVERYWHERE, HelpScreen
from inspector_apps import make_app
from waiting import search_palette


class Listing(Widget, can_focus=True):
    """A pane with its own keys."""

    BINDINGS = [
        Binding("j,down", "step(1)", "Down", id="list.down", tooltip="Next instruction"),
        Binding("enter", "define", "Definition", id="list.definition", tooltip="Go to the definition"),
    ]

    def __init__(self) -> None:
        super().__init__(id="list")
        self.steps = 0
        self.defined = False

    def action_step(self, count: int) -> None:
        self.steps += count

    def action_define(self) -> None:
        self.defined = True


class Inner(Widget):
    """A widget inside the header pane: its keys belong to the pane."""

    BINDINGS = [Binding("w", "words", "Words", id="header.words", tooltip="Show the header words")]

    def action_words(self) -> None:
        self.app.words_shown = True


class Finder(Input):
    """A text field of the app's own, made on Textual's Input."""

    BINDING_GROUP_TITLE = "Finder"
    BINDINGS = [Binding("escape", "close", "Close", id="find.close", tooltip="Close the finder")]

    def action_close(self) -> None:
        self.display = False


class Header(Widget):
    def compose(self) -> ComposeResult:
        yield Inner()


class Main(Screen):
    BINDINGS = [
        Binding("r", "toggle_raw", "Raw ids", id="main.raw", tooltip="Raw id numbers or friendly names"),
        Binding("ctrl+r", "never", "Never", id="main.never", tooltip="Not available now"),
    ]
    COMMANDS = {ActionsProvider, GotoProvider(lambda screen: screen.places())}

    def __init__(self) -> None:
        super().__init__()
        self.raw = False
        self.went_to: list[str] = []

    def compose(self) -> ComposeResult:
        yield Header(id="header")
        yield Listing()
        yield Input()
        yield Finder()
        yield Static("status")

    def places(self):
        return [(name, lambda name=name: self.went_to.append(name)) for name in ("main", "helper")]

    def action_toggle_raw(self) -> None:
        self.raw = not self.raw

    def action_never(self) -> None:
        raise AssertionError("a disabled action ran")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "never"


PANES = (
    PaneSpec("header", "Header", "The module's header words."),
    PaneSpec("list", "Instruction list", "The disassembly."),
    PaneSpec("hex", "Hex", "The words (not on this screen)."),
)


class TinyApp(App[None]):
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help", tooltip="Every key, and what each pane shows"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.words_shown = False

    def get_default_screen(self) -> Screen:
        return Main()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(PANES))


def rows(section) -> dict[str, str]:
    """Each key of the section -> what it does."""
    return {key: action.description for action in section.actions for key in action.keys}


async def test_help_lists_the_keys_of_each_pane_and_closes() -> None:
    app = TinyApp()
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        sections = {s.title: s for s in help_screen.sections}
        assert list(sections) == [EVERYWHERE, "Header", "Instruction list", "Finder"]
        everywhere = rows(sections[EVERYWHERE])
        assert everywhere["?"] == "Help" and everywhere["r"] == "Raw ids" and everywhere["q"] == everywhere["^q"] == "Quit"
        # q (with its id) and Textual's own ^q (without) quit: one row, shown with the id.
        (quit_row,) = [a for a in sections[EVERYWHERE].actions if a.description == "Quit"]
        assert quit_row.keys == ("q", "^q") and quit_row.binding.id == "app.quit"
        # A text field of ours lists the keys it adds, not the Input editing keys it inherits.
        assert rows(sections["Finder"]) == {"esc": "Close"}
        assert everywhere["tab"] == "Focus Next"
        assert rows(sections["Header"]) == {"w": "Words"}
        assert rows(sections["Instruction list"]) == {"j": "Down", "↓": "Down", "⏎": "Definition"}
        assert sections["Header"].text == "The module's header words."
        shown = "\n".join(str(static.render()) for static in help_screen.query(".help-title, .help-text"))
        assert "Instruction list" in shown and "The disassembly." in shown
        assert "Hex" not in shown, "a pane missing from the screen is not described"
        console = Console(width=200, file=io.StringIO())
        for static in help_screen.query(".help-keys"):
            console.print(static.content)
        assert "[app.quit]" in console.file.getvalue()
        # Input is Textual's widget: its editing keys stay out of the help.
        assert all("cursor" not in a.description.lower() for s in sections.values() for a in s.actions)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_help_follows_remapped_keys() -> None:
    app = TinyApp()
    async with app.run_test() as pilot:
        app.set_keymap({"main.raw": "R"})
        await pilot.press("question_mark")
        sections = {s.title: s for s in app.screen.sections}
        assert rows(sections[EVERYWHERE])["R"] == "Raw ids"
        assert "r" not in rows(sections[EVERYWHERE])


async def test_palette_offers_and_runs_bound_actions() -> None:
    app = TinyApp()
    async with app.run_test() as pilot:
        offered = {a.description for a in bound_actions(app.screen)}
        assert {"Raw ids", "Down", "Definition", "Words", "Help", "Quit"} <= offered
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await search_palette(pilot, "raw ids")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.raw is True

        await pilot.press("ctrl+p")
        await search_palette(pilot, "definition")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.query_one(Listing).defined, "a widget's action runs on that widget"


async def test_palette_leaves_out_unavailable_actions_and_itself() -> None:
    app = TinyApp()
    async with app.run_test():
        provider = ActionsProvider(app.screen)
        found = [hit.text async for hit in provider.discover()]
        assert "Raw ids" in found
        assert "Never" not in found
        assert "Close" in found and not any("cursor" in text.lower() for text in found)
        assert not any("palette" in text.lower() for text in found)
        hits = [hit.text async for hit in provider.search("words")]
        assert hits == ["Words"]


async def test_goto_provider_offers_the_places_and_goes_there() -> None:
    app = TinyApp()
    async with app.run_test() as pilot:
        await pilot.press("ctrl+p")
        await search_palette(pilot, "go to helper")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.went_to == ["helper"]


def test_keymap_keeps_known_ids_and_real_keys_and_says_why_not_the_rest() -> None:
    known = binding_ids([Listing, Main, Inner, TinyApp])
    assert set(known) == {"list.down", "list.definition", "main.raw", "main.never", "header.words", "app.help", "app.quit"}
    keymap, problems = checked_keymap(
        [("list.down", "n,ctrl+shift+down,?"), ("main.rw", "x"), ("list.definition", "ctl+d,pgdown,f5"), ("app.quit", "\x07")],
        known,
    )
    assert keymap == {"list.down": "n,ctrl+shift+down,?", "list.definition": "f5"}
    assert problems == [
        "keys: 'main.rw' is no binding id (did you mean main.raw?)",
        "keys: list.definition 'ctl+d': 'ctl' is not a modifier (ctrl, shift, alt, meta, super, hyper)",
        "keys: list.definition 'pgdown': no such key (keys are characters or names such as pagedown, f5, question_mark)",
        "keys: app.quit '\\x07': a control character is not a key name",
    ]


def test_every_binding_of_the_inspector_has_an_id_the_keymap_knows() -> None:
    known = binding_ids()
    assert {"app.quit", "app.help", "main.raw", "list.down", "header.choose", "help.close"} <= set(known)
    assert all("." in binding_id for binding_id in known), "ids say which pane they belong to"


async def test_keys_remapped_in_the_config_work_show_in_help_and_bad_ones_are_told() -> None:
    keys = KeySettings(
        bindings=(("list.down", "n"), ("main.rw", "x"), ("list.up", "pgup")),
        problems=('config.json: "keys": "list.first" has no keys',),
    )
    app = make_app(EXAMPLE_MODULE.read_bytes(), keys=keys)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        told = "\n".join(n.message for n in app._notifications)
        assert "'main.rw' is no binding id (did you mean main.raw?)" in told
        assert "list.up 'pgup': no such key" in told
        assert '"list.first" has no keys' in told
        instruction_list = app.screen.query_one("#list")
        start = instruction_list.selection.row
        await pilot.press("n")
        await pilot.pause()
        assert instruction_list.selection.row == start + 1, "n moves down now"
        await pilot.press("down")
        await pilot.pause()
        assert instruction_list.selection.row == start + 1, "down no longer does"
        await pilot.press("question_mark")
        await pilot.pause()
        sections = {s.title: s for s in app.screen.sections}
        listed = rows(sections["Instruction list"])
        assert listed["n"] == "Down" and "↓" not in listed
        console = Console(width=200, file=io.StringIO())
        for static in app.screen.query(".help-keys"):
            console.print(static.content)
        shown = console.file.getvalue()
        assert "[list.down]" in shown and "[main.raw]" in shown


def test_a_key_remapped_over_another_action_of_the_pane_is_told() -> None:
    classes = [Listing, Main, TinyApp]
    assert key_clashes({"list.down": "enter,x", "main.raw": "q"}, classes) == [
        "keys: enter of list.down takes the key from list.definition"
    ], "q is the app's, r the screen's: another node, no clash"
    assert key_clashes({"list.down": "enter", "list.definition": "d"}, classes) == [], "moved away first"
