"""Showing, hiding and zooming the panes of a screen, whatever the panes are.

A screen names its panes in `PANES` (name → selector). Number keys and `--pane` show a
pane and focus it; `z` zooms the focused pane (with the panel that belongs to it, such
as the hex pane's word detail) to the whole screen; `x` hides it. Below `NARROW_BELOW`
columns only the home pane (`HOME`) is laid out and every other pane opens zoomed.
"""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import Widget

NARROW_BELOW = 100
"""Terminal width under which only the home pane is laid out."""


class PaneGroup(Vertical):
    """Panes that zoom together: the pane asked for and the panels that explain it."""

    ALLOW_MAXIMIZE = True


class PaneScreen(Screen):
    """A screen of named panes that can be shown, focused, hidden and zoomed."""

    PANES: ClassVar[dict[str, str]] = {}
    """Pane name → the selector of its widget."""
    HOME: ClassVar[str] = "list"
    """The pane that is always laid out, and gets the focus back."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-medium"), (160, "-wide")]

    def pane(self, name: str) -> Widget:
        """The widget of pane `name`."""
        return self.query_one(self.PANES[name], Widget)

    def can_show(self, name: str) -> bool:
        """Whether pane `name` has anything to show; a screen may say why not (notify)."""
        return True

    def action_pane(self, name: str) -> None:
        """Show and focus a pane; on a narrow screen it fills the screen."""
        if not self.can_show(name):
            return
        widget = self.pane(name)
        widget.display = True
        for column in widget.ancestors:
            if isinstance(column, PaneGroup):
                column.display = True
            if isinstance(column, Widget):
                column.set_class(False, "-emptied")
        widget.focus()
        if self.has_class("-narrow") and name != self.HOME:
            self.maximize(widget)
        elif self.maximized is not None and widget not in (self.maximized, *self.maximized.walk_children()):
            self.minimize()

    def zoom_pane(self, name: str) -> None:
        """Focus pane `name` and zoom it to the whole screen (`--pane`)."""
        self.action_pane(name)
        widget = self.pane(name)
        if self.maximized is None:
            self.maximize(widget)

    def action_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or restore the layout."""
        if self.maximized is not None:
            self.minimize()
        elif self.focused is not None:
            self.maximize(self.focused)

    def action_hide_pane(self) -> None:
        """Hide the focused pane (never the home pane); its number key brings it back."""
        focused = self.focused
        names = {selector.lstrip("#"): name for name, selector in self.PANES.items()}
        if focused is None or focused.id not in names:
            return
        if names[focused.id] == self.HOME:
            self.notify(f"The {self.HOME} pane stays; zoom (z) another pane instead.")
            return
        if self.maximized is not None:
            self.minimize()
        hidden = focused.parent if isinstance(focused.parent, PaneGroup) else focused
        hidden.display = False
        for column in hidden.ancestors:
            if isinstance(column, Widget) and column is not self and column.id != "panes":
                # An empty column would keep its width.
                column.set_class(not any(child.display for child in column.children), "-emptied")
        self.focus_home()

    def focus_home(self) -> None:
        """Give the focus back to the home pane (leaving a zoomed other pane)."""
        home = self.pane(self.HOME)
        if self.maximized is not None and self.maximized is not home:
            self.minimize()
        home.focus()
