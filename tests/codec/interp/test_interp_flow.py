"""Control flow, memory and calls, and stepping through them with the Debugger."""

from __future__ import annotations

from asm_module import module, run_values

from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.shader import Shader

DECLS = """%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i5 = OpConstant %int 5
%i9 = OpConstant %int 9
%u4 = OpConstant %uint 4
%arr = OpTypeArray %int %u4
%ptr_arr = OpTypePointer Function %arr
%ptr_int = OpTypePointer Function %int
%fn_int = OpTypeFunction %int %int
"""

LOOP = """%var = OpVariable %ptr_arr Function
OpBranch %head
%head = OpLabel
%i = OpPhi %int %i0 %entry %inext %cont
%sum = OpPhi %int %i0 %entry %sumnext %cont
%lt = OpSLessThan %bool %i %i5
OpLoopMerge %exit %cont None
OpBranchConditional %lt %body %exit
%body = OpLabel
%sumnext = OpIAdd %int %sum %i
%slot = OpAccessChain %ptr_int %var %i
OpStore %slot %sumnext
OpBranch %cont
%cont = OpLabel
%inext = OpIAdd %int %i %i1
OpBranch %head
%exit = OpLabel
%p2 = OpAccessChain %ptr_int %var %i2
%two = OpLoad %int %p2
%oob = OpAccessChain %ptr_int %var %i9
%far = OpLoad %int %oob
OpStore %oob %i1
OpSelectionMerge %after None
OpSwitch %two %default 1 %case1 3 %case3
%case1 = OpLabel
OpBranch %after
%case3 = OpLabel
%called = OpFunctionCall %int %dbl %two
OpBranch %after
%default = OpLabel
OpBranch %after
%after = OpLabel
%which = OpPhi %int %i1 %case1 %called %case3 %i0 %default"""

FUNCTIONS = """%dbl = OpFunction %int None %fn_int
%x = OpFunctionParameter %int
%dl = OpLabel
%twice = OpIAdd %int %x %x
OpReturnValue %twice
OpFunctionEnd
"""


def test_loop_phis_stores_switch_and_call():
    v = run_values(LOOP, DECLS, FUNCTIONS)
    assert v["sum"] == 10 and v["i"] == 5  # 0+1+2+3+4, and the loop's last i
    assert v["two"] == 3  # var[2] = 0+1+2
    assert v["far"] == "undef"  # out of bounds: undefined, not an error
    assert v["twice"] == 6 and v["which"] == 6


def _debugger():
    return Debugger(Shader(module(LOOP, DECLS, FUNCTIONS)))


def test_step_records_offset_result_and_stores():
    d = _debugger()
    records = [d.step() for _ in range(12)]
    stores = [r for r in records if r.stores]
    assert stores and stores[0].opname == "OpStore"
    assert stores[0].stores[0][0].endswith("[0]") and stores[0].stores[0][1] == 0
    assert all(r.offset > 0 for r in records)
    assert d.current.offset > records[-1].offset or d.current.opname == "OpLabel"


def _plain(values):
    """Live values with pointers as what they point at (cells are rebuilt by back)."""
    from spvinspect.codec.interp.memory import Pointer, load

    return {k: ("&", load(v)) if isinstance(v, Pointer) else v for k, v in values.items()}


def test_back_restores_the_previous_state():
    d = _debugger()
    for _ in range(15):
        d.step()
    before = d.current.offset
    values = _plain(d.live_values())
    d.step()
    d.back()
    assert d.current.offset == before
    assert _plain(d.live_values()) == values
    assert len(d.history) == 15


def _state(d):
    """What the stepped invocation shows: where it is, its live values, its variables."""
    inv = d.invocation
    cells = {k: c.snapshot() for k, c in inv.cells.items()}
    return d.current.offset if d.current else None, d.depth, _plain(d.live_values()), cells, len(d.history)


def test_back_through_saved_states_matches_stepping_afresh():
    d = _debugger()
    d.interval = 8  # several saved states over this short run, so back restores from them
    states = [_state(d)]
    while not d.finished:
        d.step()
        states.append(_state(d))
    assert len(d.saved) >= 5
    for expected in reversed(states[:-1]):
        d.back()
        assert _state(d) == expected
    # The saved states are copies: stepping on after going back changes none of them.
    for _ in range(20):
        d.step()
    assert _state(d) == states[20]
    d.back()
    assert _state(d) == states[19]


def test_copies_made_ahead_by_prepare_leave_back_and_step_as_they_were():
    """`prepare` (the app calls it once a move is on screen) makes the saves and the copy
    the next move would make on its key: those moves then copy nothing, and every state
    is the one stepping afresh gives."""
    d = _debugger()
    d.interval = 8
    states = [_state(d)]
    copies = []
    copy = d._copy
    d._copy = lambda group: copies.append(group) or copy(group)
    while not d.finished:
        d.prepare()
        made = len(copies)
        d.step()
        assert len(copies) == made, "a step copied the state the prepare before it had saved"
        states.append(_state(d))
    assert len(d.saved) >= 5
    d.prepare(going_back=True)
    for expected in reversed(states[:-1]):
        made = len(copies)
        d.back()
        assert len(copies) == made, "back copied a saved state instead of the one made ahead"
        assert _state(d) == expected
        d.prepare(going_back=True)
    for _ in range(20):
        d.step()
    assert _state(d) == states[20]


def test_breakpoint_step_over_and_step_out():
    shader = Shader(module(LOOP, DECLS, FUNCTIONS))
    call = next(i for i in shader.instructions if i.opname == "OpFunctionCall")
    inner = next(i for i in shader.instructions if i.opname == "OpIAdd" and shader.names.get(i.result_id) == "twice")
    d = Debugger(shader)
    d.breakpoints.add(call.offset)
    d.run()
    assert d.current.offset == call.offset
    d.step_over()  # runs the call to its return
    assert d.depth == 1 and d.live_values()[call.result_id] == 6
    d2 = Debugger(shader)
    d2.run_to(inner.offset)
    assert d2.depth == 2
    d2.step_out()
    assert d2.depth == 1
    d2.run()
    assert d2.finished
