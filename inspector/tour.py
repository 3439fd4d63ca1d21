"""A guided tour of a module: steps that each select a place and explain it, read from a
TOML file a teacher can write (`spvinspect --tour FILE MODULE`). Textual-free.

A tour is of one format (`format = "spirv"`, the default, or `"lima"`) and names its
places by that format's own locators, so that they survive re-assembly. In SPIR-V: an
instruction (`OpString`, the how-manyth, or the one whose result is named `main`) and a
word within it, or a word offset with the opname expected there. In Lima: an instruction
by its index and a field of its breakdown (`control.stop`, `varying`), or a byte of the
file (an MBS chunk, with the identifier expected there). A file that cannot be used is a
`TourError` saying what is wrong and where (the file, the line, the step).

    title = "A tour"
    [[step]]
    title = "The magic number"
    at = { word = 0 }
    text = "..."
    [[step]]
    title = "A string spanning words"
    at = { instruction = "OpString", nth = 1, word = 3 }
    pane = "words"
    text = "..."

    format = "lima"
    [[step]]
    title = "The stop bit"
    at = { instruction = 7, field = "control.stop" }
    pane = "breakdown"
    text = "..."
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from spvinspect.codec.binary.model import HEADER_WORDS

EXAMPLE_TOUR = Path(__file__).resolve().parent / "examples" / "example.tour.toml"
"""The tour of the bundled example module."""
EXAMPLE_LIMA_TOUR = Path(__file__).resolve().parent / "examples" / "lima-example.tour.toml"
"""The tour of the bundled Lima example (`spvinspect --lima-example`)."""

STEP_KEYS = frozenset({"title", "text", "at", "pane"})
PLACE_KEYS = {
    "spirv": frozenset({"word", "instruction", "nth", "named", "expect"}),
    "lima": frozenset({"instruction", "field", "byte", "expect"}),
}
"""What a step's `at` may say, by the tour's format."""
FORMAT_NAMES = {"spirv": "a SPIR-V module", "lima": "a Lima PP program"}
FORMAT_OF_VIEW = {"spvinspect.screens.spirv_view:SpirvView": "spirv", "spvinspect.screens.lima_view:LimaView": "lima"}
"""A tour's format by the view of the document it is opened over (`Format.VIEW`)."""


class TourError(Exception):
    """A tour file that cannot be used; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a step goes: a word of the nth instruction with an opname (or of the one
    whose result is named `named`), or a word offset of the module (`instruction`
    empty), with the opname `expect`ed to hold it."""

    word: int = 0
    """The word's index within the instruction; with no instruction, its offset in the module."""
    instruction: str = ""
    nth: int = 1
    named: str = ""
    expect: str = ""
    index: int | None = None
    """Lima: the instruction's index (None: a byte of the file)."""
    field: str = ""
    """Lima: a strip of the instruction's breakdown, or `strip.range` ('' the whole instruction)."""
    byte: int | None = None
    """Lima: a byte offset of the file, with `expect` the header line's start there (`CFRA`)."""

    def describe(self) -> str:
        """`OpString #1 word 3`, `OpFunction %main word 0`, `word 1 of the module`,
        `instruction 7 field control.stop`, `byte 0x8 (CFRA)`."""
        if self.byte is not None:
            return f"byte 0x{self.byte:x} of the file" + (f" ({self.expect})" if self.expect else "")
        if self.index is not None:
            return f"instruction {self.index}" + (f" field {self.field}" if self.field else "")
        if not self.instruction:
            return f"word {self.word} of the module" + (f" (in {self.expect})" if self.expect else "")
        which = f"%{self.named}" if self.named else f"#{self.nth}"
        return f"{self.instruction} {which} word {self.word}"


@dataclass(frozen=True, slots=True)
class Step:
    """One step: a title, a place, what we say about it, and a pane to show (or '')."""

    title: str
    text: str
    place: Place
    pane: str = ""


@dataclass(frozen=True, slots=True)
class Tour:
    """A titled sequence of steps, and the file it came from."""

    title: str
    steps: tuple[Step, ...]
    source: str = ""
    format: str = "spirv"
    """The format of the module it tours: "spirv" or "lima" (`FORMAT_NAMES`)."""


