"""Edits that change what other instructions' words read (a type's width, a switch
selector's type, an import's set) or the header comments: spliced without assembling the
whole text, with the bytes (or the first error) the whole text's assembly gives."""

from __future__ import annotations

import re

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.splice import splice_module
from spvinspect.codec.text.names import module_names
from spvinspect.editing import session as editing_session
from spvinspect.editing.assembly_state import assemble_full
from spvinspect.editing.region_assembler import RegionSource, region_session
from spvinspect.editing.spirv_assembler import open_spirv_session

SOURCE = """\
OpCapability Shader
OpCapability Int64
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %int
%c7 = OpConstant %int 7
%big = OpConstant %int -1000
%f1 = OpConstant %float 1.5
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
%sel = OpLoad %int %v
%s = OpExtInst %float %1 Sin %f1
OpSelectionMerge %merge None
OpSwitch %sel %merge 1 %a -3 %b
%a = OpLabel
OpBranch %merge
%b = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


def _run(session):
    outcome = session.request().run()
    session.accept(outcome)
    return outcome


def _edit(session, pattern: str, replacement: str):
    """Replace the first match of `pattern` on its line; the outcome."""
    row = next(k for k, line in enumerate(session.lines) if re.search(pattern, line))
    session.replace_lines(row, row + 1, [re.sub(pattern, replacement, session.lines[row], count=1)])
    return _run(session)


def _region_of_source(in_function: bool = False):
    """SOURCE's module, indexed, and a region session on its first instructions (or its
    first function's), run once."""
    data = assemble(SOURCE).binary
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    session = region_session(module, names, module.first_function if in_function else 0, data)
    _run(session)
    return data, module, session


def _outside_texts_made(monkeypatch) -> list:
    """The region sources whose whole outside text gets made from now on."""
    made = []
    text_of = RegionSource.outside
    monkeypatch.setattr(RegionSource, "outside", lambda self, *args: made.append(self) or text_of(self, *args))
    return made


def _placed(diagnostics):
    return [(d.message, d.line, d.column) for d in diagnostics[:1]]


def _as_the_whole_text(session, made: list, outcome, label, clean: bool = False) -> None:
    """An edit that made no outside text (`made`, from `_outside_texts_made`) gave what
    the whole text's assembly gives: its bytes and first error (none when `clean`)."""
    assert not made, label
    state, diagnostics = session.assembler.source.text_assembly(session.lines)
    made.clear()
    assert not (clean and diagnostics), label
    assert outcome.binary == (state.binary if state is not None else None), label
    assert _placed(outcome.diagnostics) == _placed(diagnostics), label


def test_dependent_edits_splice_as_the_whole_text_assembles(monkeypatch):
    monkeypatch.setattr(editing_session, "HUGE_LINES", 0)  # the spliced stretch's error is shown
    data = assemble(SOURCE).binary
    session = open_spirv_session(data)
    hints = session.assembler.hints
    _run(session)
    edits = [
        (r"OpTypeInt 32 1$", "OpTypeInt 16 1"),  # constants and switch literals narrow
        (r"OpTypeInt 16 1$", "OpTypeInt 32 1"),
        (r"= OpLoad %int", "= OpLoad %long"),  # the selector's type: case literals widen
        (r"= OpLoad %long", "= OpLoad %int"),
        (r"= OpLoad %int", "= OpLoad %float"),  # an error at the switch
        (r"= OpLoad %float", "= OpLoad %int"),
        (r'"GLSL.std.450"', '"OpenCL.std"'),  # an error at the OpExtInst
        (r'"OpenCL.std"', '"GLSL.std.450"'),
        (r"; Bound: \d+", "; Bound: 999"),  # header words
        (r"; Generator: .*", "; Generator: Khronos SPIR-V Tools Assembler; 3"),
        (r"; SPIR-V$", "; SPIR-Vx"),  # no header comment: another version, spirv-as's own header
        (r"; SPIR-Vx$", "; SPIR-V"),
    ]
    for pattern, replacement in edits:
        shown = open_module(session.binary)
        shown.ensure_indexed()
        outcome = _edit(session, pattern, replacement)
        whole = assemble_full(session.lines, hints)
        if pattern.startswith(";"):  # no instruction changed: the panes' module keeps the shown one's index
            assert outcome.state.word_change == (5, 5, 5) and splice_module(shown, outcome.binary, (5, 5, 5))
        assert outcome.incremental, (pattern, replacement)
        expected = whole.state.binary if whole.state is not None else None
        assert outcome.binary == expected, (pattern, replacement)
        assert _placed(outcome.diagnostics) == _placed(whole.diagnostics), (pattern, replacement)
    assert session.binary != data and session.binary[20:] == data[20:]


