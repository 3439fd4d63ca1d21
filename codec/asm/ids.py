"""The assembler's id table: id words (`%name`, `%12`) and the numbers they stand for.

spirv-as numbers named ids in order of first appearance from 1, skipping the numbers
that --preserve-numeric-ids keeps; the bound is one past the largest number given.
"""

from __future__ import annotations

import re

from spvinspect.codec.asm import literals as lit
from spvinspect.codec.asm.errors import AssemblyError, shown

ID_NAME = re.compile(r"%[A-Za-z0-9_]+\Z")
"""A valid id word."""
_DECIMAL_ID = re.compile(r"\0%([1-9][0-9]{0,9})(?=\0)")
_OTHER_NUMERIC_ID = re.compile(r"\0%(0[0-9A-Za-z_]*)(?=\0)")
"""Ids written as numbers, in words joined by NULs: plain decimal (ten digits at most:
longer ones are past 32 bits, so they are names), and the rest (`%0`, `%0x1f`,
`%017`) that `literals.id_number` reads."""


class IdTable:
    """Id word → number, numbering words on first sight as spirv-as does."""

    __slots__ = ("numbers", "next_id", "bound", "preserve")

    def __init__(self, preserve: frozenset[int] = frozenset()) -> None:
        self.numbers: dict[str, int] = {}
        self.next_id = 1
        self.bound = 1
        """One past the largest number given (0 when that is 2^32)."""
        self.preserve = preserve
        """Numbers kept for numeric ids and pinned names, which others skip."""

    def assign(self, tok: str) -> int:
        """Numbers a valid id word seen for the first time: the next free number (with
        preserved numeric ids, the next one that is not preserved)."""
        number = self.next_id
        preserve = self.preserve
        if preserve:
            while number in preserve:
                number += 1
        self.next_id = number + 1
        number &= 0xFFFFFFFF
        self.bound = max(self.bound, (number + 1) & 0xFFFFFFFF)
        self.numbers[tok] = number
        return number

    def number_of(self, tok: str) -> int | None:
        """The number of id word `tok`, numbering it on first sight; None when it is
        not a valid id."""
        number = self.numbers.get(tok)
        if number is None and ID_NAME.match(tok):
            number = self.assign(tok)
        return number

    def id_of(self, tok: str, i: int) -> int:
        """The number of id word `tok` (word `i` of the text), numbering it on first
        sight; raises AssemblyError when it is not a valid id."""
        number = self.numbers.get(tok)
        if number is not None:
            return number
        if tok[:1] != "%":
            raise AssemblyError(f"expected an id (like %name), found '{shown(tok)}'", ("start", i))
        if not ID_NAME.match(tok):
            raise AssemblyError(
                f"'{shown(tok)}' is not a valid id: use letters, digits and '_' after '%'", ("start", i)
            )
        return self.assign(tok)

    def pin(self, numbers: dict[str, int]) -> None:
        """Gives id words fixed numbers before assembly: the numeric ids that
        --preserve-numeric-ids keeps ('%12' → 12), or a disassembler's names ('%main' → 4)."""
        self.numbers.update(numbers)
        if numbers:
            top = max(numbers.values())
            if top == 0xFFFFFFFF:  # its bound, 2^32, wraps to 0
                top = max((n for n in numbers.values() if n != top), default=-1)
            self.bound = max(self.bound, top + 1)


def numeric_ids(words: list[str]) -> dict[str, int]:
    """The ids written as numbers (`%12`, `%0x1f`) with their numbers, which
    --preserve-numeric-ids keeps. spirv-as finds them with a dry run; when that run
    succeeds every word starting with '%' is an id, so a scan finds the same set.
    The scan runs as one regular expression over the distinct words joined by NULs
    (which no word contains): one pass in C rather than a Python loop over them.
    The distinct words are gathered in a set, cheaper to build than an ordered dict;
    the order of the numbers found does not matter."""
    joined = "\0" + "\0".join(set(words)) + "\0"
    decimal = _DECIMAL_ID.findall(joined)
    found = dict(zip(["%" + digits for digits in decimal], map(int, decimal)))
    for name in _OTHER_NUMERIC_ID.findall(joined):
        value = lit.id_number(name)
        if value is not None:
            found["%" + name] = value
    if found and max(found.values()) > 0xFFFFFFFF:
        found = {tok: value for tok, value in found.items() if value <= 0xFFFFFFFF}
    return found
