"""The app's screens: one inspector screen over any format (its view holds the format's
panes), dialogs that return typed results."""

from __future__ import annotations

from typing import Any


def screen_for(document: Any, **options: Any) -> Any:
    """The screen over `document`, with the options the command line gave (`at`, `pane`, `raw`)."""
    from spvinspect.screens.inspector import InspectorScreen

    return InspectorScreen(document, **options)