def test_region_dependent_edits_splice_as_the_whole_text_assembles():
    data = assemble(SOURCE).binary
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    spliced, whole = True, False
    for at, edits in [
        (module.first_function, [(r"= OpLoad %int", "= OpLoad %long", spliced),  # the switch in the region
                                 (r"= OpLoad %long", "= OpLoad %int", spliced)]),
        (0, [(r'"GLSL.std.450"', '"GLSL.std.450" ', spliced),
             (r'"GLSL.std.450" ', '"OpenCL.std"', spliced),  # an error outside the region, at its line
             (r'"OpenCL.std"', '"GLSL.std.450"', spliced),
             (r"OpTypeFloat 32", "OpTypeFloat 16", spliced),  # a constant in the region re-encoded
             (r"OpTypeFloat 16", "OpTypeFloat 32", spliced),
             (r"%int = OpTypeInt 32 1", "%int = OpTypeInt 64 1", whole)]),  # the switch outside grows
    ]:
        session = region_session(module, names, at, data)
        _run(session)
        source = session.assembler.source
        for pattern, replacement, incremental in edits:
            outcome = _edit(session, pattern, replacement)
            state, diagnostics = source.text_assembly(session.lines)
            assert outcome.binary == (state.binary if state is not None else None), (pattern, replacement)
            assert _placed(outcome.diagnostics) == _placed(diagnostics)
            assert outcome.incremental == incremental, (pattern, replacement)
    assert session.binary != data


def test_a_whole_assembly_of_a_region_says_which_instructions_changed():
    """The panes' new module reuses the shown one's index (`splice_module`), as a fresh open gives it."""
    data, module, session = _region_of_source()
    row = next(k for k, line in enumerate(session.lines) if "OpTypeFloat" in line)
    # a name and a numeric id at the number the name would take (11): the whole text
    session.replace_lines(row, row, ["%new = OpUndef %int", "%11 = OpUndef %int"])
    outcome = _run(session)
    assert not outcome.incremental and outcome.binary == session.assembler.source.text_assembly(session.lines)[0].binary
    change = outcome.state.word_change
    spliced = splice_module(module, outcome.binary, change)
    fresh = open_module(outcome.binary)
    fresh.ensure_indexed()
    assert spliced is not None and list(spliced.index.offsets) == list(fresh.index.offsets)
    assert change[0] == module.offset(row) and change[2] - change[1] == 6  # the OpUndefs' words


def test_a_region_type_whose_dependents_outside_grow_is_assembled_without_the_whole_text(monkeypatch):
    """The switch outside the region reads the type's width: its case literals grow. The
    region is re-assembled over the module's tables and the switch re-encoded in the
    module's words (`region_whole`); the whole text is never made; then back, and an
    edit after each."""
    data, module, session = _region_of_source()
    made = _outside_texts_made(monkeypatch)
    for pattern, replacement in [(r"%int = OpTypeInt 32 1", "%int = OpTypeInt 64 1"), (r"%int 7$", "%int 8"),
                                 (r"%int = OpTypeInt 64 1", "%int = OpTypeInt 32 1"), (r"%int 8$", "%int 7")]:
        outcome = _edit(session, pattern, replacement)
        _as_the_whole_text(session, made, outcome, replacement, clean=True)
    assert session.binary == data


