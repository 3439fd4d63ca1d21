"""The Lima order fix: what the assembler reports as misordered is put in order."""

from __future__ import annotations

from spvinspect import lima
import pytest

from spvinspect.editing.lima_fix import fixable, fixed_line


def fix(line: str) -> str | None:
    return fixed_line(line, [d.message for d in lima.assemble(line)[1]])


@pytest.mark.parametrize(
    ("source", "fixed"),
    [
        ("load.u 1, load.v 1 $0", "load.v $0 1, load.u 1"),
        ("mov.v0 $0 $1, stop", "stop, mov.v0 $0 $1"),
        (
            "  stop, sync, load.v 0 ^tex_coord, texld_2d 0, mov.v0 ^tex_sampler $0  # seed",
            "  stop, sync, load.v ^tex_coord 0, texld_2d 0, mov.v0 $0 ^tex_sampler # seed",
        ),
        ("stop, mov.v0 ^const0.yyyx $0, const0 1.0 0.0 0.0 0.0", "stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0"),
    ],
)
def test_the_seed_examples_are_fixed_and_then_assemble(source, fixed):
    assert fixable([d.message for d in lima.assemble(source)[1]])
    assert fix(source) == fixed
    assert lima.assemble(fixed)[1] == []


def test_a_line_without_order_problems_is_left_alone():
    assert fix("stop, mov.v0 $0 $1") is None
    assert fix("load.q 1") is None  # an error, but not one about order
    assert fixed_line("load.u 1,", ["load.u (uniform, field 2) must come after load.v (varying, field 0)"]) is None
