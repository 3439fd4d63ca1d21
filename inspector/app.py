"""The Textual app: themes, the main screen over one document, help and the palette."""

from __future__ import annotations

import time
from collections.abc import Iterable

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.theme import Theme

from spvinspect.responsive import FULL_COLLECTION_PAUSES, IDLE_AFTER, last_input, memory
from spvinspect.responsive.collector import IdleCollections
from spvinspect.config import KeySettings, save_theme
from spvinspect.formats import Format
from spvinspect.keymap import binding_ids, checked_keymap, key_clashes
from spvinspect.palette import ActionsProvider, GotoProvider
from spvinspect.screens.help import HelpScreen
from spvinspect.screens import screen_for
from spvinspect.themes import DEFAULT_THEME, THEMES, offered, variable_defaults
from spvinspect.tour import Tour
from spvinspect.worker_failures import WorkerFailed, failure_text


def _places(screen: Screen):
    """Functions and entry points of the module, for "Go to …" in the command palette
    (a screen without places offers none)."""
    places = getattr(screen, "places", None)
    return places() if places is not None else []


class InspectorApp(App[None]):
    """spvinspect's inspector over one module."""

    CSS_PATH = ["app.tcss", "lima.tcss"]
    TITLE = "spvinspect"
    COMMANDS = App.COMMANDS | {ActionsProvider, GotoProvider(_places)}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Quit spvinspect"),
        Binding("question_mark", "help", "Help", id="app.help", tooltip="Every key, and what each pane shows"),
        Binding("L", "legend", "Legend", show=False, id="app.legend", tooltip="Show or hide what each colour of the hex pane and the list means"),
        Binding("t", "tour(1)", "Tour", show=False, id="app.tour_next", tooltip="The guided tour's next step (the first opens the tour)"),
        Binding("T", "tour(-1)", "Tour back", show=False, id="app.tour_previous", tooltip="The guided tour's previous step"),
        Binding("escape", "leave_tour", "Leave tour", show=False, id="app.tour_leave", tooltip="Leave the guided tour; the selection stays"),
        Binding("ctrl+c", "copy", "Copy", show=False, id="app.copy",
                tooltip="Copy the selected instruction, its function, words or offset; or export the function as text"),
    ]

    last_input: float = 0.0
    """`time.monotonic()` of the last key or mouse event: background work waits while
    the user is active (read through `responsive.last_input`, also from worker threads)."""

    def __init__(
        self,
        document: Format,
        *,
        at: int | None = None,
        pane: str | None = None,
        raw: bool = False,
        theme: str | None = None,
        notice: str | None = None,
        keys: KeySettings = KeySettings(),
        tour: Tour | None = None,
    ) -> None:
        super().__init__()
        self._opened: Format | None = document
        self._main: Screen | None = None
        self.tour = tour
        """The guided tour `t` steps through (`--tour FILE`, or the bundled example's); None: none."""
        self._keys = keys
        self._at = at
        self._pane = pane
        self._raw = raw
        for registered in THEMES.values():
            self.register_theme(registered)
        if theme is not None and theme not in self.available_themes:
            unknown = f"theme {theme!r}: no such theme (ctrl+p lists them); using {DEFAULT_THEME}"
            notice = f"{notice}\n{unknown}" if notice else unknown
            theme = None
        self._start_with_theme(theme or DEFAULT_THEME)
        self._notice = notice
        self.sub_title = document.name
        self._collections = IdleCollections()
        self.worker_failures: list[WorkerFailed] = []
        """Failures of background workers, each told in a notice (the app went on)."""

    def _start_with_theme(self, name: str) -> None:
        """The theme the app starts in, in place before any CSS is read: what setting `theme`
        does (its classes, ANSI colours and CSS variables) but the re-parse of every
        stylesheet its watcher asks for once the app runs, which the CSS read with Textual's
        default theme needed."""
        self.set_reactive(App.theme, name)
        dark = self.current_theme.dark
        self.update_classes({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def on_resize(self, event: events.Resize) -> None:
        """A resize to the size the app has (the terminal's first size, which its driver
        sends once running) is dropped: Textual would send it on to the screen when idle,
        and the screen would lay everything out again."""
        if self.is_mounted and event.size == self.size:
            event.prevent_default()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)):
            self.last_input = time.monotonic()
        await super().on_event(event)

    def notify(self, message: str, *, title: str = "", severity="information", timeout=None, markup: bool = True) -> None:
        """Every notice is plain text: messages carry file names, OpNames and searches, whose
        square brackets are not markup."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def _handle_exception(self, error: Exception) -> None:
        """A worker's failure is a notice and the app goes on (Textual would exit: this is
        where it hands a worker's error); any other error is Textual's to handle."""
        if isinstance(error, WorkerFailed):
            self.worker_failures.append(error)
            self.notify(failure_text(error), severity="error", timeout=12, markup=False)
            return
        super()._handle_exception(error)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's palette commands but its Quit: the palette offers ours (`q`), which
        asks before an unsaved edit is lost."""
        for command in super().get_system_commands(screen):
            if command.title != "Quit":
                yield command

    def get_theme(self, theme_name: str) -> Theme | None:
        """Textual's own themes (which Textual registers) come made readable (`themes.offered`)."""
        theme = super().get_theme(theme_name)
        return offered(theme) if theme is not None else None

    @property
    def current_theme(self) -> Theme:
        """Textual's current theme, looked up once while the theme and the theme registered
        under its name stay the same (Textual looks it up for every line it draws, through
        `ansi_theme`, copying the registry each time)."""
        name = self.theme
        registered = self._registered_themes.get(name)
        kept = self.__dict__.get("_current_theme_kept")
        if kept is not None and kept[0] == name and kept[1] is registered:
            return kept[2]
        theme = App.current_theme.fget(self)
        if registered is not None:  # a name list ("a,b") is looked up each time
            self.__dict__["_current_theme_kept"] = (name, registered, theme)
        return theme

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our semantic variables for Textual's own themes too (our dark or light theme's,
        as bright as the theme), so switching to one works."""
        return variable_defaults(self.current_theme.dark)

    @property
    def document(self) -> Format:
        """The document the main screen shows (the opened one until an edit replaces it).
        The app keeps no other: the opened one, with its index, is freed once replaced."""
        return self._main.document if self._main is not None else self._opened

    def get_default_screen(self) -> Screen:
        self._main = screen_for(self._opened, at=self._at, pane=self._pane, raw=self._raw)
        self._opened = None
        return self._main

    def on_mount(self) -> None:
        memory.large_blocks_mapped()
        self._collections.start()
        self.set_interval(IDLE_AFTER / 2, self._collect_when_idle)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self._notice:
            self.notify(self._notice, severity="warning", timeout=8)
        if self._keys.bindings or self._keys.problems:
            self._use_keys(self._keys)

    def on_unmount(self) -> None:
        self._collections.stop()

    def _collect_when_idle(self) -> None:
        idle = time.monotonic() - last_input(self)
        if idle >= IDLE_AFTER * FULL_COLLECTION_PAUSES and self._collections.collect_if_idle():
            return
        if idle >= IDLE_AFTER:
            self._collections.freeze_if_due()

    def _use_keys(self, keys: KeySettings) -> None:
        """Remap the keys the config file gives; one notice lists what could not be used."""
        keymap, problems = checked_keymap(keys.bindings, binding_ids())
        self.set_keymap(keymap)
        problems = [*keys.problems, *problems, *key_clashes(keymap)]
        if problems:
            self.notify("\n".join(problems), title="Keys in the config file", severity="warning", timeout=12, markup=False)

    def _remember_theme(self, theme) -> None:
        """Save a theme chosen in the app for the next start; say so when it cannot be."""
        problem = save_theme(theme.name)
        if problem:
            self.notify(problem, severity="warning")

    async def action_quit(self) -> None:
        """Quit; with an unsaved edit, ask first."""
        if not any(getattr(screen, "ask_before_quit", lambda: False)() for screen in self.screen_stack):
            self.exit()

    def action_copy(self) -> None:
        """Offer what the selection can copy (the screen's `copy_choices`), then copy it."""
        from spvinspect.screens.copy import CopyScreen, start_copy

        if isinstance(self.screen, CopyScreen):
            return
        choices_of = getattr(self.screen, "copy_choices", None)
        choices = choices_of() if choices_of is not None else None
        if choices is None:
            self.notify("Nothing to copy here", timeout=3)
        else:
            start_copy(self, choices)

    async def action_help(self) -> None:
        """Show every key and what each pane shows."""
        if not isinstance(self.screen, HelpScreen):
            layout = getattr(self.screen, "pane_layout", None)
            if layout is not None:
                await layout.build_all()  # the keys of the panes not shown yet too
            self.push_screen(HelpScreen())

    # -- the legend and the tour (panes of the screen, when it has them) -------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_tour":
            # Escape is the tour's only while the tour is open.
            return self._tour_pane(open_only=True) is not None
        return True

    def _screen_pane(self, name: str, build: bool = True):
        """Pane `name` of the current screen (built if it was not yet, when `build`); None
        when the screen has no such pane."""
        layout = getattr(self.screen, "pane_layout", None)
        if layout is None or not layout.has(name):
            return None
        return layout.pane(name) if build else layout.built(name)

    def _tour_pane(self, open_only: bool = False):
        from spvinspect.widgets.tour_pane import TourPane

        # Escape asks whether the tour is open: that builds nothing.
        pane = self._screen_pane("tour", build=not open_only)
        if not isinstance(pane, TourPane) or (open_only and not pane.display):
            return None
        return pane

    def action_tour(self, delta: int) -> None:
        """The guided tour's step `delta` away (the first step opens it)."""
        layout = getattr(self.screen, "pane_layout", None)
        if layout is None or not layout.has("tour"):
            self.notify("No tour on this screen", severity="warning")
        elif self.tour is None:
            self.notify(
                "No tour for this file: spvinspect --tour FILE MODULE opens one (the bundled examples have their own)",
                severity="warning",
                timeout=6,
            )
        else:
            pane = self._tour_pane()
            # In the pane's own queue: a pane built just now first catches up with the
            # selection, then its step selects the step's place.
            pane.call_later(pane.go, delta)

    def action_leave_tour(self) -> None:
        """Leave the guided tour; the selection stays where it is."""
        pane = self._tour_pane(open_only=True)
        if pane is not None:
            pane.leave()

    def action_legend(self) -> None:
        """Show or hide the colour legend beside the hex pane."""
        layout = getattr(self.screen, "pane_layout", None)
        if layout is None or not layout.has("legend"):
            self.notify("No colour legend on this screen", severity="warning")
            return
        legend, screen = layout.built("legend"), self.screen
        if legend is not None and legend.display:
            if screen.maximized is legend:
                screen.minimize()  # zoomed on a narrow screen: back to the list
            legend.display = False
            focus_home = getattr(screen, "focus_home", None)
            if focus_home is not None and (self.focused is None or self.focused is legend):
                focus_home()
        else:
            self.screen.show_pane("legend")