def load_tour(path: str | Path, panes: frozenset[str] | None = None) -> Tour:
    """The tour in the TOML file at `path`; `panes` are the pane names a step may show.
    Raises `TourError` with a message naming the file and the step."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TourError(f"{path}: cannot read the tour: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise TourError(f"{path}: not UTF-8 text (byte {error.start})") from None
    return parse_tour(text, str(path), panes)


def parse_tour(text: str, source: str = "tour", panes: frozenset[str] | None = None) -> Tour:
    """The tour in TOML `text` (`source` names it in messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TourError(f"{source}: not TOML: {error}") from None
    steps = data.get("step")
    if not isinstance(steps, list) or not steps:
        raise TourError(f"{source}: no steps: each step is a [[step]] table with title, at and text")
    title = data.get("title", "Tour")
    if not isinstance(title, str):
        raise TourError(f"{source}: title: a string, not {_shown(title)}")
    kind = data.get("format", "spirv")
    if kind not in FORMAT_NAMES:
        raise TourError(f"{source}: format = {_shown(kind)}: one of {', '.join(repr(k) for k in FORMAT_NAMES)}")
    steps = tuple(_step(step, f"{source}: step {n}", panes, kind) for n, step in enumerate(steps, 1))
    return Tour(title, steps, source, kind)


def _step(data: object, where: str, panes: frozenset[str] | None, kind: str = "spirv") -> Step:
    if not isinstance(data, dict):
        raise TourError(f"{where}: a table with title, at and text, not {_shown(data)}")
    unknown = sorted(set(data) - STEP_KEYS)
    if unknown:
        raise TourError(f"{where}: unknown key {unknown[0]!r} (a step has {', '.join(sorted(STEP_KEYS))})")
    for key in ("title", "text"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise TourError(f"{where}: {key!r} is missing (a string)")
    pane = data.get("pane", "")
    if not isinstance(pane, str) or (pane and panes is not None and pane not in panes):
        choices = f": one of {', '.join(sorted(panes))}" if panes else ""
        raise TourError(f"{where}: pane {_shown(pane)} is no pane{choices}")
    at = data.get("at")
    if not isinstance(at, dict):
        raise TourError(f"{where}: 'at' is missing: a table such as {{ instruction = \"OpString\", word = 3 }} or {{ word = 0 }}")
    place = _lima_place(at, f"{where}: at") if kind == "lima" else _place(at, f"{where}: at")
    return Step(data["title"].strip(), data["text"].strip(), place, pane)


def _unknown_keys(data: dict, kind: str, where: str) -> None:
    unknown = sorted(set(data) - PLACE_KEYS[kind])
    if unknown:
        raise TourError(f"{where}: unknown key {unknown[0]!r} (a place has {', '.join(sorted(PLACE_KEYS[kind]))})")


def _lima_place(data: dict, where: str) -> Place:
    _unknown_keys(data, "lima", where)
    for key in ("instruction", "byte"):
        value = data.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TourError(f"{where}: {key} = {_shown(value)}: a whole number from 0")
    for key in ("field", "expect"):
        if not isinstance(data.get(key, ""), str):
            raise TourError(f"{where}: {key} = {_shown(data[key])}: a string")
    if ("instruction" in data) == ("byte" in data):
        raise TourError(f"{where}: give an instruction index (with a field of its breakdown) or a byte of the file")
    if "byte" in data and "field" in data:
        raise TourError(f"{where}: a field belongs to an instruction, not to a byte of the file")
    return Place(expect=data.get("expect", ""), index=data.get("instruction"), field=data.get("field", ""),
                 byte=data.get("byte"))


def _place(data: dict, where: str) -> Place:
    _unknown_keys(data, "spirv", where)
    for key in ("word", "nth"):
        value = data.get(key, 0 if key == "word" else 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if key == "word" else 1):
            raise TourError(f"{where}: {key} = {_shown(value)}: a whole number from {0 if key == 'word' else 1}")
    for key in ("instruction", "named", "expect"):
        if not isinstance(data.get(key, ""), str):
            raise TourError(f"{where}: {key} = {_shown(data[key])}: a string")
    instruction = data.get("instruction", "")
    if "word" not in data and not instruction:
        raise TourError(f"{where}: give an instruction (an opname such as OpString) or a word offset")
    if instruction and not instruction.startswith("Op"):
        raise TourError(f"{where}: instruction = {instruction!r}: an opname, such as OpString")
    return Place(data.get("word", 0), instruction, data.get("nth", 1), data.get("named", "").lstrip("%"), data.get("expect", ""))


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, (str, int, float, bool)) else f"a {type(value).__name__}"


def find_place(document, place: Place) -> tuple[int | None, str]:
    """The word offset `place` names in `document` (a SPIR-V `Document`), and '' — or None
    and why it is not there."""
    module = document.module
    if not place.instruction:
        if place.word >= len(module.words):
            return None, f"the module has {len(module.words)} words, no word {place.word}"
        if place.expect:
            found = document.select_word(place.word).instruction
            opname = module.instruction(found).opname if found is not None else ("the header" if place.word < HEADER_WORDS else "no instruction")
            if opname != place.expect:
                return None, f"word {place.word} is in {opname}, not {place.expect}"
        return place.word, ""
    names = document.names(False) if place.named else None
    seen = 0
    for index in range(document.instruction_count):
        instruction = module.instruction(index)
        if instruction.opname != place.instruction:
            continue
        if names is not None:
            if not instruction.result_id or names.name(instruction.result_id) != place.named:
                continue
        else:
            seen += 1
            if seen < place.nth:
                continue
        if place.word >= instruction.word_count:
            return None, f"{place.describe()}: the instruction has {instruction.word_count} words"
        return instruction.offset + place.word, ""
    return None, f"no {place.describe().rsplit(' word ', 1)[0]} in this module"


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a step's place is in the opened document: a word (SPIR-V), an instruction
    and a field of its breakdown, or a byte of the file (Lima); `missed` says why it is
    not there ('' when it is)."""

    word: int | None = None
    instruction: int | None = None
    field: tuple[str, str | None] | None = None
    """(strip, range or None) of the instruction's breakdown."""
    byte: int | None = None
    missed: str = ""


def locate(document, tour: Tour, place: Place) -> Spot:
    """Where `place` of `tour` is in `document` (a SPIR-V `Document` or a `LimaDocument`)."""
    kind = FORMAT_OF_VIEW.get(getattr(document, "VIEW", ""), "")
    if kind != tour.format:
        shown = FORMAT_NAMES.get(kind, "of another format")
        return Spot(missed=f"this tour is of {FORMAT_NAMES[tour.format]}, the file is {shown}")
    if tour.format == "spirv":
        word, missed = find_place(document, place)
        return Spot(word=word, missed=missed)
    return find_lima_place(document, place)


def find_lima_place(document, place: Place) -> Spot:
    """The instruction and breakdown field, or the byte, `place` names in a `LimaDocument`."""
    if place.byte is not None:
        line = _header_line_at(document.header, place.byte)
        if line is None:
            return Spot(missed=f"no line of the header starts at byte 0x{place.byte:x}")
        if place.expect and not line.strip().startswith(place.expect):
            return Spot(missed=f"byte 0x{place.byte:x} holds {line.split()[0]!r}, not {place.expect}")
        return Spot(byte=place.byte)
    count = len(document.instructions)
    if place.index >= count:
        return Spot(missed=f"the program has {count} instruction{'s' if count != 1 else ''}, no instruction {place.index}")
    if not place.field:
        return Spot(instruction=place.index)
    strip_name, _, label_name = place.field.partition(".")
    for strip in document.breakdown(place.index).strips:
        if strip.name != strip_name:
            continue
        if label_name and not any(label.name == label_name for label in strip.labels):
            return Spot(missed=f"{place.describe()}: {strip_name} has no range {label_name}")
        return Spot(instruction=place.index, field=(strip_name, label_name or None))
    return Spot(missed=f"{place.describe()}: instruction {place.index} has no field {strip_name}")


def _header_line_at(nodes, byte: int) -> str | None:
    for node in nodes:
        if node.byte_offset == byte and node.children:
            return node.label
        found = _header_line_at(node.children, byte)
        if found is not None:
            return found
    for node in nodes:
        if node.byte_offset == byte:
            return node.label
    return None
