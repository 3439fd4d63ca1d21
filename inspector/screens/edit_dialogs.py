"""The editor's questions: quit with unsaved changes (yes or no), overwrite / save
elsewhere / cancel before a save replaces bytes the user has not seen, and where to save
(a path)."""

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


class SaveChoice(ModalScreen[str | None]):
    """Asked before a save replaces bytes the user has not seen (a file changed on disk, an
    existing file under a "save as" name): "overwrite", "elsewhere" or None (cancel)."""

    DEFAULT_CSS = """
    SaveChoice { align: center middle; }
    SaveChoice > Vertical { width: 80; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    SaveChoice Label { width: 100%; }
    SaveChoice Horizontal { height: auto; margin-top: 1; }
    SaveChoice Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("o,y", "answer('overwrite')", "Overwrite", id="save_choice.overwrite", tooltip="Write the edit over it"),
        Binding("s", "answer('elsewhere')", "Save elsewhere", id="save_choice.elsewhere", tooltip="Choose another name"),
        Binding("c,n,escape", "answer('')", "Cancel", id="save_choice.cancel", tooltip="Do not save"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            with Horizontal():
                yield Button("Overwrite (o)", variant="warning", id="overwrite")
                yield Button("Save elsewhere (s)", id="elsewhere")
                yield Button("Cancel (c)", id="cancel")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "cancel" else event.button.id)

    def action_answer(self, choice: str) -> None:
        """Close with the choice ('' cancels)."""
        self.dismiss(choice or None)


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
