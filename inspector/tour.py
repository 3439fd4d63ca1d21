"""A guided tour of a module: steps that each select a place and explain it, read from a
TOML file a teacher can write (`spvinspect --tour FILE MODULE`). Textual-free.

A step names its place so that it survives re-assembly: by instruction (`OpString`, the
how-manyth, or the one whose result is named `main`) and a word within it, or by a word
offset with the opname expected there. A file that cannot be used is a `TourError`
saying what is wrong and where (the file, the line, the step).

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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from spvinspect.codec.binary.model import HEADER_WORDS

EXAMPLE_TOUR = Path(__file__).resolve().parent / "examples" / "example.tour.toml"
"""The tour of the bundled example module."""

STEP_KEYS = frozenset({"title", "text", "at", "pane"})
PLACE_KEYS = frozenset({"word", "instruction", "nth", "named", "expect"})


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

    def describe(self) -> str:
        """`OpString #1 word 3`, `OpFunction %main word 0`, `word 1 of the module`."""
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
    return Tour(title, tuple(_step(step, f"{source}: step {n}", panes) for n, step in enumerate(steps, 1)), source)


def _step(data: object, where: str, panes: frozenset[str] | None) -> Step:
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
    return Step(data["title"].strip(), data["text"].strip(), _place(at, f"{where}: at"), pane)


def _place(data: dict, where: str) -> Place:
    unknown = sorted(set(data) - PLACE_KEYS)
    if unknown:
        raise TourError(f"{where}: unknown key {unknown[0]!r} (a place has {', '.join(sorted(PLACE_KEYS))})")
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
