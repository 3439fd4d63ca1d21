"""The copy dialog (ctrl+c): what the selection offers to copy, a key each, and the
export of the function's text to a file the user names (asked before replacing one)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from spvinspect.copying import KEYS, CopyChoices, export_text
from spvinspect.screens.edit_dialogs import Question, SaveAs

PREVIEW = 60
"""Characters of a choice's text shown beside it (and in the notice)."""


def preview(text: str) -> str:
    """The first line of `text`, cut to `PREVIEW` characters with an ellipsis."""
    first, *more = text.strip().splitlines() or [""]
    cut = len(first) > PREVIEW
    return first[:PREVIEW] + ("…" if cut or more else "")


class CopyScreen(ModalScreen[str | None]):
    """The choices of one selection; returns a choice's kind, `export`, or None."""

    DEFAULT_CSS = """
    CopyScreen { align: center middle; }
    #copy-dialog { width: 90%; max-width: 100; height: auto; border: round $primary; background: $surface; }
    #copy-list { border: none; height: auto; }
    """
    BINDINGS = [
        Binding("i,ctrl+c", "pick('instruction')", "Instruction", id="copy.instruction",
                tooltip="Copy the selected instruction as its line shows it (ctrl+c twice does too)"),
        Binding("f", "pick('function')", "Function", id="copy.function",
                tooltip="Copy the selected instruction's function (Lima: the whole program) as text"),
        Binding("w", "pick('words')", "Words", id="copy.words", tooltip="Copy the selected instruction's words in hex"),
        Binding("o", "pick('offset')", "Offset", id="copy.offset", tooltip="Copy the byte offset of the selection"),
        Binding("x", "pick('export')", "Export", id="copy.export",
                tooltip="Write the function's (Lima: the program's) text to a file you name"),
        Binding("escape,q", "pick('')", "Close", id="copy.close", tooltip="Close without copying"),
    ]

    def __init__(self, choices: CopyChoices) -> None:
        super().__init__()
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="copy-dialog") as dialog:
            dialog.border_title = "Copy"
            options = [
                Option(Text.assemble((f"{KEYS[c.kind]}  ", "bold"), (f"{c.what}  ", ""), (preview(c.text), "dim")), id=c.kind)
                for c in self.choices.choices
            ]
            if self.choices.export_name is not None:
                function = self.choices.get("function")
                options.append(Option(Text.assemble(("x  ", "bold"), f"export {function.what} to a file…"), id="export"))
            yield OptionList(*options, id="copy-list")

    def action_pick(self, kind: str) -> None:
        """Close with the choice of `kind` ('' closes without copying); a kind the
        selection does not offer is told."""
        if not kind:
            self.dismiss(None)
        elif kind == "export" and self.choices.export_name is None or kind != "export" and self.choices.get(kind) is None:
            self.notify(f"Nothing to copy as {kind} here", severity="warning", timeout=3)
        else:
            self.dismiss(kind)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option.id or "")


def start_copy(app: App, choices: CopyChoices) -> None:
    """Ask what to copy, then copy it (OSC 52) with a notice, or export it."""

    def chosen(kind: str | None) -> None:
        if kind == "export":
            _ask_export(app, choices)
        elif kind is not None:
            choice = choices.get(kind)
            app.copy_to_clipboard(choice.text)
            lines = choice.text.count("\n") + 1
            size = f"{lines:,} lines" if lines > 1 else f"{len(choice.text):,} characters"
            app.notify(f"Copied {choice.what} ({size}): {preview(choice.text)}", timeout=4, markup=False)

    app.push_screen(CopyScreen(choices), chosen)


def _ask_export(app: App, choices: CopyChoices) -> None:
    """Where to write the function's text; a question first when the file exists."""
    function = choices.get("function")

    def named(name: str | None) -> None:
        if name is None:
            return
        path = Path(name).expanduser()
        if path.exists():
            app.push_screen(
                Question(f"{path} exists. Replace it with the text of {function.what}?", "Replace"),
                lambda yes: yes and _export(app, choices, path),
            )
        else:
            _export(app, choices, path)

    app.push_screen(SaveAs(str(choices.export_name), f"the text of {function.what}"), named)


def _export(app: App, choices: CopyChoices, path: Path) -> None:
    """Write the text; a failure is told in words."""
    function = choices.get("function")
    try:
        path.write_text(export_text(choices), encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        app.notify(f"Not exported: {path}: {error.strerror or error}", severity="error", timeout=8, markup=False)
        return
    app.notify(f"Exported {function.what} to {path}", timeout=4, markup=False)
