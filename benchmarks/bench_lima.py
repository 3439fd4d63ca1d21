"""Benchmark: the Lima assembler on 10k, 100k and 1M lines, next to `lima dis` of the result.

There is no reference Lima assembler to compare with, so the disassembler of the same
words is the yardstick: both walk every instruction once. The text is a block of every
unit's ops, a label and a branch back to it, repeated. Target: 1,000,000 lines in 30 s.

Both run under the commands' garbage-collector policy (`few_collections`), as
`spvinspect lima as` and `lima dis` do.

Run: python benchmarks/bench_lima.py [--lines 10000,100000,1000000]
Prints wall and CPU seconds (CPU time is steadier on a shared machine), the same text read
with `--style auto` (what `lima as` does by default) and the program's Mesa listing read with
`--style mesa`, the memory a decoded program holds per instruction, then the 1,000,000-line
figure next to the target.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spvinspect import lima  # noqa: E402
from spvinspect.commands.io import few_collections  # noqa: E402

BLOCK = """\
L{n}:
load.v $0 1, load.u 1
sync, load_persp_w.v $1.xy 2.zw, texld 3 $0.x
mov.v0 $0 ^const0.xxxx, const0 1.0 0.5 0.0 -1.678
add.v1 $1 $0 $2
rcp.s2 $0.x $1.x
mul.s0 $2.y $0.x $1.y, add.s1 $3.z ^s0 $2.w
store.t 3 $1
mul_x2_sat.v0 $3.xz -$1_abs.yx $2, max.v1 $1 ^v0 $4.wzyx, const1 0.25 2.0 inf -0.0
branch_lt $0.x $1.y L{n}"""
LINES_PER_BLOCK = BLOCK.count("\n") + 1
TARGET_1M_SECONDS = 30


def program_text(lines: int) -> str:
    """About `lines` lines of assembly: whole blocks, then a last `stop` instruction."""
    blocks = [BLOCK.format(n=n) for n in range(max(1, (lines - 1) // LINES_PER_BLOCK))]
    return "\n".join([*blocks, "stop, discard"]) + "\n"


def timed(work):
    """(result, wall seconds, CPU seconds) of `work()`, under the commands' collector policy."""
    with few_collections():
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        return result, time.perf_counter() - wall, time.process_time() - cpu


def disassemble(words: list[int]) -> list[str]:
    """What `spvinspect lima dis` prints for the words, built in-process."""
    data = b"".join(word.to_bytes(4, "little") for word in words)
    return lima.seed_lines(lima.decode(data))


def decoded_bytes(words: list[int]) -> tuple[int, float]:
    """(instructions, bytes `lima.decode` holds per instruction, as tracemalloc counts them)."""
    data = b"".join(word.to_bytes(4, "little") for word in words)
    tracemalloc.start()
    program = lima.decode(data)
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return len(program.instructions), held / max(1, len(program.instructions))


def main() -> None:
    """Prints one row per size: lines, words, assembler and disassembler times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="10000,100000,1000000", help="comma-separated sizes")
    sizes = [int(size) for size in parser.parse_args().lines.split(",")]
    print(f"{'lines':>9} {'words':>9}  {'lima as wall/cpu (s)':>22}  {'us/line':>7}  {'lima dis wall/cpu (s)':>22}")
    million = None
    for size in sizes:
        text = program_text(size)
        lines = text.count("\n")
        (words, diagnostics), wall, cpu = timed(lambda: lima.assemble(text))
        assert words is not None and not diagnostics, diagnostics[:3]
        shown, dis_wall, dis_cpu = timed(lambda: disassemble(words))
        assert len(shown) == lines
        print(f"{lines:>9} {len(words):>9}  {wall:>10.2f} /{cpu:>9.2f}  {cpu / lines * 1e6:>7.1f}"
              f"  {dis_wall:>10.2f} /{dis_cpu:>9.2f}")
        _, _, auto_cpu = timed(lambda: lima.assemble(text, "auto"))
        mesa_text = "\n".join(lima.listing_lines(lima.decode_words(words), "mesa"))
        (mesa_words, _), _, mesa_cpu = timed(lambda: lima.assemble(mesa_text, "mesa"))
        assert mesa_words is not None  # equal but for bits Mesa does not print (a store's offset register)
        print(f"{'':>9} {'':>9}  as --style auto (the default) {auto_cpu:.2f} s CPU;"
              f" Mesa's listing as --style mesa {mesa_cpu:.2f} s CPU")
        if size == sizes[0]:
            memory = decoded_bytes(words)
        if million is None and size >= 1_000_000:
            million = (lines, wall, cpu)
        del words, shown
    instructions, per_instruction = memory
    print(f"lima.decode holds {per_instruction:,.0f} bytes per instruction ({instructions:,} instructions of"
          f" the {sizes[0]:,}-line program, as tracemalloc counts them)")
    if million is None:
        print(f"1,000,000 lines: not measured (add 1000000 to --lines); target <= {TARGET_1M_SECONDS} s")
    else:
        lines, wall, cpu = million
        verdict = "meets" if cpu <= TARGET_1M_SECONDS else "misses"
        print(f"{lines:,} lines assembled: {cpu:.1f} s CPU ({wall:.1f} s wall); target <= {TARGET_1M_SECONDS} s"
              f" ({verdict} it in CPU time; wall time depends on what else the machine runs)")


if __name__ == "__main__":
    main()
