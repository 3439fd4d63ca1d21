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
from textual.widget import Widget

from spvinspect.formats.panes import PaneSpec

NARROW_BELOW = 100
"""Terminal width under which only the panes that stay narrow are laid out."""
HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-medium"), (160, "-wide")]
"""The screen's width classes: `-narrow` lays out only the panes that stay narrow."""


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
    """The panes of one screen: which are shown, which has the focus, which is zoomed.
    `can_show` says whether a pane has anything to show (and tells the user why not)."""

    def __init__(self, screen: Screen, specs: Sequence[PaneSpec], can_show: Callable[[str], bool], home: str = "list") -> None:
        self._screen = screen
        self.specs = tuple(specs)
        """The panes, in the order the help describes them."""
        self.home = home
        """The pane that is always laid out, and gets the focus back."""
        self._can_show = can_show
        self._listeners: list[BuiltPane] | None = None
        """The panes that hear of selections and edits (found once, after mounting)."""

    def pane(self, name: str) -> Widget:
        """The widget of pane `name`."""
        return self._screen.query_one(self._spec(name).query, Widget)

    def _spec(self, name: str) -> PaneSpec:
        return next(spec for spec in self.specs if spec.name == name)

    def built_panes(self, column: str) -> ComposeResult:
        """The panes of `column`, each built by its spec (`PaneSpec.factory`), in place order."""
        specs = [spec for spec in self.specs if spec.factory is not None and spec.column == column]
        for spec in sorted(specs, key=lambda spec: spec.place):
            widget = spec.factory(self._screen)
            if widget.id is None:
                widget.id = spec.name
            if spec.starts_hidden:
                widget.display = False
            yield widget

    def _built(self) -> Iterator[BuiltPane]:
        if self._listeners is None:
            widgets = (self._screen.query_one(spec.query) for spec in self.specs if spec.factory is not None)
            self._listeners = [widget for widget in widgets if isinstance(widget, BuiltPane)]
        return iter(self._listeners)

    def follow(self, selection: Any) -> None:
        """Tell every built pane the new selection."""
        for widget in self._built():
            widget.follow_selection(selection)

    def document_changed(self, document: Any) -> None:
        """Tell every built pane an edit's new document."""
        for widget in self._built():
            widget.document_changed(document)

    def show(self, name: str) -> None:
        """Show and focus a pane; on a narrow screen it fills the screen."""
        if not self._can_show(name):
            return
        screen = self._screen
        widget = self.pane(name)
        widget.display = True
        for column in widget.ancestors:
            if isinstance(column, PaneGroup):
                column.display = True
            if isinstance(column, Widget):
                column.set_class(False, "-emptied")
        widget.focus()
        if screen.has_class("-narrow") and not self._spec(name).stays_narrow:
            screen.maximize(widget)
        elif screen.maximized is not None and widget not in (screen.maximized, *screen.maximized.walk_children()):
            screen.minimize()

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
