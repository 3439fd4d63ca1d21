"""Intents any pane may post; the main screen acts on them and updates the selection.

Messages that only one widget posts live in that widget's class (`InstructionList.CursorMoved`);
these are the ones several panes share (the hex and CFG panes to come post them too).
"""

from __future__ import annotations

from textual.message import Message


class SelectWord(Message):
    """Select the instruction and operand holding a word (a diagnostic, a header field, a hex cell)."""

    def __init__(self, word: int, jump: bool = True) -> None:
        super().__init__()
        self.word = word
        """Word offset from the start of the module."""
        self.jump = jump
        """True to remember the place left in the jump history."""


class OperandSelection(Message):
    """Select a place (a row, an instruction) and an operand of its instruction."""

    def __init__(self, operand: int | None, jump: bool) -> None:
        super().__init__()
        self.operand = operand
        """Index into the instruction's operands; None for the opcode."""
        self.jump = jump
        """True to remember the place left in the jump history."""


class SelectRow(OperandSelection):
    """Select a row of the instruction list, and an operand of its instruction."""

    def __init__(self, row: int, operand: int | None = None, jump: bool = False) -> None:
        super().__init__(operand, jump)
        self.row = row


class SelectInstruction(OperandSelection):
    """Select an instruction by its index in the module (a CFG block's label, a use), and
    an operand of it; whatever row the list's layout gives it."""

    def __init__(self, index: int, operand: int | None = None, jump: bool = False, center: bool = False) -> None:
        super().__init__(operand, jump)
        self.index = index
        self.center = center
        """True to bring it mid-screen when it is off screen, without a jump (a run
        following its current instruction: the view stays still while it is in sight)."""


class GoToDefinition(Message):
    """Jump to where the id under the selection is defined."""


class ListUses(Message):
    """Show where the id under the selection is used, to pick one."""


class IndexProgress(Message):
    """The whole-module index (diagnostics, definitions, search text) advanced."""

    def __init__(self, fraction: float) -> None:
        super().__init__()
        self.fraction = fraction
        """Done so far, 0.0 to 1.0; 1.0 when the index is complete."""

    def can_replace(self, message: Message) -> bool:
        """A newer progress report makes an older, unprocessed one pointless."""
        return isinstance(message, IndexProgress)
