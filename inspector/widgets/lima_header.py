"""The Lima header pane: a summary of the program, then (for MBS files) the chunk tree.

It draws the `LimaDocument.header` nodes as a tree (identifiers, byte offsets, sizes and
parsed values); choosing a line that has a byte offset posts `ByteSelected` for the
screen to follow (the hex pane's cursor, or the instruction holding that byte).
"""

from __future__ import annotations

from textual import on
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from spvinspect.lima_document import HeaderNode, LimaDocument
from spvinspect.widgets.kept_lines import KeptLines
from spvinspect.widgets.scrollbars import KeptScrollbars


class LimaHeader(KeptScrollbars, KeptLines, Tree[HeaderNode]):
    """Length, instruction count, units used, diagnostics, and the MBS chunk tree."""

    class ByteSelected(Message):
        """The user chose a header line: select the byte it starts at."""

        def __init__(self, byte_offset: int) -> None:
            super().__init__()
            self.byte_offset = byte_offset
            """Byte offset in the file."""

    def __init__(self, document: LimaDocument, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("MBS file" if document.is_mbs else "raw PP stream", id=id, classes=classes)
        self.document = document
        self.show_root = False
        self.guide_depth = 2
        self.border_title = "Header"
        self._add(self.root, document.header, depth=0)

    def show_document(self, document: LimaDocument) -> None:
        """Show another program's header (an edit's)."""
        self.document = document
        self.clear()
        self._add(self.root, document.header, depth=0)

    def _add(self, parent: TreeNode[HeaderNode], nodes: tuple[HeaderNode, ...], depth: int) -> None:
        for node in nodes:
            if node.children:
                branch = parent.add(node.label, data=node, expand=depth < 2)
                self._add(branch, node.children, depth + 1)
            else:
                parent.add_leaf(node.label, data=node)

    def select_byte(self, byte_offset: int) -> bool:
        """Put the cursor on the line that starts at `byte_offset` (a chunk rather than a
        value inside it), opening the chunks around it, and select that byte as choosing
        the line would; False when no line starts there."""
        found = self._line_at(self.root, byte_offset)
        if found is None:
            return False
        parent = found.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        self.call_after_refresh(self.move_cursor, found)
        self.post_message(self.ByteSelected(byte_offset))
        return True

    def _line_at(self, node: TreeNode[HeaderNode], byte_offset: int) -> TreeNode[HeaderNode] | None:
        matches = []
        stack = list(reversed(node.children))
        while stack:
            child = stack.pop()
            if child.data is not None and child.data.byte_offset == byte_offset:
                matches.append(child)
            stack.extend(reversed(child.children))
        return next((m for m in matches if m.children), matches[0] if matches else None)

    @on(Tree.NodeSelected)
    def _chosen(self, event: Tree.NodeSelected[HeaderNode]) -> None:
        node = event.node.data
        if node is not None and node.byte_offset is not None:
            self.post_message(self.ByteSelected(node.byte_offset))
