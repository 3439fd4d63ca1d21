"""An edit (of a region, or of the whole text) that brings in a numeric id (`%4000000000`) or drops the last use of one
it brought in: spliced into the module's words, with the bytes the whole text's assembly
gives (the numbers kept from names, the header's bound), not a whole assembly."""

from __future__ import annotations

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import module_names
from spvinspect.editing.assembly_state import assemble_full
from spvinspect.editing.region_assembler import region_session
from spvinspect.editing.spirv_assembler import open_spirv_session

from tests.inspector.test_edit_dependents import SOURCE, _as_the_whole_text, _outside_texts_made, _region_of_source, _run


def _replace(session, after: str, old: int, new: list[str]):
    """Lines [row, row + old) after the first line holding `after` become `new`."""
    row = next(k for k, line in enumerate(session.lines) if after in line) + 1
    session.replace_lines(row, row + old, new)
    return _run(session)


def test_region_edits_of_numeric_ids_splice_as_the_whole_text_assembles():
    data = assemble(SOURCE).binary
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    spliced, whole = True, False
    for at, edits in [
        (0, [("OpTypeFloat", 0, ["%4000000000 = OpUndef %int"], spliced),  # the bound grows
             ("OpUndef", 0, ["%4000000001 = OpUndef %float"], spliced),
             ("OpTypeFloat", 1, [], spliced),  # its last use gone: the bound is the next one's
             ("OpTypeFloat", 1, [], spliced),  # the header's bound again
             ("OpTypeFloat", 0, ["%0x30 = OpUndef %int", "%48 = OpUndef %int"], spliced),  # one number
             ("OpTypeFloat", 1, [], spliced),
             ("OpTypeFloat", 1, [], spliced),
             ("OpTypeFloat", 0, ["%900 = OpUndef %int", "%new = OpUndef %int"], spliced),  # a name numbered below
             ("OpTypeFloat", 2, [], spliced),
             ("OpTypeFloat", 0, ["%new = OpUndef %int"], spliced),  # numbered 11
             ("OpTypeFloat", 0, ["%11 = OpUndef %int"], whole),  # the name would be 12
             ("OpTypeFloat", 2, [], whole)]),
        (module.first_function, [("%12 = OpLabel", 0, ["%70 = OpUndef %int", "%71 = OpIAdd %int %70 %int_7"], spliced),
                                 ("%12 = OpLabel", 1, [], spliced),  # %70 still used by %71
                                 ("%12 = OpLabel", 1, [], spliced),
                                 ("%14 = OpLoad", 1, [], whole)]),  # %15's last use: the module's id
    ]:
        session = region_session(module, names, at, data)
        _run(session)
        source = session.assembler.source
        for after, old, new, incremental in edits:
            outcome = _replace(session, after, old, new)
            state, diagnostics = source.text_assembly(session.lines)
            assert not diagnostics, (after, new, diagnostics)
            assert outcome.binary == state.binary, (after, new)
            assert outcome.incremental == incremental, (after, new)


def test_whole_text_edits_of_numeric_ids_splice_as_the_whole_text_assembles():
    data = assemble(SOURCE).binary
    session = open_spirv_session(data)
    hints = session.assembler.hints
    _run(session)
    for after, old, new, incremental in [
        ("OpTypeFloat", 0, ["%4000000000 = OpUndef %int"], True),
        ("OpTypeFloat", 0, ["%0x30 = OpUndef %int"], True),
        ("OpTypeFloat", 1, [], True),
        ("OpTypeFloat", 1, [], True),  # the bound back to the header's
        ("OpTypeFloat", 0, ["%4294967295 = OpUndef %int"], False),  # a bound past 32 bits
        ("OpTypeFloat", 1, [], False),
    ]:
        outcome = _replace(session, after, old, new)
        assert outcome.binary == assemble_full(session.lines, hints).state.binary, (after, new)
        assert outcome.incremental == incremental, (after, new)
    assert session.binary == data


def test_a_numeric_id_at_a_typed_names_number_is_assembled_without_the_whole_text(monkeypatch):
    """The name typed is numbered past the numeric id: the region re-assembled over the
    module's tables (`region_whole`) gives the whole text's bytes, and the whole text is
    never made; then each undone."""
    data, module, session = _region_of_source()
    source = session.assembler.source
    made = _outside_texts_made(monkeypatch)
    for old, new in [(0, ["%new = OpUndef %int"]), (0, ["%{0} = OpUndef %int", "%{1} = OpUndef %int"]),
                     (1, []), (1, []), (1, [])]:
        number = session.state.declared.numbers.get("%new", 0)  # the name's number, and the next
        new = [line.format(number, number + 1) for line in new]
        outcome = _replace(session, "OpTypeFloat", old, new)
        assert not made, f"the whole text was made for {new}"
        state, diagnostics = source.text_assembly(session.lines)
        made.clear()
        assert not diagnostics and outcome.binary == state.binary, new
    assert session.binary == data


def test_a_numeric_id_the_region_defines_leaving_it_is_assembled_without_the_whole_text(monkeypatch):
    """`%15` (defined and used only in the function) removed and brought back, then
    removed beside a typed name, which the whole run numbers 15 (no instruction outside
    the region names it); `%2` (the function's OpFunction, outside the global region)
    no longer named in the region beside a typed name, which skips it: the whole text never made."""
    data, module, session = _region_of_source(in_function=True)
    made = _outside_texts_made(monkeypatch)
    for after, old, new in [("%14 = OpLoad", 1, []),
                            ("%14 = OpLoad", 0, ["%15 = OpExtInst %float %1 Sin %float_1_5"]),
                            ("%12 = OpLabel", 0, ["%new = OpUndef %int"]),
                            ("%14 = OpLoad", 1, []),  # %new is 15
                            ("%14 = OpLoad", 0, ["%15 = OpExtInst %float %1 Sin %float_1_5"]),  # %new 19
                            ("%12 = OpLabel", 1, [])]:
        outcome = _replace(session, after, old, new)
        _as_the_whole_text(session, made, outcome, new, clean=True)
    assert session.binary == data
    session = region_session(module, module_names(module), 0, data)
    _run(session)
    for after, old, new in [("OpMemoryModel", 2, ["%new = OpUndef %int"]),
                            ("OpMemoryModel", 1, ['OpEntryPoint Fragment %2 "main"',
                                                  "OpExecutionMode %2 OriginUpperLeft"])]:
        outcome = _replace(session, after, old, new)
        _as_the_whole_text(session, made, outcome, new, clean=True)
    assert session.binary == data


def test_a_numeric_id_past_the_bound_word_is_assembled_without_the_whole_text(monkeypatch):
    """`%4294967295`: its bound (2^32) does not fit the header's word, which then holds
    the other ids' bound, as spirv-as writes it (spirv-val then says the id is out of
    bound); a name typed beside it, and each undone: the whole text's bytes, the whole
    text never made."""
    data, module, session = _region_of_source()
    made = _outside_texts_made(monkeypatch)
    for old, new in [(0, ["%4294967295 = OpUndef %int"]), (0, ["%new = OpUndef %4294967295"]),
                     (1, []), (1, [])]:
        outcome = _replace(session, "OpTypeFloat", old, new)
        _as_the_whole_text(session, made, outcome, new, clean=True)
    assert session.binary == data
