"""The app's screens: a format's screen owns the selection; dialogs return typed results.

`screen_for` opens the screen a document's format names (`Format.SCREEN`), importing it
only then (Lima's screen and codec stay unloaded for a SPIR-V module)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

SCREENS = {"spirv": ("spvinspect.screens.main", "MainScreen"), "lima": ("spvinspect.screens.lima", "LimaScreen")}
"""Format → the module and class of the screen that lays out its panes."""


def screen_for(document: Any, **options: Any) -> Any:
    """The screen over `document`, with the options the command line gave (`at`, `pane`, `raw`)."""
    module, name = SCREENS[document.SCREEN]
    return getattr(import_module(module), name)(document, **options)
