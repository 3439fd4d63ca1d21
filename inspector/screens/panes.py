"""Showing, hiding and zooming the panes of a screen, whatever the panes are.

A screen lists its panes as specs (`PANE_SPECS`, from its format); their number keys
(`pane_bindings`) and `--pane` show a pane and focus it; `z` zooms the focused pane (with
the panel that belongs to it, such as the hex pane's word detail) to the whole screen;
`x` hides it. Below `NARROW_BELOW` columns only the panes that stay narrow are laid out
and every other pane opens zoomed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import Widget

from spvinspect.formats.panes import PaneSpec

NARROW_BELOW = 100
"""Terminal width under which only the panes that stay narrow are laid out."""


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


class PaneScreen(Screen):
    """A screen of named panes that can be shown, focused, hidden and zoomed."""

    PANE_SPECS: ClassVar[tuple[PaneSpec, ...]] = ()
    """The screen's panes, in the order the help describes them."""
    HOME: ClassVar[str] = "list"
    """The pane that is always laid out, and gets the focus back."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-medium"), (160, "-wide")]

    def pane(self, name: str) -> Widget:
        """The widget of pane `name`."""
        return self.query_one(self._spec(name).query, Widget)

    def _spec(self, name: str) -> PaneSpec:
        return next(spec for spec in self.PANE_SPECS if spec.name == name)

    def built_panes(self, column: str) -> ComposeResult:
        """The panes the format builds (`PaneSpec.factory`) that go in `column`."""
        for spec in self.PANE_SPECS:
            if spec.factory is not None and spec.column == column:
                widget = spec.factory(self)
                widget.id = spec.name
                if spec.starts_hidden:
                    widget.display = False
                yield widget

    def _built(self) -> Iterator[BuiltPane]:
        for spec in self.PANE_SPECS:
            if spec.factory is not None:
                widget = self.query_one(spec.query)
                if isinstance(widget, BuiltPane):
                    yield widget

    def follow_in_built_panes(self, selection: Any) -> None:
        """Tell every built pane the new selection."""
        for widget in self._built():
            widget.follow_selection(selection)

    def document_in_built_panes(self, document: Any) -> None:
        """Tell every built pane an edit's new document."""
        for widget in self._built():
            widget.document_changed(document)

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
        if self.has_class("-narrow") and not self._spec(name).stays_narrow:
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
        names = {spec.query.lstrip("#"): spec.name for spec in self.PANE_SPECS}
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
