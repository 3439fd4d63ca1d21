"""The edit session is generic over its assembler: a format of its own (a word of hex per
line) plugs in with nothing but an assembler, and gets the session's debounce, stale
outcomes, last good binary, messages by line and the window's span."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.editing.changes import changed_words
from spvinspect.editing.session import AssemblyOutcome, EditSession


@dataclass
class HexJob:
    generation: int
    lines: list[str]
    original: bytes

    def run(self, stale=lambda: False) -> AssemblyOutcome:
        binary, diagnostics = HexAssembler.words(self.lines)
        changed = changed_words(self.original, binary) if binary is not None else None
        return AssemblyOutcome(self.generation, binary, diagnostics, changed, state=len(self.lines))


@dataclass
class HexAssembler:
    """One 32-bit word in hex a line; `{` and `}` lines bound a block the window keeps whole."""

    validate = None
    edits: list[tuple[int, tuple[int, int, int]]] = field(default_factory=list)
    taken: list[tuple[int, bool]] = field(default_factory=list)

    @staticmethod
    def words(lines: list[str]) -> tuple[bytes | None, list[Diagnostic]]:
        words, problems = [], []
        for number, line in enumerate(lines, 1):
            if line.strip() in ("{", "}", ""):
                continue
            try:
                words.append(int(line, 16))
            except ValueError:
                problems.append(Diagnostic(f"not a hex word: {line!r}", line=number, column=1))
        return (None, problems) if problems else (struct.pack(f"<{len(words)}I", *words), [])

    def job(self, generation, lines, original):
        return HexJob(generation, lines, original)

    def edited(self, generation, change):
        self.edits.append((generation, change))

    def took(self, outcome, newest):
        self.taken.append((outcome.generation, newest))

    def assemble_now(self, lines, original):
        return self.words(lines)

    def line_of(self, state, lines, location):
        return location

    def location_of_line(self, state, lines, line):
        return line

    def span(self, lines, line, limit):
        start = max(k for k in range(line + 1) if lines[k] == "{")
        end = min(k for k in range(line, len(lines)) if lines[k] == "}") + 1
        return (start, end) if end - start <= limit else None

    def placed(self, state, binary, validation):
        return []

    def comments_after_save(self, lines, original, written):
        return None


def test_a_format_plugs_in_with_its_assembler_alone():
    lines = ["1", "2", "{", "3", "4", "}", "5"]
    original, _ = HexAssembler.words(lines)
    session = EditSession(original, list(lines), HexAssembler())

    first = session.request()
    assert session.request() is None and session.busy, "one job at a time"
    assert session.accept(first.run()) and session.binary == original and not session.changed

    session.replace_lines(1, 2, ["20"])
    stale = session.request()
    session.replace_lines(0, 1, ["zz"])  # made while the job runs: the job's outcome is stale
    assert not session.accept(stale.run())
    assert session.binary == original, "a stale outcome is not shown"
    assert session.assembler.taken == [(0, True), (1, False)], "the assembler hears of both"

    newest = session.request()
    assert session.accept(newest.run()) and not session.assembles
    assert [(m.line, m.diagnostic.message) for m in session.messages()] == [(0, "not a hex word: 'zz'")]
    assert session.binary == original, "the last good binary stays"
    assert session.assemble_now() == (None, session.diagnostics)

    session.edit((0, 0), (0, 2), "a")
    assert session.modified and session.request() is not None
    assert session.assembler.edits == [(1, (1, 2, 2)), (2, (0, 1, 1)), (3, (0, 1, 1))]
    session.accept(HexJob(session.generation, session.lines, original).run())
    assert session.assembles and session.binary == struct.pack("<5I", 0xA, 0x20, 3, 4, 5)
    assert session.changed.ranges == ((0, 2),)
    assert session.line_of(4) == 4 and session.location_of_line(3) == 3
    assert session.window(4, limit=5) == (2, 6), "the assembler's span, when it fits"
    assert session.window(4, limit=3) == (3, 6), "else lines around the cursor"
    assert session.validation_job() is None, "no validator, no validation"
