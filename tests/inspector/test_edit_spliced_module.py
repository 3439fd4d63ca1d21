"""The edited binary's module opened with an index spliced from the unedited one's is the
module `open_module` makes: the same boundaries, candidate definers, function spans and
decoded instructions, edit after edit (literals, new lines, removed lines, new names)."""

from __future__ import annotations

import random
import re

import pytest

from spvinspect.codec.binary.lazy import open_module
from spvinspect.editing.session import EditSession
from spvinspect.editing.spirv_assembler import open_spirv_session
from spvinspect.codec.binary.splice import splice_module
from oracle import corpus_files
from spliced import assert_same_module

SPLICE_MODULES = corpus_files("spv", "*.spv")[::90]


def settle(session: EditSession):
    while (job := session.request()) is not None:
        outcome = job.run()
        change = session.assembler.change_since_shown(outcome.state) if outcome.state is not None else None
        session.accept(outcome)
    return outcome, change


def edits(session: EditSession, rng: random.Random, count: int = 12):
    """Edits of four kinds in turn, at random places: a digit typed after a constant's
    literal, an OpNop line added or removed, a result renamed (a new name)."""
    made = 0
    for attempt in range(count * 50):
        if made == count:
            return
        row = rng.randrange(len(session.lines))
        line = session.lines[row]
        kind = attempt % 4
        if kind == 0 and re.search(r"OpConstant %\w+ \d+$", line):
            edit = (row, len(line)), (row, len(line)), str(rng.randrange(10))
        elif kind == 1 and (" = Op" in line or line.strip().startswith("Op")) and "OpFunction" not in line:
            edit = (row, 0), (row, 0), "               OpNop\n"
        elif kind == 2 and line.strip() == "OpNop":
            edit = (row, 0), (row + 1, 0), ""
        elif kind == 3 and " = Op" in line:
            at = line.index(" = Op")
            edit = (row, at), (row, at), "_x"
        else:
            continue
        made += 1
        yield edit


@pytest.mark.skipif(not SPLICE_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@pytest.mark.parametrize("path", SPLICE_MODULES, ids=lambda p: p.name[:60])
def test_a_spliced_index_is_the_fresh_one(path):
    data = path.read_bytes()
    session = open_spirv_session(data)
    settle(session)
    module = open_module(data)
    module.ensure_indexed()
    module.functions()
    rng = random.Random(path.name)
    spliced_count = 0
    for start, end, text in edits(session, rng):
        session.edit(start, end, text)
        outcome, change = settle(session)
        if outcome.state is None:
            continue
        binary = outcome.state.binary
        spliced = splice_module(module, binary, change) if change else None
        if spliced is not None:
            spliced_count += 1
            assert_same_module(spliced, open_module(binary), samples=50, diagnostics=False)
            module = spliced
        else:
            module = open_module(binary)
            module.ensure_indexed()
    assert spliced_count or not session.lines
