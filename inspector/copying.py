"""What ctrl+c can copy from the selection, as text: the instruction as its line shows it,
its function (Lima: the whole program), its words in hex, the selected word's byte
offset; and the function's text as a file to export.

Textual-free: the screens ask for the choices of their selection, the copy dialog shows
them, and the app puts the chosen text on the clipboard (or in a file).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spvinspect import lima

KEYS = {"instruction": "i", "function": "f", "words": "w", "offset": "o"}
"""The copy dialog's key for each kind of choice (`x` exports the function)."""


@dataclass(frozen=True, slots=True)
class CopyChoice:
    """One thing the selection offers to copy."""

    kind: str
    """`instruction`, `function`, `words` or `offset` (see `KEYS`)."""
    what: str
    """What it is, as the notice names it (`instruction 85`, `function %main`)."""
    text: str


@dataclass(frozen=True, slots=True)
class CopyChoices:
    """Everything the selection offers, and the exportable text with a file name for it."""

    choices: tuple[CopyChoice, ...]
    export_name: Path | None = None
    """Suggested file for `x` (None: nothing to export, the selection is in no function)."""

    def get(self, kind: str) -> CopyChoice | None:
        """The choice of `kind`, if the selection offers it."""
        return next((choice for choice in self.choices if choice.kind == kind), None)


def words_text(words) -> str:
    """Words as the hex pane shows them: eight hex digits each, space-separated."""
    return " ".join(f"{word:08x}" for word in words)


def _beside(path: Path | None, name: str, suffix: str) -> Path:
    """`STEM-name.suffix` next to the opened file (in the working folder without one)."""
    if path is None:
        return Path(f"{name}{suffix}")
    return path.with_name(f"{path.stem}-{name}{suffix}")


def spirv_choices(document, selection, raw: bool = False) -> CopyChoices:
    """The choices of a SPIR-V selection (an `inspector.selection.Selection`) with raw ids
    or friendly names, as the list shows them."""
    choices = []
    module = document.module
    index = selection.instruction
    if index is not None:
        listing = document.listing(raw)
        instruction = module.instruction(index)
        choices.append(CopyChoice("instruction", f"instruction {index + 1:,}", listing.line(index).strip()))
        span = next((s for s in module.functions() if s.first <= index < s.end), None)
        if span is not None:
            name = "%" + document.names(raw).name(span.result_id)
            text = "\n".join(listing.line(k) for k in range(span.first, span.end))
            choices.append(CopyChoice("function", f"function {name}", text))
        words = module.words[instruction.offset : instruction.end]
        choices.append(CopyChoice("words", f"words {instruction.offset}-{instruction.end - 1}", words_text(words)))
    elif selection.word < len(module.words):
        choices.append(CopyChoice("words", f"word {selection.word}", words_text([module.words[selection.word]])))
    choices.append(CopyChoice("offset", f"the offset of word {selection.word}", f"0x{4 * selection.word:08x}"))
    function = next((c for c in choices if c.kind == "function"), None)
    export = _beside(document.file_path, function.what.split("%", 1)[1], ".spvasm") if function else None
    return CopyChoices(tuple(choices), export)


def lima_choices(document, index: int | None, style: str = "seed") -> CopyChoices:
    """The choices of a Lima selection (instruction `index`) in the list's `style`."""
    choices = []
    if index is not None and 0 <= index < len(document.instructions):
        instruction = document.instructions[index]
        choices.append(CopyChoice("instruction", f"instruction {index}", document.instruction_text(index, style)))
    program = "\n".join(lima.listing_lines(document.program, style))
    choices.append(CopyChoice("function", f"the program ({style} syntax)", program))
    if index is not None and 0 <= index < len(document.instructions):
        words = instruction.words
        first = instruction.word_offset
        choices.append(CopyChoice("words", f"words {first}-{first + len(words) - 1}", words_text(words)))
        offset = document.code_byte_offset + 4 * first
        choices.append(CopyChoice("offset", f"the offset of instruction {index}", f"0x{offset:08x}"))
    return CopyChoices(tuple(choices), _beside(document.file_path, "program", ".s"))


def export_text(choices: CopyChoices) -> str | None:
    """The text `x` writes (the function's, or the program's), ending with a newline."""
    function = choices.get("function")
    return None if function is None else function.text + "\n"
