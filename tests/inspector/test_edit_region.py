"""Region editing without Textual: a region's assembly state made from the module (its
tables read off the binary), and edits of the region spliced into the module's words,
compared with the same edits made in the whole text and assembled whole."""

from __future__ import annotations

import random

import pytest
from oracle import corpus_files

from spvinspect.codec.asm.module_tables import ModuleTables
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import module_names
from spvinspect.codec.text.region import Region, region_around, region_decodes, region_lines
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.editing.assembly_state import AssemblyState, assemble_full
from spvinspect.editing.incremental import StretchError, splice
from spvinspect.editing.region_state import region_state
from spvinspect.editing.spirv_assembler import open_spirv_session


class Whole:
    """A module's whole text as the editor opens it, its assembly, and its region states."""

    def __init__(self, data: bytes) -> None:
        self.module = open_module(data)
        self.module.ensure_indexed()
        self.names = module_names(self.module)
        self.session = open_spirv_session(data, hints=self.names.id_hints())
        self.tables = ModuleTables(self.module)
        self.full = assemble_full(self.session.lines, self.session.assembler.hints).state

    def region(self, region: Region) -> AssemblyState:
        texts = region_lines(self.module, region, self.names)
        state = region_state(self.module, region, texts, self.names.table(), self.tables)
        assert state is not None
        first = self.line_of(region.first)
        assert state.lines == self.session.lines[first : first + len(state.lines)]
        return state

    def line_of(self, index: int) -> int:
        """The whole text's line of instruction `index`."""
        return self.full.group_lines[index]

    def edit_both(self, region: Region, state: AssemblyState, at: int, new: list[str]):
        """Replace instruction `at`'s line by `new` in the region and in the whole text:
        (the region's splice, the whole text's assembly)."""
        k = state.group_lines[at - region.first]
        lines = state.lines[:k] + new + state.lines[k + 1 :]
        spliced = splice(state, lines, (k, k + 1, k + len(new)))
        whole = self.session.lines
        line = self.line_of(at)
        full = assemble_full(whole[:line] + new + whole[line + 1 :], self.session.assembler.hints)
        return spliced, full


def _sample() -> list:
    return corpus_files("spv")[::30] or [EXAMPLE_MODULE]


@pytest.mark.parametrize("path", _sample(), ids=lambda p: p.name)
def test_tables_and_region_edits_agree_with_the_whole_text(path) -> None:
    """The tables read off the binary are the whole assembly's; random edits of regions
    (a digit, a new name, a line removed, a character dropped) spliced into the words
    give the whole text's bytes, or its error, or fall back (None)."""
    data = path.read_bytes()
    module = open_module(data)
    if module.check():
        pytest.skip("a module with faults is edited as a whole text")
    whole = Whole(data)
    declared = whole.full.declared
    tables = whole.tables
    assert tables.types == declared.types
    assert dict(tables.value_types) == declared.value_types
    assert tables.imports == declared.imports
    rng = random.Random(path.name)
    spliced_count = 0
    for _ in range(4):
        at = rng.randrange(module.instruction_count)
        region = region_around(whole.module, at, rng.choice([9, 2000]))
        if not region_decodes(whole.module, region):
            continue
        state = whole.region(region)
        line = state.lines[state.group_lines[at - region.first]]
        edits = [line + "7", line[:-1], ""]
        if " = " in line:
            edits.append(line.replace(" = ", "x = ", 1))
        for new in edits:
            spliced, outcome = whole.edit_both(region, state, at, [new])
            if spliced is None:
                continue
            if isinstance(spliced, StretchError):
                assert outcome.state is None
                assert spliced.diagnostic.message == outcome.diagnostics[0].message
            else:
                assert outcome.state is not None and spliced.binary == outcome.state.binary, (line, new)
                spliced_count += 1
    assert spliced_count or module.instruction_count < 3


def test_a_region_edit_that_defines_new_names() -> None:
    """In the example's second function: a new load defining a new name, used in place
    of a numbered result; another new name; that one dropped again. Each is spliced (no
    whole assembly) and gives the whole text's bytes: new names numbered from the first
    id no pinned name holds. The header's bound is the whole text's."""
    whole = Whole(EXAMPLE_MODULE.read_bytes())
    span = whole.module.functions()[1]
    region = Region(span.first, span.end)
    state = whole.region(region)
    text = whole.session.lines
    first = whole.line_of(region.first)
    after = first + len(state.lines)
    k = next(k for k, line in enumerate(state.lines) if "= OpLoad %int %" in line)
    loaded, pointer = state.lines[k].split(" = OpLoad %int ")
    lines = list(state.lines)
    lines[k + 1 : k + 2] = [f"    %loaded = OpLoad %int {pointer}", lines[k + 1].replace(loaded.strip(), "%loaded")]
    steps = [(lines, (k + 1, k + 2, k + 3))]
    lines = lines[: k + 3] + ["     %again = OpIAdd %int %loaded %loaded"] + lines[k + 3 :]
    steps.append((lines, (k + 3, k + 3, k + 4)))
    lines = lines[: k + 3] + lines[k + 4 :]
    steps.append((lines, (k + 3, k + 4, k + 3)))
    for lines, change in steps:
        spliced = splice(state, lines, change)
        assert isinstance(spliced, AssemblyState) and not spliced.full
        full = assemble_full(text[:first] + lines + text[after:], whole.session.assembler.hints).state
        assert full is not None and spliced.binary == full.binary
        assert spliced.words[3] == full.words[3]
        spliced.commit()
        state = spliced
        assert whole.module.definitions.first(state.declared.numbers["%loaded"]) is None
    # A new name before %loaded: the whole run numbers it first and %loaded after it, so
    # the region cannot splice it (as the whole text's incremental path cannot).
    early = lines[:k] + ["      %early = OpIAdd %int %27 %27"] + lines[k:]
    assert splice(state, early, (k, k, k + 1)) is None
