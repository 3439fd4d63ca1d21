"""The editing session: edits re-assemble, ids stay put, errors keep the last good binary,
stale results are dropped, and the incremental path gives what a whole assembly gives."""

from __future__ import annotations

import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.editing.assembly_state import assemble_full
from spvinspect.editing.session import EditSession
from spvinspect.editing.spirv_assembler import open_spirv_session
from oracle import corpus_files

EDIT_MODULES = corpus_files("spv", "*.spv")[::60]
"""A spread of corpus modules for the property tests (every 60th)."""


def settle(session: EditSession):
    """Run jobs until the newest text is assembled; the last outcome."""
    outcome = None
    while (job := session.request()) is not None:
        outcome = job.run()
        session.accept(outcome)
    return outcome


def line_index(session: EditSession, pattern: str) -> int:
    """The first line matching `pattern`."""
    return next(i for i, line in enumerate(session.lines) if re.search(pattern, line))


@pytest.fixture
def session(example_bytes) -> EditSession:
    """The example module, opened for editing and assembled once."""
    opened = open_spirv_session(example_bytes)
    settle(opened)
    return opened


def test_unchanged_text_gives_back_the_file_byte_for_byte(session, example_bytes):
    assert session.binary == example_bytes
    assert not session.changed and not session.modified and not session.diagnostics


