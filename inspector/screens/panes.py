"""Showing, hiding and zooming the panes of a screen, whatever the panes are.

The format lists its panes as specs (`Format.PANES`); their number keys (`pane_bindings`)
and `--pane` show a pane and focus it; `z` zooms the focused pane (with the panel that
belongs to it, such as the hex pane's word detail) to the whole screen; `x` hides it.
Below `NARROW_BELOW` columns only the panes that stay narrow are laid out and every other
pane opens zoomed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import AwaitMount, Widget

from spvinspect.formats.panes import PaneSpec

NARROW_BELOW = 100
"""Terminal width under which only the panes that stay narrow are laid out."""
HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-medium"), (160, "-wide")]
"""The screen's width classes: `-narrow` lays out only the panes that stay narrow."""


def width_class(width: int) -> str:
    """The width class Textual gives a screen `width` columns wide (the widest breakpoint
    it reaches)."""
    return max((breakpoint, name) for breakpoint, name in HORIZONTAL_BREAKPOINTS if width >= breakpoint)[1]


def pane_bindings(panes: Sequence[PaneSpec], prefix: str) -> list[Binding]:
    """The number key of each pane (`action_pane`), with ids `PREFIX.pane_NAME`."""
    return [
        Binding(pane.key, f"pane('{pane.name}')", pane.short or pane.title, show=False, id=f"{prefix}.pane_{pane.name}", tooltip=pane.tooltip)
        for pane in sorted(panes, key=lambda p: p.key)
        if pane.key
    ]


class BuiltPane:
    """What a pane built from its spec (`PaneSpec.factory`) hears from its screen: mix it
    into the widget's class and override what the pane needs."""

    def follow_selection(self, selection: Any) -> None:
        """The screen's selection changed (a `spvinspect.selection.Selection`; in Lima
        mode its `instruction` and `row` are the instruction's index)."""

    def document_changed(self, document: Any) -> None:
        """An edit gave the screen a new document (the format's `Format`)."""


class PaneGroup(Vertical):
    """Panes that zoom together: the pane asked for and the panels that explain it."""

    ALLOW_MAXIMIZE = True


