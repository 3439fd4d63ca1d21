"""The values pane's rows of a stepped invocation: exact texts, bits, the tree of a
struct with an array and a matrix, what a step changed."""

from __future__ import annotations

from asm_module import module

from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.shader import Shader
from spvinspect.codec.interp.values_view import KeptRows, changed_keys, invocation_rows

DECLS = """
%uint_2 = OpConstant %uint 2
%arr = OpTypeArray %float %uint_2
%S = OpTypeStruct %int %mat2 %arr
%ptr_S = OpTypePointer Private %S
%ptr_float = OpTypePointer Private %float
%s = OpVariable %ptr_S Private
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%f_third = OpConstant %float 0.333333343
%int_m5 = OpConstant %int -5
%f_big = OpConstant %float 1e30
%u_max = OpConstant %uint 4294967295
%f_zero = OpConstant %float 0
%undef = OpUndef %float
"""

BODY = """
%sum = OpFAdd %float %f_third %f_third
%neg = OpIMul %int %int_m5 %int_m5
%inf = OpFMul %float %f_big %f_big
%nan = OpFMul %float %inf %f_zero
%wrap = OpIAdd %uint %u_max %u_max
%bad = OpFAdd %float %undef %f_third
%ptr_arr1 = OpAccessChain %ptr_float %s %int_2 %int_1
OpStore %ptr_arr1 %sum
"""


def _rows(steps: int):
    debugger = Debugger(Shader(module(BODY, DECLS)))
    for _ in range(steps):
        debugger.step()
    return debugger, {row.label: row for row in invocation_rows(debugger, lambda id_: debugger.shader.names.get(id_, str(id_)))}


def test_values_are_the_interpreters_exact_texts_with_their_bits() -> None:
    _, rows = _rows(7)  # OpLabel, then the six
    assert (rows["%sum"].value, rows["%sum"].bits, rows["%sum"].type_text) == ("0.6666667", "0x3f2aaaab", "float")
    assert (rows["%neg"].value, rows["%neg"].bits) == ("25", "0x00000019")
    assert (rows["%inf"].value, rows["%inf"].bits) == ("inf", "0x7f800000")
    assert rows["%nan"].value == "nan" and rows["%nan"].bits[4:] == "c00000"
    assert (rows["%wrap"].value, rows["%wrap"].bits) == ("4294967294", "0xfffffffe")
    assert rows["%bad"].value == "undef" and rows["%bad"].bits == ""


def test_a_struct_is_a_tree_and_a_store_changes_only_its_element() -> None:
    debugger, _ = _rows(8)
    listed = invocation_rows(debugger, lambda id_: debugger.shader.names.get(id_, str(id_)))
    tree = [(row.depth, row.label, row.type_text, row.value) for row in listed if row.key.startswith("var:")]
    assert tree == [
        (1, "%s", "struct S", ""),
        (2, "member 0", "int", "undef"),
        (2, "member 1", "mat2x2", ""),
        (3, "col[0]", "float2", "(undef, undef)"),
        (3, "col[1]", "float2", "(undef, undef)"),
        (2, "member 2", "float[2]", ""),
        (3, "[0]", "float", "undef"),
        (3, "[1]", "float", "undef"),
    ]
    debugger.step()
    after = invocation_rows(debugger, lambda id_: debugger.shader.names.get(id_, str(id_)))
    var_key = next(row.key for row in listed if row.label == "%s")
    assert {key for key in changed_keys(listed, after) if key.startswith("var:")} == {f"{var_key}/2/1"}
    assert next(row.value for row in after if row.key == f"{var_key}/2/1") == "0.6666667"
    headings = [row.label for row in after if row.heading]
    assert headings[0] == "Next: OpReturn (word %d)" % debugger.current.offset
    assert headings[1].startswith("Last step: OpStore") and "Private variables" in headings


def test_rows_kept_from_step_to_step_and_back_are_the_rows_made_anew() -> None:
    debugger = Debugger(Shader(module(BODY, DECLS)))
    name = lambda id_: debugger.shader.names.get(id_, str(id_))  # noqa: E731
    kept = KeptRows()
    reused = 0
    moves = ["step"] * 9 + ["back", "back", "step", "back", "step", "step"]
    before: list = []
    for move in moves:
        getattr(debugger, move)()
        rows = invocation_rows(debugger, name, kept)
        assert rows == invocation_rows(debugger, name), f"after {move} at {len(debugger.history)} steps"
        reused += sum(1 for row in rows if any(row is old for old in before))
        before = rows
    assert reused > 20, "the values a step did not change keep their rows"
