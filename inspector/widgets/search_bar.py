"""The search bar: `/` opens it; enter asks the screen to search, escape closes it."""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class SearchBar(Input):
    """A one-line input for an opcode, `%id` or friendly name, literal or any text."""

    BINDING_GROUP_TITLE = "Search bar"
    BINDINGS = [Binding("escape", "close", "Close", id="search.close", tooltip="Close the search bar")]

    class Search(Message):
        """Search the module for `text`."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """The bar was closed without a search."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="search: OpLoad, %42, %main, 0x14c1 (a word), 5313 (a value), 1.5, \"name\" or any text", id=id)

    def open(self) -> None:
        """Show the bar, focused, with the last query selected."""
        self.display = True
        # At once, not after a refresh: keys typed in the same burst as `/` are the query.
        self.screen.set_focus(self)
        self.select_all()

    def action_close(self) -> None:
        """Hide the bar."""
        self.display = False
        self.post_message(self.Closed())

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.display = False
        if event.value.strip():
            self.post_message(self.Search(event.value))
        else:
            self.post_message(self.Closed())
