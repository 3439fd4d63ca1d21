"""The app opened on a comparison (`spvinspect A --diff B`): the inspector's app (themes,
keys, help, the palette) with the side-by-side screen as its first screen."""

from __future__ import annotations

from textual.screen import Screen

from spvinspect.app import InspectorApp
from spvinspect.screens.diff import DiffScreen


class DiffApp(InspectorApp):
    """Two files side by side; `make` builds their comparison (`formats.compare_files`)."""

    def __init__(self, document, make, title: str, **kwargs) -> None:
        super().__init__(document, **kwargs)
        self._make = make
        self._title = title
        self.sub_title = title

    def get_default_screen(self) -> Screen:
        return DiffScreen([(self._title, self._make)])
