"""An assembly state for a region of a module's text, made from the module itself.

Incremental re-assembly (`incremental.splice`) continues from a good assembly: the
text, its words, the tables the run declared, how often each id word occurs, and where
each line's instruction starts in the words. For a region (`codec.text.region`) all of
that comes from the module without assembling anything: the words are the module's,
each instruction starts a line (its offset from the module's index; a string may
spread one over several lines), the id
table is the friendly names' (name → id) with numeric ids read as their numbers, and
the declared tables are read off the binary (`codec.asm.module_tables`). An edit of the
region then splices into the whole module's words exactly as an edit of the whole text
would, and falls back (splice gives None) where it could not be sure of that.

Counting is the one approximation: only the region's id words are counted, plus one for
a numeric id defined outside it (its definition's line). That is a lower bound of the
whole text's count, so a numeric id that might leave the text makes the edit take a
whole assembly, as it would on the whole text.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from itertools import accumulate

from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.lexer import tokenize
from spvinspect.codec.asm.module_tables import ModuleTables
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.text.listing import header_reproduced
from spvinspect.codec.text.region import Region, region_words
from spvinspect.editing.assembly_state import AssemblyState, Declared
from spvinspect.editing.numeric_ids import NumberedInUse

_NUMERIC = re.compile(r"%[0-9]")


class RegionNumbers(dict):
    """Id word → number: the names given, and any numeric id in use in the module."""

    __slots__ = ("in_use",)

    def __init__(self, names: dict[str, int], in_use) -> None:
        super().__init__(names)
        self.in_use = in_use

    def get(self, key, default=None):
        """The number of id word `key`: a name's, or a numeric id's own number when the
        module uses it (so it is in the whole text)."""
        found = dict.get(self, key)
        if found is not None:
            return found
        number = _numeric(key)
        return number if number is not None and number in self.in_use else default

    def __missing__(self, key):
        number = _numeric(key)
        if number is not None and number in self.in_use:
            return number
        raise KeyError(key)


class RegionPinned:
    """The pinned id words: the names the module gives, and the numeric ids it uses (not
    the names an edit brings in, which are numbered where they first appear)."""

    __slots__ = ("names", "in_use")

    def __init__(self, names: frozenset[str], in_use) -> None:
        self.names = names
        self.in_use = in_use

    def __contains__(self, tok: object) -> bool:
        if tok in self.names:
            return True
        number = _numeric(tok)
        return number is not None and number in self.in_use


class NumericWords:
    """Every numeric id word (`%12`): in a region, whether one is in the whole text is
    told by the counts (`RegionCounts`)."""

    __slots__ = ()

    def __contains__(self, tok: object) -> bool:
        return _numeric(tok) is not None


NUMERIC_WORDS = NumericWords()


class RegionCounts(Counter):
    """Id word → occurrences in the whole text, as far as the region tells (see the
    module's docstring): missing words count what is known outside the region."""

    def __init__(self, toks, outside) -> None:
        super().__init__()
        self.outside = outside
        dict.update(self, {tok: count + outside(tok) for tok, count in Counter(toks).items()})

    def __missing__(self, key):
        return self.outside(key)

    def get(self, key, default=None):
        """The count of `key` (what is known outside the region when not in it)."""
        if key in self:
            return self[key]
        found = self.outside(key)
        return found if found else default


def _numeric(tok: object) -> int | None:
    """The number of a numeric id word (`%12`), else None."""
    if not isinstance(tok, str) or not _NUMERIC.match(tok):
        return None
    digits = tok[1:]
    if digits.isdigit() and digits[0] != "0" and len(digits) <= 9:
        return int(digits)
    found = numeric_ids([tok])
    return found.get(tok)


def region_state(
    module: LazyModule, region: Region, texts: list[str], names: dict[int, str], tables: ModuleTables
) -> AssemblyState | None:
    """The state of the region's text (`texts`: each instruction's, as
    `codec.text.region.region_lines` gives them; a string may hold line breaks), the
    module's words around it; `names` is id → friendly name (the ids that are not
    named by their number). None when the module's tables cannot describe it, or the
    header's comments would not give its words back (a region never holds them)."""
    header = module.header
    if header is None or not tables.usable or len(texts) != region.lines:
        return None
    if not header_reproduced(header, module.grammar):
        return None
    hints = {"%" + name: id_ for id_, name in names.items() if not name[0].isdigit() or name != str(id_)}
    in_use = NumberedInUse(tables.in_use(set(hints.values())))
    numbers = RegionNumbers(hints, in_use)
    text = "\n".join(texts)
    lines = text.split("\n")
    group_lines = array("I", accumulate((t.count("\n") + 1 for t in texts[:-1]), initial=0)) if texts else array("I")
    toks = tokenize(text)
    definitions = module.definitions

    def outside(tok: str) -> int:
        number = _numeric(tok)
        if number is None:
            return 0
        definer = definitions.first(number)
        return int(definer is not None and not region.holds(definer))

    end = region_words(module, region)[1]
    group_words = array("I", [module.offset(k) for k in range(region.first, region.end)])
    selector_words = {id_: "%" + names.get(id_, str(id_)) for id_ in tables.selectors}
    selectors = Counter({word: tables.selectors[id_] for id_, word in selector_words.items()})
    numbers.update({word: id_ for id_, word in selector_words.items()})
    declared = Declared(
        numbers, RegionPinned(frozenset(numbers), in_use), tables.types, tables.value_types, dict(tables.imports),
        header.version, NUMERIC_WORDS, in_use, max(in_use.top + 1, 1), header.bound, selectors,
    )
    return AssemblyState(
        lines, array("I", module.words), module.big_endian, module.trailing_bytes, declared,
        RegionCounts((tok for tok in toks if tok[:1] == "%"), outside),
        group_lines, group_words, {}, words_end=end,
    )
