"""The check that a spliced module (`splice_module`) is the module a fresh `open_module`
makes of the same words: boundaries, candidate definers, function spans, instructions."""

from __future__ import annotations

from spvinspect.codec.binary.lazy import LazyModule


def assert_same_module(spliced: LazyModule, fresh: LazyModule, samples: int | None = None,
                       diagnostics: bool = True) -> None:
    """Every instruction compared, or about `samples` spread evenly; with `diagnostics`
    what `check()` finds too."""
    fresh.ensure_indexed()
    assert list(spliced.index.offsets) == list(fresh.index.offsets)
    assert spliced.first_function == fresh.first_function
    assert spliced.tail_offset == fresh.tail_offset
    ours, theirs = spliced.definitions, fresh.definitions
    assert ours.scanned == theirs.scanned
    for id_ in _ids(fresh):
        assert ours.first(id_) == theirs.first(id_), id_
    assert ours.repeated == theirs.repeated
    assert spliced.functions() == fresh.functions()
    step = 1 if samples is None else max(1, fresh.instruction_count // samples)
    for index in range(0, fresh.instruction_count, step):
        assert spliced.instruction(index) == fresh.instruction(index), index
    if diagnostics:
        assert spliced.check() == fresh.check()


def _ids(module: LazyModule):
    """Every id below the bound and the two above it; for a bound near 2^32, the ids the
    instructions define, each with its neighbours, and the bound's."""
    bound = module.header.bound
    if bound <= 1 << 22:
        return range(bound + 2)
    defined = {i.result_id for i in module.instructions() if i.result_id}
    return sorted({n for id_ in defined | {bound} for n in (id_ - 1, id_, id_ + 1)})
