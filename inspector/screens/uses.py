"""The uses dialog: every place an id is used, to pick one and jump there."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.content import Content

from spvinspect.module_index import Use


class UsesScreen(ModalScreen[Use | None]):
    """A list of uses; `enter` returns the chosen one, `escape` returns None."""

    BINDINGS = [
        Binding("escape,q", "dismiss_none", "Close", id="uses.close", tooltip="Close without jumping"),
        Binding("j", "move(1)", "Down", show=False, id="uses.down", tooltip="The next use"),
        Binding("k", "move(-1)", "Up", show=False, id="uses.up", tooltip="The previous use"),
    ]

    def __init__(self, title: str, uses: list[Use], offsets: list[int], more: int = 0) -> None:
        super().__init__()
        self._title = title
        self._uses = uses
        self._offsets = offsets
        self._more = more

    def compose(self) -> ComposeResult:
        with Vertical(id="uses-dialog") as dialog:
            dialog.border_title = Content(self._title)
            if self._more:
                dialog.border_subtitle = f"first {len(self._uses):,} shown, {self._more:,} more"
            options = [
                Option(Text.assemble((f"{offset:08x}  ", "dim"), use.line.strip()), id=str(k))
                for k, (use, offset) in enumerate(zip(self._uses, self._offsets))
            ]
            if not options:
                options = [Option("no uses", disabled=True)]
            yield OptionList(*options, id="uses-list")

    def action_move(self, step: int) -> None:
        """Move the highlight to the next (1) or previous (-1) use, as the arrows do."""
        options = self.query_one(OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def action_dismiss_none(self) -> None:
        """Close without jumping."""
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._uses[int(event.option.id or 0)])
