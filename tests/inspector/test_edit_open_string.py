"""A `"` typed and left open in a region's text: the whole text's first error, found from
the region alone when nothing after it can close the string (no outside text made), and
by the whole path otherwise."""

from __future__ import annotations

import threading

import pytest

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import module_names
from spvinspect.editing.incremental import OPEN_TAIL
from spvinspect.editing.region_assembler import region_session

from tests.inspector.test_edit_dependents import _as_the_whole_text, _outside_texts_made, _run

FUNCTIONS = """\
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
OpName %v "v"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %int
%c7 = OpConstant %int 7
%f1 = OpConstant %float 1.5
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
%sel = OpLoad %int %v
%s = OpExtInst %float %1 Sin %f1
%sum = OpIAdd %int %sel %c7
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%top = OpLabel
%9 = OpIAdd %int %c7 %c7
""" + "OpNop\n" * 80 + """OpReturn
OpFunctionEnd
"""


def _session(source: str):
    data = assemble(source).binary
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    session = region_session(module, names, module.first_function + 3, data)
    _run(session)
    assert session.partial and len(session.lines) < source.count("\n")
    return session


def _typed(session, row: int, text: str):
    """`text` typed at the end of line `row`: the outcome."""
    line = session.lines[row]
    session.replace_lines(row, row + 1, (line + text).split("\n"))
    return _run(session)


def _put_back(session, row: int, line: str, typed: str) -> None:
    session.replace_lines(row, row + 1 + typed.count("\n"), [line])
    assert _run(session).binary is not None


def test_an_open_string_that_nothing_after_the_region_closes_gives_the_whole_texts_error(monkeypatch):
    session = _session(FUNCTIONS)
    made = _outside_texts_made(monkeypatch)
    rows = [k for k, line in enumerate(session.lines) if line.strip() and not line.startswith(";")]
    for row in rows:
        line = session.lines[row]
        for typed in (' "ab', '"x y', ' 1"a b', '\n"ab'):
            outcome = _typed(session, row, typed)
            assert outcome.diagnostics, (row, typed)
            _as_the_whole_text(session, made, outcome, (row, typed))
            _put_back(session, row, line, typed)


def test_an_open_string_that_a_string_after_the_region_closes_takes_the_whole_text(monkeypatch):
    source = FUNCTIONS + 'OpModuleProcessed "after"\n'
    session = _session(source)
    made = _outside_texts_made(monkeypatch)
    row, line = next((k, line) for k, line in enumerate(session.lines) if "OpIAdd" in line)
    assert 5 * max(map(len, load_plans().by_name)) < len(OPEN_TAIL)  # no name suggested for the open word
    outcome = _typed(session, row, ' "ab')
    assert made  # the string may close in the text after the region: only the whole text tells
    made.clear()
    _as_the_whole_text(session, made, outcome, "closes after")
    _put_back(session, row, line, ' "ab')


def test_a_whole_assembly_that_a_newer_edit_made_stale_is_stopped():
    session = _session(FUNCTIONS + 'OpModuleProcessed "after"\n')
    row = next(k for k, line in enumerate(session.lines) if "OpIAdd" in line)
    session.replace_lines(row, row + 1, [session.lines[row] + ' "ab'])
    job = session.request()
    asked = []

    def stale() -> bool:  # a newer edit comes once the whole path has begun
        asked.append(True)
        return len(asked) > 1

    outcome = job.run(stale)
    assert outcome.skipped and outcome.binary is None and not outcome.diagnostics


def test_a_step_made_stale_while_it_runs_is_stopped_where_it_is():
    from spvinspect.editing.stoppable import Stopped, stoppable

    started = threading.Event()
    steps = []

    def step():
        started.set()
        while True:
            steps.append(1)

    with pytest.raises(Stopped):
        stoppable(step, started.is_set)
    count = len(steps)
    assert count and stoppable(lambda: "done", lambda: False) == "done" and len(steps) == count
