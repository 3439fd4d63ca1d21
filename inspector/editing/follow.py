"""The document the panes show for an edited binary.

Textual-free, called on the editor's job thread. Ids stay put across an edit (the text
keeps the original's names and the assembler pins them), so the friendly names of the
module on screen still name the edited one: the new document shares them, and the panes
never wait for a naming pass over the whole module. When the job knows which words
changed since the binary on screen, the new module's index is the old one's with those
words re-scanned (`codec.binary.splice`), so a keystroke on a huge module does not index the
whole module again; otherwise the new module is indexed afresh.
"""

from __future__ import annotations

from spvinspect.document import Document
from spvinspect.codec.binary.splice import WordChange, splice_module


def edited_document(previous: Document, binary: bytes, change: WordChange | tuple[()] | None) -> Document:
    """A document over `binary`, an edit of `previous`'s module that keeps its ids;
    `change` says which words changed (see `EditSession.change_since_shown`)."""
    module = splice_module(previous.module, binary, change) if change else None
    document = Document(binary, previous.path, previous.grammar, module=module)
    document.share_names(previous)
    document.module.functions()  # here rather than on the UI thread, if not spliced
    return document
