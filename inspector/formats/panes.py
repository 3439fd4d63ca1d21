"""One record per pane, the single source for `--pane` names, the number keys, the help
screen's pane texts and the palette's "show pane" commands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any


@dataclass(frozen=True, slots=True)
class PaneSpec:
    """A pane: its name (as `--pane` takes it), title, what it shows, its number key and
    where its widget is on the screen."""

    name: str
    title: str
    text: str
    key: str = ""
    """The number key that shows and focuses it (none: only `--pane` and the help)."""
    short: str = ""
    """Its key's description in the footer, the help and the palette."""
    selector: str = ""
    """CSS selector of the pane's widget; `#name` when empty."""
    tooltip: str = ""
    """What its key does, for the help screen and the palette."""
    stays_narrow: bool = False
    """Laid out below the narrow width too (else its key zooms it to the whole screen)."""
    factory: Callable[[Any], Any] | None = None
    """Builds the pane's widget, given the screen (its `document`, its `view`); the screen
    puts it in `column`, with id `name` unless the factory gave it one (a box around the
    pane, which `selector` then finds inside). None: not laid out (a test's spec)."""
    column: str = "side"
    """Where the pane goes: "main" (the list's column) or "side" (beside it)."""
    place: int = 100
    """Its place in its column, top first (equal places: in the order of the specs)."""
    starts_hidden: bool = True
    """The pane is built and laid out only once something shows it or asks for it (its
    key, `--pane`, the palette, the help); else it is composed with the screen."""
    shows_run: bool = False
    """The pane a run is read in: shown, the focus left where it is, when a stepping key
    starts a run (unless the user hid it, or the screen is too narrow: then named)."""

    @property
    def query(self) -> str:
        """The selector to find the pane's widget with."""
        return self.selector or f"#{self.name}"


def pane_names(panes: Sequence[PaneSpec]) -> tuple[str, ...]:
    """The names `--pane` takes, in the order the help lists the panes."""
    return tuple(pane.name for pane in panes)


def widget_factory(module: str, class_name: str, *, of_document: bool = False) -> Callable[[Any], Any]:
    """A pane factory building `class_name` from `module` (given the screen's document when
    `of_document`), imported only when the screen builds the pane so that the spec modules
    stay Textual-free."""

    def build(screen: Any) -> Any:
        widget_class = getattr(import_module(module), class_name)
        return widget_class(screen.document) if of_document else widget_class()

    return build


def tour_pane(screen: Any) -> Any:
    """The guided tour's pane over the app's tour (None: the app has none), in either format."""
    from spvinspect.widgets.tour_pane import TourPane

    return TourPane(getattr(screen.app, "tour", None))
