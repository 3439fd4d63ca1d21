"""The editor's questions: overwrite a file changed on disk or quit with unsaved changes
(yes or no), and where to save (a path)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label


class Question(ModalScreen[bool]):
    """A yes/no question (overwrite a file changed on disk, quit with unsaved changes)."""

    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Vertical { width: 70; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    Question Horizontal { height: auto; margin-top: 1; }
    Question Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="question.yes", tooltip="Answer yes"),
        Binding("n,escape", "answer(False)", "No", id="question.no", tooltip="Answer no"),
    ]

    def __init__(self, question: str, yes: str) -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            with Horizontal():
                yield Button(f"{self.yes} (y)", variant="warning", id="yes")
                yield Button("Cancel (n)", id="no")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


class SaveAs(ModalScreen[str | None]):
    """Ask where to save, and so what: a `.spvasm` name gets the text, `.mbs` (Lima) the
    container with the edited code, anything else the binary."""

    DEFAULT_CSS = """
    SaveAs { align: center middle; }
    SaveAs > Vertical { width: 80; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="save_as.cancel", tooltip="Close without saving")]

    def __init__(self, suggested: str, kinds: str) -> None:
        super().__init__()
        self.suggested = suggested
        self.kinds = kinds

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Save as ({self.kinds}):")
            yield Input(self.suggested, id="path")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
