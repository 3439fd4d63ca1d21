"""The document the panes show for an edited binary.

Textual-free, called on the editor's job thread. Ids stay put across an edit (the text
keeps the original's names and the assembler pins them). Friendly names, though, are
derived from what the module says (a constant's value, a type's shape, an OpName), so
an edit of such an instruction renames ids as spirv-dis would name the edited module:
the new names are derived from the shown ones (`codec.text.names_update`: a constant's
value, a type's width, even when the edit re-encodes the switches on its values in the
functions), or else the new document is named afresh (its naming section read here, not
on the UI thread).
An edit that touches no naming instruction keeps every name, and the new document shares
the shown one's, so the panes never wait for a naming pass over a huge module. When the
job knows which words changed since the binary on screen, the new module's index is the
old one's with those words re-scanned (`codec.binary.splice`), so a keystroke on a huge
module does not index the whole module again; otherwise the new module is indexed afresh.
"""

from __future__ import annotations

from array import array

from spvinspect.codec.binary.splice import WordChange, splice_module
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.text.names import NameMap, words_name_ids
from spvinspect.codec.text.names_update import names_after_edit
from spvinspect.document import Document


def edited_document(previous: Document, binary: bytes, change: WordChange | tuple[()] | None,
                    read: tuple[array, bool] | None = None) -> Document:
    """A document over `binary`, an edit of `previous`'s module that keeps its ids;
    `change` says which words changed (see `SpirvAssembler.change_since_shown`); `read`:
    the binary's words as the assembly made them, and their byte order (not read again)."""
    module = splice_module(previous.module, binary, change, read) if change else None
    document = Document(binary, previous.path, previous.grammar, module=module)
    if names_kept(previous, document, change):
        document.share_names(previous)
    elif (renamed := renamed_names(previous, document, change)) is not None:
        document.rename_from(previous, renamed)
    else:
        document.names(False).prepare()
    document.module.functions()  # here rather than on the UI thread, if not spliced
    return document


def renamed_names(previous: Document, edited: Document, change: WordChange | tuple[()] | None) -> NameMap | None:
    """The edited module's friendly names derived from the shown ones (an edit of a
    constant or a type renames a few ids), or None when a new naming pass is needed."""
    if not change or not isinstance(previous.module, LazyModule) or not isinstance(edited.module, LazyModule):
        return None
    return names_after_edit(previous.names(False), previous.module, edited.module, change)


def names_kept(previous: Document, edited: Document, change: WordChange | tuple[()] | None) -> bool:
    """Whether every id keeps its friendly name across the edit: nothing changed, or the
    changed words, before and after, hold no instruction that names ids."""
    if change == ():
        return True
    if change is None:
        return False
    start, old_end, new_end = change
    return not words_name_ids(previous.module, start, old_end) and not words_name_ids(edited.module, start, new_end)