def test_a_switch_selectors_name_edited_in_a_region_gives_the_whole_texts_error_at_once(monkeypatch):
    """A letter typed into the name of the value a switch selects on: that value is no
    longer defined, so the switch's case literals have no type (the whole run's error,
    at the switch); the region's switches are re-encoded, the whole text never made.
    Then the name back: the bytes as opened."""
    data, module, session = _region_of_source(in_function=True)
    source = session.assembler.source
    made = _outside_texts_made(monkeypatch)
    row = next(k for k, line in enumerate(session.lines) if "OpLoad" in line)
    named = session.lines[row]
    session.replace_lines(row, row + 1, [named.replace("%14 =", "%14x =")])
    outcome = _run(session)
    assert not made
    expected = source.text_assembly(session.lines)[1]
    assert _placed(outcome.diagnostics) == _placed(expected) and expected
    assert "OpSwitch selector" in expected[0].message
    made.clear()
    session.replace_lines(row, row + 1, [named])
    outcome = _run(session)
    assert not made and session.binary == data


def _lines_replaced(session, after: str, old: int, new: list[str]):
    """Lines [row, row + old) after the first line holding `after` (row 0 when empty) become `new`."""
    row = next(k for k, line in enumerate(session.lines) if after in line) + 1 if after else 0
    session.replace_lines(row, row + old, new)
    return _run(session)


def test_an_import_added_or_dropped_in_a_region_is_spliced(monkeypatch):
    """An OpExtInstImport added, dropped while the function outside the region still
    reads it (its error at its line of the whole text), and brought back: spliced, with
    the whole text's bytes and first error; the whole text is never made."""
    data, module, session = _region_of_source()
    made = _outside_texts_made(monkeypatch)
    for after, old, new in [("OpExtInstImport", 0, ['%more = OpExtInstImport "OpenCL.std"']),
                            ("OpExtInstImport", 1, []),
                            ("OpCapability Int64", 1, []),  # %1 no longer an import: the OpExtInst outside fails
                            ("OpCapability Int64", 0, ['%1 = OpExtInstImport "GLSL.std.450"'])]:
        outcome = _lines_replaced(session, after, old, new)
        _as_the_whole_text(session, made, outcome, new)
    assert session.binary == data


