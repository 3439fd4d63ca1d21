"""What must hold for every input: the views never raise, and the round trips give the input back.

Each check returns the names of the round-trip properties that failed; an exception is a
finding of its own, caught by the runner. Only the codecs' public entry points are used.
"""

from __future__ import annotations

from spvinspect import lima
from spvinspect.codec.asm import assemble
from spvinspect.codec.binary import decode
from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.codec.text import Disassembler, DisassemblyOptions, disassemble, explain_text

SPIRV_LOSSLESS = "spirv: as(dis --lossless(m)) != m"
SPIRV_RAW_ID = "spirv: as(dis --raw-id(m)) != m for a module without diagnostics"
LIMA_ENCODE = "lima: encode(decode(words)) != words"
LIMA_LISTING = "lima: as(lima dis(words)) != the decoded words"
LIMA_ASSEMBLED = "lima: as(lima dis(as(text))) != as(text)"
LIMA_DIAGNOSTICS = "lima: as(text) gives words with errors, or no words and no error, or a diagnostic off the text"

SPIRV_ROUND_TRIPS = (SPIRV_LOSSLESS, SPIRV_RAW_ID)
LIMA_ROUND_TRIPS = (LIMA_ENCODE, LIMA_LISTING, LIMA_ASSEMBLED, LIMA_DIAGNOSTICS)


def spirv_binary(data: bytes) -> list[str]:
    """Decode, explain, `dis --lossless` and back; `dis --raw-id` and back when nothing is wrong.

    The lossless text is reassembled with the disassembler's id hints, as the editor does,
    so that friendly names of a valid module keep their numbers.
    """
    module = decode(data)
    explain_text(module)
    failed = []
    lossless = Disassembler(module, DisassemblyOptions(lossless=True))
    text = lossless.text()
    text.encode("utf-8", "surrogateescape")  # what `dis` writes to a file
    if assemble(text, id_hints=lossless.id_hints()).binary != data:
        failed.append(SPIRV_LOSSLESS)
    if not module.diagnostics:
        raw = disassemble(module, DisassemblyOptions(friendly_names=False))
        if assemble(raw).binary != data:
            failed.append(SPIRV_RAW_ID)
    return failed


def spirv_text(text: str) -> list[str]:
    """Assemble; what assembles must pass the binary checks too."""
    result = assemble(text)
    return spirv_binary(result.binary) if result.binary is not None else []


def lima_bytes(data: bytes) -> list[str]:
    """Decode (raw stream or MBS), every view, then the words back from the records and from
    the text `lima dis` prints."""
    program = lima.decode(data)
    list(lima.explain_lines(program))
    for instruction in program.instructions:
        lima.mesa_line(instruction)
    decoded = [word for instruction in program.instructions for word in instruction.words]
    failed = []
    if lima.encode_words(program) != decoded + list(program.trailing_words):
        failed.append(LIMA_ENCODE)
    lima.listing_lines(program, "mesa")
    assembled, _ = lima.assemble("\n".join(lima.listing_lines(program)))
    if assembled != decoded:
        failed.append(LIMA_LISTING)
    return failed


def _well_placed(diagnostic: Diagnostic, lines: int) -> bool:
    return diagnostic.line is not None and 1 <= diagnostic.line <= lines and (diagnostic.column or 0) >= 1


def lima_text(text: str) -> list[str]:
    """Assemble; diagnostics agree with the outcome and point into the text; what assembles
    disassembles to a text that assembles to the same words."""
    words, diagnostics = lima.assemble(text)
    failed = []
    errors = any(d.severity is Severity.ERROR for d in diagnostics)
    lines = text.count("\n") + 1
    if (words is None) != errors or not all(_well_placed(d, lines) for d in diagnostics):
        failed.append(LIMA_DIAGNOSTICS)
    if words is not None:
        listing = lima.listing_lines(lima.decode_words(words))
        again, _ = lima.assemble("\n".join(listing))
        if again != words:
            failed.append(LIMA_ASSEMBLED)
    return failed
