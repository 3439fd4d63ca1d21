"""The tour pane: one step of a guided tour (`spvinspect.tour`) at a time, under the list.

`t` goes to the next step (the first opens the tour), `T` to the previous one, escape
leaves it; each step selects its place through the pane contract (`SelectWord`,
`SelectInstruction`; in Lima mode a byte of the file through the header pane, a field
through the breakdown) and shows the pane it names. Leaving the tour leaves the
selection where it is.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static
from textual.content import Content

from spvinspect.messages import SelectInstruction, SelectWord
from spvinspect.screens.panes import BuiltPane
from spvinspect.tour import Spot, Step, Tour, locate


class TourPane(BuiltPane, Static):
    """The current step of the app's tour: its title, what it says, and where it is."""

    DEFAULT_CSS = """
    TourPane { height: auto; max-height: 14; border: round $accent; padding: 0 1; overflow-y: auto; }
    """

    def __init__(self, tour: Tour | None) -> None:
        super().__init__("")
        self.tour = tour
        self.step_index: int | None = None
        """The step shown (from 0); None before the tour starts."""
        self.missed = ""
        """Why the current step's place is not in this module ('' when it is)."""
        self._field: tuple[int, tuple[str, str | None]] | None = None
        """(instruction, field) the breakdown's cursor goes to once the instruction is selected."""

    @property
    def step(self) -> Step | None:
        """The step shown, or None."""
        if self.tour is None or self.step_index is None:
            return None
        return self.tour.steps[self.step_index]

    def go(self, delta: int) -> None:
        """Show the step `delta` away (the first when the tour is not open), select its
        place and show its pane."""
        if self.tour is None:
            return
        last = len(self.tour.steps) - 1
        if not self.display or self.step_index is None:
            index = 0 if delta >= 0 or self.step_index is None else self.step_index
        else:
            index = min(max(self.step_index + delta, 0), last)
        self.step_index = index
        self.display = True
        step = self.tour.steps[index]
        spot = locate(self.screen.document, self.tour, step.place)
        self.missed = spot.missed
        self._go_to(spot)
        if step.pane and not self.screen.has_class("-narrow"):
            self._show_pane(step.pane)
        self._draw()

    def _go_to(self, spot: Spot) -> None:
        """Select the spot: a word or an instruction (the screen's selection), a byte of the
        file (the header pane's line), then a field (the breakdown's cursor)."""
        self._field = None
        if spot.byte is not None:
            header = self.screen.query("#header")
            if header and hasattr(header.first(), "select_byte"):
                header.first().select_byte(spot.byte)
        elif spot.instruction is not None:
            if spot.field is not None:
                self._field = (spot.instruction, spot.field)
            self.post_message(SelectInstruction(spot.instruction, jump=True))
        elif spot.word is not None:
            self.post_message(SelectWord(spot.word, jump=True))

    def follow_selection(self, selection) -> None:
        """The step's instruction is selected: put the breakdown's cursor on its field."""
        if self._field is None or selection is None:
            return
        (index, (strip, label)), self._field = self._field, None
        breakdown = self.screen.query("#breakdown")
        if selection.instruction == index and breakdown and hasattr(breakdown.first(), "select_named"):
            breakdown.first().select_named(strip, label)

    def _show_pane(self, name: str) -> None:
        """Lay out pane `name` (as its number key would) and give the focus back to the list."""
        screen = self.screen
        screen.show_pane(name)
        focus_home = getattr(screen, "focus_home", None)
        if focus_home is not None:
            focus_home()

    def _pane_hint(self, name: str) -> str:
        """`6 shows the Word table` for a narrow screen, where a step's pane would cover
        the tour (panes open zoomed there)."""
        spec = next((s for s in getattr(getattr(self.screen, "pane_layout", None), "specs", ()) if s.name == name), None)
        if spec is None:
            return ""
        return f"{spec.key} shows the {spec.title.lower()}, z back · " if spec.key else ""

    def on_show(self) -> None:
        """Shown by name (`--pane tour`) rather than by `t`: start at the first step."""
        if self.step_index is None:
            if self.tour is None:
                self.border_title = "Tour"
                self.update("No tour for this file: spvinspect --tour TOUR FILE opens one.")
            else:
                self.call_after_refresh(self.go, 1)

    def leave(self) -> None:
        """Close the tour; the selection stays where the last step left it."""
        self.display = False

    def _draw(self) -> None:
        step = self.step
        if step is None:
            return
        count = len(self.tour.steps)
        self.border_title = Content(f"Tour · {self.tour.title} · step {self.step_index + 1} of {count}")
        parts = [Text(step.title, style="bold"), Text(" ".join(step.text.split()))]
        if self.missed:
            parts.append(Text(f"Not in this file: {self.missed}; the selection stays.", style="italic"))
        hint = self._pane_hint(step.pane) if step.pane and self.screen.has_class("-narrow") else ""
        keys = "t next · T previous · escape leaves the tour" if self.step_index + 1 < count else "the last step · T previous · escape leaves the tour"
        parts.append(Text(hint + keys, style="dim"))
        self.update(Group(*parts))