NUMBERS = """\
OpCapability Shader
OpCapability Int64
OpCapability Int16
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%sel = OpConstant %int 5
%x = OpConstant %float 0.1
%y = OpConstant %float -1e+30
%z = OpConstant %float 0x1p-149
%a = OpConstant %int 7
%b = OpConstant %int -1000
%c = OpConstant %int 2147483647
%d = OpConstant %int -2147483648
%e = OpSpecConstant %uint 4294967295
%f = OpConstant %uint 0
%g = OpConstant %long -5
%h = OpConstant %long 1099511627776
%i = OpConstant %long -9223372036854775808
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %sel %merge 1 %one -3 %merge 2147483647 %one
%one = OpLabel
OpSwitch %h %merge 1099511627776 %merge -5 %one
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


def test_many_number_constants_after_a_region_are_re_encoded_from_their_words(monkeypatch):
    """A type whose constants and switches after the region change width, sign or kind
    (integers and floats), and a selector whose type changes: more of them than are re-encoded from their lines
    (`RESIZED_LIMIT`, none here), so they are re-encoded from their words, with the
    whole text's bytes and first error (a value that no longer fits); the whole text is
    never made."""
    from spvinspect.codec.text.region import Region
    from spvinspect.editing import dependents, region_assembler

    monkeypatch.setattr(dependents, "RESIZED_LIMIT", 0)
    monkeypatch.setattr(region_assembler, "region_around", lambda module, at: Region(0, 13))  # types, %sel
    data = assemble(NUMBERS).binary
    module = open_module(data)
    module.ensure_indexed()
    session = region_session(module, module_names(module), 0, data)
    _run(session)
    made = _outside_texts_made(monkeypatch)
    for pattern, replacement in [
        (r"%int = OpTypeInt 32 1", "%int = OpTypeInt 64 1"), (r"%int = OpTypeInt 64 1", "%int = OpTypeInt 32 1"),
        (r"%int = OpTypeInt 32 1", "%int = OpTypeInt 32 0"),  # -1000 unsigned: an error
        (r"%int = OpTypeInt 32 0", "%int = OpTypeInt 16 1"),  # 2147483647 does not fit
        (r"%int = OpTypeInt 16 1", "%int = OpTypeInt 32 1"),
        (r"%uint = OpTypeInt 32 0", "%uint = OpTypeInt 64 1"), (r"%uint = OpTypeInt 64 1", "%uint = OpTypeInt 32 1"),
        (r"%uint = OpTypeInt 32 1", "%uint = OpTypeInt 64 0"), (r"%uint = OpTypeInt 64 0", "%uint = OpTypeInt 32 0"),
        (r"%long = OpTypeInt 64 1", "%long = OpTypeInt 32 1"),  # 2^40 does not fit
        (r"%long = OpTypeInt 32 1", "%long = OpTypeInt 64 0"),  # negatives unsigned
        (r"%long = OpTypeInt 64 0", "%long = OpTypeInt 64 1"),
        (r"OpConstant %int 5", "OpConstant %long 5"), (r"OpConstant %long 5", "OpConstant %int 5"),  # its switch
        (r"OpConstant %int 5", "OpConstant %uint 5"),  # case -3 unsigned
        (r"OpConstant %uint 5", "OpConstant %int 5"),
        (r"%float = OpTypeFloat 32", "%float = OpTypeFloat 64"),  # 0.1 as its double
        (r"%float = OpTypeFloat 64", "%float = OpTypeFloat 16"),  # -1e+30 does not fit
        (r"%float = OpTypeFloat 16", "%float = OpTypeFloat 32"),
        (r"%float = OpTypeFloat 32", "%float = OpTypeInt 32 1"),  # 0.100000001 no integer
        (r"%float = OpTypeInt 32 1", "%float = OpTypeFloat 32"),
        (r"%int = OpTypeInt 32 1", "%int = OpTypeFloat 64"), (r"%int = OpTypeFloat 64", "%int = OpTypeInt 32 1"),
    ]:
        shown = open_module(session.binary)
        shown.ensure_indexed()
        outcome = _edit(session, pattern, replacement)
        _as_the_whole_text(session, made, outcome, replacement)
        if outcome.binary is not None:  # the panes' module spliced from the shown one's index (after a resize too)
            spliced = splice_module(shown, outcome.binary, outcome.state.word_change)
            fresh = open_module(outcome.binary)
            fresh.ensure_indexed()
            assert spliced is not None and list(spliced.index.offsets) == list(fresh.index.offsets), replacement
    assert session.binary == data


def test_a_type_removed_in_a_region_is_spliced(monkeypatch):
    """A type no longer declared (its line gone, or another instruction in its place):
    what reads it after the stretch gives the whole run's error (a constant of it, a
    switch on a value of it), an unread one splices; the whole text is never made."""
    from spvinspect.codec.text.region import Region
    from spvinspect.editing import dependents, region_assembler

    monkeypatch.setattr(region_assembler, "region_around", lambda module, at: Region(0, 13))
    monkeypatch.setattr(dependents, "RESIZED_LIMIT", 0)  # the constants' words tell their error
    data = assemble(NUMBERS).binary
    module = open_module(data)
    module.ensure_indexed()
    session = region_session(module, module_names(module), 0, data)
    _run(session)
    made = _outside_texts_made(monkeypatch)
    for after, old, new in [("OpTypeFunction", 1, []),  # %int: its constants fail
                            ("OpTypeFunction", 0, ["%int = OpTypeInt 32 1"]),
                            ("%int = OpTypeInt", 1, ["%uint = OpTypeVector %int 2"]),
                            ("%int = OpTypeInt", 1, ["%uint = OpTypeInt 32 0"]),
                            ("%long = OpTypeInt", 1, ["%long = OpUndef %int"]),  # %h's constant fails
                            ("%uint = OpTypeInt", 1, ["%long = OpTypeInt 64 1"])]:
        outcome = _lines_replaced(session, after, old, new)
        _as_the_whole_text(session, made, outcome, new)
    assert session.binary == data