@pytest.mark.skipif(not EDIT_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@pytest.mark.parametrize("path", EDIT_MODULES, ids=lambda p: p.name[:60])
def test_corpus_modules_reassemble_unchanged(path):
    data = path.read_bytes()
    session = open_spirv_session(data)
    settle(session)
    assert session.binary == data


def test_a_literal_edit_changes_only_its_word_and_is_incremental(session):
    at = line_index(session, r"OpConstant %float ")
    line = session.lines[at]
    column = line.rindex(" ") + 1
    session.edit((at, column), (at, len(line)), "2.5")
    outcome = settle(session)
    assert outcome.incremental and session.assembles
    assert session.changed.count == 1
    (word,) = [w for start, end in session.changed.ranges for w in range(start, end)]
    inst = next(i for i in decode(session.binary).instructions if i.offset < word < i.offset + i.word_count)
    assert inst.opname == "OpConstant" and inst.operands[-1].value == 0x40200000  # 2.5f
    assert session.modified


def test_a_syntax_error_keeps_the_last_good_binary_and_clears_when_fixed(session, example_bytes):
    at = line_index(session, r"= OpFMul ")
    line = session.lines[at]
    column = line.index("%v4float")
    session.edit((at, column), (at, column + len("%v4float")), "7")  # a number where a type id goes
    settle(session)
    assert not session.assembles
    (diagnostic,) = session.diagnostics
    assert (diagnostic.line, diagnostic.column) == (at + 1, column + 1)
    assert "expected an id" in diagnostic.message and "'7'" in diagnostic.message
    assert session.binary == example_bytes
    messages = session.messages()
    assert [(m.line, m.column) for m in messages] == [(at, column)]
    session.edit((at, column), (at, column + 1), "%v4float")
    settle(session)
    assert session.assembles and session.messages() == [] and session.binary == example_bytes


def test_a_new_name_is_numbered_in_place_and_keeps_the_other_ids(session, example_bytes):
    at = line_index(session, r"^\s*%\d+ = OpFMul ")
    result = session.lines[at].split("=")[0].strip()
    session.edit((at, 0), (at, 0), "%scratch = OpUndef %float\n")
    outcome = settle(session)
    assert session.assembles and outcome.incremental
    assert session.binary == assemble_full(session.lines, session.assembler.hints).state.binary
    original, edited = decode(example_bytes), decode(session.binary)
    named = {i.result_id for i in original.instructions if i.result_id}
    assert named <= {i.result_id for i in edited.instructions if i.result_id}
    (scratch,) = [i.result_id for i in edited.instructions if i.opname == "OpUndef"]
    assert scratch not in named  # a free number, the bound permitting
    assert result in session.text


def test_stale_outcomes_are_not_shown_but_become_the_base(session):
    at = line_index(session, r"OpConstant %float ")
    end = len(session.lines[at])
    session.edit((at, end), (at, end), "1")
    first = session.request()
    assert session.request() is None  # one job at a time
    session.edit((at, end + 1), (at, end + 1), "2")
    stale = first.run()
    assert session.accept(stale) is False
    assert session.state is not stale.state and not session.changed
    fresh = session.request()
    assert fresh is not None and fresh.change is not None
    outcome = fresh.run()
    assert session.accept(outcome) and outcome.incremental
    assert session.text == "\n".join(session.lines) and session.changed.count == 1


def test_a_skipped_job_comes_back_for_the_newest_text(session):
    last = len(session.lines) - 1
    session.edit((last, len(session.lines[last])), (last, len(session.lines[last])), "\n%4294967295 = OpUndef %float")  # whole: a bound past 32 bits
    job = session.request()
    session.edit((0, 0), (0, 0), " ")
    outcome = job.run(session.cancelled(job.generation))
    assert outcome.skipped and not session.accept(outcome)
    assert settle(session).generation == session.generation and session.assembles


def test_the_editor_window_on_a_huge_text_is_the_function_around_the_cursor(example_bytes):
    session = open_spirv_session(example_bytes)
    at = line_index(session, r"= OpFMul ")
    start, end = session.window(at, limit=200)
    assert session.lines[start].split("=")[-1].strip().startswith("OpFunction ")
    assert session.lines[end - 1].strip() == "OpFunctionEnd"
    assert start <= at < end and "OpFunction " not in "".join(session.lines[start + 1 : end])
    start, end = session.window(at, limit=4)
    assert end - start == 4 and start <= at < end


def incremental_matches_whole(session: EditSession) -> None:
    """The session's outcome equals a whole assembly of its text, and `assemble()`."""
    settle(session)
    whole = assemble_full(session.lines, session.assembler.hints)
    codec = assemble(session.text, id_hints=session.assembler.hints, preserve_numeric_ids=True)
    if whole.state is None:
        assert not session.assembles and session.diagnostics == whole.diagnostics == codec.diagnostics
    else:
        assert session.assembles and session.binary == whole.state.binary == codec.binary


EDITS = st.lists(
    st.tuples(
        st.floats(0, 1, exclude_max=True),
        st.floats(0, 1),
        st.integers(0, 3),
        st.sampled_from(
            ["", "0", "7", "1.5", " ", "%", "%1", "x", "_2", "\n", "Op", "-", ";", '"', "%n = OpUndef %float\n"]
        ),
    ),
    min_size=1,
    max_size=6,
)


@pytest.mark.skipif(not EDIT_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@settings(max_examples=60)
@given(module=st.sampled_from(EDIT_MODULES), edits=EDITS)
def test_incremental_reassembly_equals_whole_reassembly(module, edits):
    session = open_spirv_session(module.read_bytes())
    settle(session)
    for where, column, removed, inserted in edits:
        row = int(where * len(session.lines))
        line = session.lines[row]
        col = int(column * len(line))
        end = min(col + removed, len(line))
        session.edit((row, col), (row, end), inserted)
        incremental_matches_whole(session)


@settings(max_examples=40)
@given(edits=EDITS)
def test_incremental_reassembly_equals_whole_on_the_example(edits):
    session = open_spirv_session(EXAMPLE_MODULE.read_bytes())
    settle(session)
    body = line_index(session, r"OpFunction ")
    for where, column, removed, inserted in edits:
        row = body + int(where * (len(session.lines) - body))
        line = session.lines[row]
        col = int(column * len(line))
        session.edit((row, col), (row, min(col + removed, len(line))), inserted)
        incremental_matches_whole(session)


def test_lines_and_words_map_both_ways(session):
    module = open_module(session.binary)
    module.ensure_indexed()
    for index in (0, module.instruction_count // 2, module.instruction_count - 1):
        word = module.offset(index)
        line = session.line_of(word)
        assert session.lines[line].strip() == module_line(session, index)
        assert session.location_of_line(line) == word
    assert session.location_of_line(0) is None  # the header comments


def module_line(session: EditSession, index: int) -> str:
    from spvinspect.codec.text.listing import Listing
    from spvinspect.codec.text.names import module_names

    module = open_module(session.binary)
    return Listing(module, module_names(module)).line(index).strip()


@pytest.mark.skipif(not EDIT_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@pytest.mark.xfail(strict=True, reason="known: a stretch reports its syntax error while the whole "
                   "assembly reports only an earlier type error (a ';' that comments out a type's line)")
def test_a_stretch_error_after_a_commented_out_type_is_the_whole_assemblys(corpus):
    """Found by the property test below: the first error differs."""
    module = corpus / "spv" / "shaders-msl_frag_write-depth-in-function.frag.spv"
    with patch("spvinspect.editing.session.HUGE_LINES", 0):
        test_incremental_reassembly_equals_whole_reassembly.hypothesis.inner_test(
            module, [(0.75, 0.0, 0, "0"), (0.53125, 0.0, 0, ";")])


@pytest.mark.skipif(not EDIT_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@settings(max_examples=25)
@given(module=st.sampled_from(EDIT_MODULES), edits=EDITS)
def test_errors_found_in_the_changed_stretch_are_the_whole_assemblys(module, edits):
    """On a huge text a stretch's error is shown without a whole assembly; it must be
    the error the whole assembly reports (here every text counts as huge)."""
    with patch("spvinspect.editing.session.HUGE_LINES", 0):
        test_incremental_reassembly_equals_whole_reassembly.hypothesis.inner_test(module, edits)
