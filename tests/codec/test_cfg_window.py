"""`window_cfg`: a run of a function's blocks has the blocks and edges the whole
function's graph has between them, and edges leaving the run are not problems."""

from __future__ import annotations

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.cfg.graph import build_cfg
from spvinspect.codec.cfg.window import window_cfg
from spvinspect.codec.text.names import module_names
from spvinspect.commands.open import EXAMPLE_MODULE


def test_a_run_of_blocks_is_the_whole_graph_between_them():
    module = decode(EXAMPLE_MODULE.read_bytes())
    names = module_names(module)
    whole = build_cfg(module, names)
    function = max(whole.functions, key=lambda f: len(f.blocks))
    assert len(function.blocks) >= 6
    opener = next(i for i in module.instructions if i.offset == function.offset)
    for start in range(len(function.blocks) - 2):
        run_blocks = function.blocks[start : start + 3]
        instructions = module.instructions[run_blocks[0].first : run_blocks[-1].last + 1]
        window, problems = window_cfg(opener, instructions, names)
        ids = {b.id for b in run_blocks}
        assert [b.id for b in window.blocks] == [b.id for b in run_blocks]
        assert [(b.offset, b.end, b.terminator, b.construct) for b in window.blocks] == [
            (b.offset, b.end, b.terminator, b.construct) for b in run_blocks
        ]
        inside = [e for e in function.edges if e.source in ids and e.target in ids]
        assert list(window.edges) == inside
        assert problems == ()


def test_the_first_run_starts_at_the_entry_block():
    module = decode(EXAMPLE_MODULE.read_bytes())
    names = module_names(module)
    function = max(build_cfg(module, names).functions, key=lambda f: len(f.blocks))
    first = next(k for k, i in enumerate(module.instructions) if i.offset == function.offset)
    instructions = module.instructions[first : function.blocks[1].first]
    window, problems = window_cfg(module.instructions[first], instructions, names)
    assert window.entry == function.entry and len(window.blocks) == 1 and problems == ()


def test_no_block_of_a_run_is_said_to_be_unreachable():
    module = decode(EXAMPLE_MODULE.read_bytes())
    names = module_names(module)
    function = max(build_cfg(module, names).functions, key=lambda f: len(f.blocks))
    opener = next(i for i in module.instructions if i.offset == function.offset)
    last = function.blocks[-1]
    window, _ = window_cfg(opener, module.instructions[function.blocks[2].first : last.last + 1], names)
    assert window.unreachable == frozenset()


def test_edges_leaving_a_run_are_its_exits():
    module = decode(EXAMPLE_MODULE.read_bytes())
    names = module_names(module)
    function = max(build_cfg(module, names).functions, key=lambda f: len(f.blocks))
    opener = next(i for i in module.instructions if i.offset == function.offset)
    for start in range(len(function.blocks) - 2):
        run_blocks = function.blocks[start : start + 3]
        ids = {b.id for b in run_blocks}
        exits = []
        window, _ = window_cfg(opener, module.instructions[run_blocks[0].first : run_blocks[-1].last + 1], names, exits=exits)
        assert exits == [e for e in function.edges if e.source in ids and e.target not in ids]