class PaneLayout:
    """The panes of one screen: which are built, shown, focused and zoomed. A pane that
    starts hidden is built the first time something asks for it (its key, `--pane`, the
    palette, `pane(name)`), so a launch builds only the panes it lays out. `can_show`
    says whether a pane has anything to show (and tells the user why not)."""

    def __init__(self, screen: Screen, specs: Sequence[PaneSpec], can_show: Callable[[str], bool], home: str = "list") -> None:
        self._screen = screen
        self.specs = tuple(specs)
        """The panes, in the order the help describes them."""
        self.home = home
        """The pane that is always laid out, and gets the focus back."""
        self._can_show = can_show
        self._columns: dict[str, Widget] = {}
        """The containers of the "main" and "side" columns, where a pane built later goes."""
        self._widgets: dict[str, Widget] = {}
        """The widget each built pane's factory made (a box around the pane, or the pane)."""
        self._listeners: list[BuiltPane] = []
        """The built panes that hear of selections and edits."""
        self._composed_told = False
        """Whether the composed panes are among `_listeners` yet (done at the first change)."""
        self._hidden_by_user: set[str] = set()
        """The panes the user hid (x), which nothing but the user shows again."""

    def pane(self, name: str) -> Widget:
        """The widget of pane `name`, built (and mounted, hidden) if it was not yet."""
        spec = self._spec(name)
        if self._unbuilt(spec):
            self._build_later(spec, shown=False)
        return self._screen.query_one(spec.query, Widget)

    def built(self, name: str) -> Widget | None:
        """The widget of pane `name` if it has been built (else None; building nothing)."""
        spec = next((spec for spec in self.specs if spec.name == name), None)
        if spec is None or spec.name not in self._widgets:
            return None
        found = self._screen.query(spec.query)
        return found.first(Widget) if found else None

    def has(self, name: str) -> bool:
        """Whether the screen has a pane `name` (built or not)."""
        return any(spec.name == name and spec.factory is not None for spec in self.specs)

    def _spec(self, name: str) -> PaneSpec:
        return next(spec for spec in self.specs if spec.name == name)

    def _unbuilt(self, spec: PaneSpec) -> bool:
        """Whether the pane is still to be built (and has a column to go into)."""
        return spec.factory is not None and spec.name not in self._widgets and spec.column in self._columns

    def _in_column(self, column: str) -> list[PaneSpec]:
        """The laid-out panes of `column`, in place order (equal places: in spec order)."""
        specs = [spec for spec in self.specs if spec.factory is not None and spec.column == column]
        return sorted(specs, key=lambda spec: spec.place)

    def _build(self, spec: PaneSpec) -> Widget:
        widget = spec.factory(self._screen)
        if widget.id is None:
            widget.id = spec.name
        self._widgets[spec.name] = widget
        return widget

    def built_panes(self, column: str, container: Widget) -> ComposeResult:
        """The panes of `column` that start shown, each built by its spec
        (`PaneSpec.factory`), in place order; `container` is the column, where the panes
        that start hidden go once built."""
        self._columns[column] = container
        for spec in self._in_column(column):
            if not spec.starts_hidden:
                yield self._build(spec)

    def _build_later(self, spec: PaneSpec, shown: bool) -> AwaitMount:
        """Build a pane that started hidden and mount it in its place in its column; once
        mounted it hears of selections and edits, first of the current ones."""
        widget = self._build(spec)
        widget.display = shown
        document = getattr(self._screen, "document", None)
        column = self._columns[spec.column]
        order = self._in_column(spec.column)
        later = (self._widgets.get(other.name) for other in order[order.index(spec) + 1 :])
        before = next((other for other in later if other is not None and other.parent is column), None)
        mounting = column.mount(widget, before=before)
        # Runs in the new widget's own queue, after its Compose and Mount.
        widget.call_later(self._caught_up, spec, document)
        return mounting

    def _caught_up(self, spec: PaneSpec, document: Any) -> None:
        """A pane built later is mounted: tell it what it missed, then every change."""
        widget = self._listening(spec)
        if widget is None:
            return
        current = getattr(self._screen, "document", None)
        if current is not document:
            widget.document_changed(current)
        selection = getattr(self._screen, "selection", None)
        if selection is not None:
            widget.follow_selection(selection)

    def _listening(self, spec: PaneSpec) -> BuiltPane | None:
        """The pane's widget, now among those told of changes (None: not a `BuiltPane`)."""
        found = self._screen.query(spec.query)
        widget = found.first() if found else None
        if not isinstance(widget, BuiltPane):
            return None
        if widget not in self._listeners:
            self._listeners.append(widget)
        return widget

    async def build_all(self) -> None:
        """Build every pane not built yet (hidden) and wait until each is mounted: for a
        view of them all (the help's keys)."""
        for spec in self.specs:
            if self._unbuilt(spec):
                await self._build_later(spec, shown=False)

    def _told(self) -> list[BuiltPane]:
        if not self._composed_told:
            # The composed panes, once mounted (the first selection comes after that).
            self._composed_told = True
            for spec in self.specs:
                if spec.name in self._widgets:
                    self._listening(spec)
        return self._listeners

    def follow(self, selection: Any) -> None:
        """Tell every built pane the new selection."""
        for widget in self._told():
            widget.follow_selection(selection)

    def document_changed(self, document: Any) -> None:
        """Tell every built pane an edit's new document."""
        for widget in self._told():
            widget.document_changed(document)

    def show(self, name: str, focus: bool = True) -> AwaitMount | None:
        """Show and focus a pane (`focus` False: only show it); on a narrow screen a focused
        pane fills the screen. A pane built just now is still mounting: awaiting what this
        returns waits for it."""
        if not self._can_show(name):
            return None
        screen = self._screen
        spec = self._spec(name)
        self._hidden_by_user.discard(name)
        mounting = self._build_later(spec, shown=True) if self._unbuilt(spec) else None
        widget = self.pane(name)
        widget.display = True
        for column in widget.ancestors:
            if isinstance(column, PaneGroup):
                column.display = True
            if isinstance(column, Widget):
                column.set_class(False, "-emptied")
        if not focus:
            return mounting
        widget.focus()
        if screen.has_class("-narrow") and not self._spec(name).stays_narrow:
            screen.maximize(widget)
        elif screen.maximized is not None and widget not in (screen.maximized, *screen.maximized.walk_children()):
            screen.minimize()
        return mounting

    def shown(self, name: str) -> bool:
        """Whether pane `name` is on screen (built, displayed, not behind a zoomed pane)."""
        widget = self.built(name)
        if widget is None or not widget.display:
            return False
        zoomed = self._screen.maximized
        if zoomed is not None:  # only the zoomed pane and what it holds are on screen
            return widget is zoomed or zoomed in widget.ancestors or widget in zoomed.ancestors
        return all(column.display for column in widget.ancestors if isinstance(column, Widget))

    def show_run_panes(self) -> list[PaneSpec]:
        """Show the panes a run is read in (`PaneSpec.shows_run`), the focus left where it
        is; the ones left hidden (the user hid them, the screen is narrow), for naming."""
        untold = []
        for spec in self.specs:
            if not spec.shows_run or spec.factory is None or self.shown(spec.name):
                continue
            if spec.name in self._hidden_by_user or self._screen.has_class("-narrow") or self._screen.maximized is not None:
                untold.append(spec)
            else:
                self.show(spec.name, focus=False)
        return untold

    def zoom(self, name: str) -> None:
        """Focus pane `name` and zoom it to the whole screen (`--pane`)."""
        self.show(name)
        if self._screen.maximized is None:
            self._screen.maximize(self.pane(name))

    def toggle_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or restore the layout."""
        screen = self._screen
        if screen.maximized is not None:
            screen.minimize()
        elif screen.focused is not None:
            screen.maximize(screen.focused)

    def hide_focused(self) -> None:
        """Hide the focused pane (never the home pane); its number key brings it back."""
        screen = self._screen
        focused = screen.focused
        names = {spec.query.lstrip("#"): spec.name for spec in self.specs}
        if focused is None or focused.id not in names:
            return
        if names[focused.id] == self.home:
            screen.notify(f"The {self.home} pane stays; zoom (z) another pane instead.")
            return
        if screen.maximized is not None:
            screen.minimize()
        hidden = focused.parent if isinstance(focused.parent, PaneGroup) else focused
        hidden.display = False
        self._hidden_by_user.add(names[focused.id])
        for column in hidden.ancestors:
            if isinstance(column, Widget) and column is not screen and column.id != "panes":
                # An empty column would keep its width.
                column.set_class(not any(child.display for child in column.children), "-emptied")
        self.focus_home()

    def focus_home(self) -> None:
        """Give the focus back to the home pane (leaving a zoomed other pane)."""
        screen = self._screen
        home = self.pane(self.home)
        if screen.maximized is not None and screen.maximized is not home:
            screen.minimize()
        home.focus()
