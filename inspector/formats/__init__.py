"""What a document format offers the app, Textual-free: its panes (`PaneSpec`) and the
`Format` interface SPIR-V's `Document` and Lima's `LimaDocument` implement, so the app
and its screens use a document without asking which format it is."""

from spvinspect.formats.interface import Format
from spvinspect.formats.panes import PaneSpec, pane_names

__all__ = ["Format", "PaneSpec", "pane_names"]
