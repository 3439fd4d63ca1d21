"""Campaign: edits that change what other instructions read, spliced vs the whole text.

Run: python benchmarks/dependents_campaign.py [MODULE.spv ...] (default: every 9th module
of $SPVINSPECT_CORPUS/spv, smallest first, at most 40)

On each module's text (the whole text, as the editor holds a small module, and two
regions, as it holds a big one) every edit of these kinds is made, assembled by the
session (spliced where it can: `editing.dependents`, `editing.header_comments`), compared
with the whole text's assembly (bytes, or the first diagnostic), then undone:

- an OpExtInstImport's set replaced by each of a few others (known, unknown, non-semantic),
- an integer or float type's width and signedness changed,
- the type word of a switch selector's definition replaced by each scalar type,
- a numeric id defined after a few lines (past the bound, in use, the largest), alone or
  with a name the user types (the undo drops it again),
- (whole text only) each header comment line edited, emptied, commented out or removed.

Prints each mismatch and, per mode and kind, how many edits spliced and how many took a
whole assembly. A mismatch is a bug.
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spvinspect.codec.binary.lazy import open_module  # noqa: E402
from spvinspect.codec.text.names import module_names  # noqa: E402
from spvinspect.editing.assembly_state import assemble_full  # noqa: E402
from spvinspect.editing.region_assembler import region_session  # noqa: E402
from spvinspect.editing.spirv_assembler import open_spirv_session  # noqa: E402

SETS = ["GLSL.std.450", "OpenCL.std", "NonSemantic.Shader.DebugInfo.100", "OpenCL.DebugInfo.100",
        "NonSemantic.Foo", "Nope", "DebugInfo"]


def edits(lines: list[str], whole: bool) -> list[tuple[int, str | None, str]]:
    """(line, its replacement (None: removed), kind) for each edit tried on `lines`."""
    found = []
    for k, line in enumerate(lines):
        m = re.search(r'OpExtInstImport "([^"]*)"', line)
        if m:
            found += [(k, line.replace(m.group(0), f'OpExtInstImport "{s}"'), "import") for s in SETS if s != m.group(1)]
        m = re.search(r"OpTypeInt (\d+) (\d)$", line)
        if m:
            found += [(k, line[: m.start()] + f"OpTypeInt {w} {s}", "type") for w in (8, 16, 32, 64) for s in (0, 1)
                      if f"OpTypeInt {w} {s}" != m.group(0)]
        m = re.search(r"OpTypeFloat (\d+)$", line)
        if m:
            found += [(k, line[: m.start()] + f"OpTypeFloat {w}", "type") for w in (16, 32, 64) if str(w) != m.group(1)]
    scalars = [m.group(1) for line in lines for m in [re.match(r"\s*(%\w+) = OpType(Int|Float|Bool)", line)] if m]
    selectors = {line.split()[1] for line in lines if line.strip().startswith("OpSwitch")}
    for k, line in enumerate(lines):
        m = re.match(r"\s*(%\w+) = (Op\w+) (%\w+)", line)
        if m and m.group(1) in selectors:
            found += [(k, line.replace(" " + m.group(3), " " + t, 1), "selector") for t in scalars if t != m.group(3)]
    if scalars:
        rows = [k for k, line in enumerate(lines) if line.strip() and not line.startswith(";")]
        for k in sorted({*rows[:2], *rows[-1:]}):
            for number in ("%4000000000", "%0x7ffffff0", "%60000", "%1", "%4294967295"):
                found.append((k, f"{lines[k]}\n{number} = OpUndef {scalars[0]}", "numeric"))
            found.append((k, f"{lines[k]}\n%4000000000 = OpUndef {scalars[0]}\n%campaign_new = OpUndef {scalars[0]}",
                          "numeric"))
    if whole:
        for k in range(min(6, len(lines))):
            line = lines[k]
            if not line.startswith(";"):
                break
            for new in (line + "x", re.sub(r"\d+", "7", line), re.sub(r"\d+", "123456", line), "", "; hi\n" + line,
                        line.replace(";", "", 1), line + ' "', None):
                found.append((k, new, "header"))
    return found


def outcome_of(session):
    outcome = session.request().run()
    session.accept(outcome)
    return outcome


def check(session, expect, label: str, tally: Counter) -> None:
    for k, new, kind in edits(session.lines, not session.partial):
        old = session.lines[k]
        replacement = [] if new is None else new.split("\n")
        session.replace_lines(k, k + 1, replacement)
        outcome = outcome_of(session)
        binary, diagnostics = expect(session.lines)
        got = [(d.message, d.line, d.column) for d in outcome.diagnostics[:1]]
        if outcome.binary != binary or (binary is None and got != diagnostics[:1]):
            tally["mismatch"] += 1
            print(f"MISMATCH {label} line {k}: {old!r} -> {new!r}: {got} / {diagnostics[:1]}")
        else:
            tally[(label.split(":")[-1], kind, "spliced" if outcome.incremental else "whole")] += 1
        session.replace_lines(k, k + len(replacement), [old])
        if outcome_of(session).binary != expect(session.lines)[0]:
            tally["mismatch"] += 1
            print(f"MISMATCH {label} line {k}, undone")


def campaign(path: Path, tally: Counter) -> None:
    data = path.read_bytes()
    session = open_spirv_session(data)
    hints = session.assembler.hints
    outcome_of(session)

    def whole_text(lines):
        full = assemble_full(lines, hints)
        return (full.state.binary if full.state else None), [(d.message, d.line, d.column) for d in full.diagnostics]

    check(session, whole_text, f"{path.name}:whole", tally)
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    for at in sorted({0, module.instruction_count // 2}):
        region = region_session(module, names, at, data)
        if region is None:
            continue
        outcome_of(region)
        source = region.assembler.source

        def region_text(lines, source=source):
            state, diagnostics = source.text_assembly(lines)
            return (state.binary if state else None), [(d.message, d.line, d.column) for d in diagnostics]

        check(region, region_text, f"{path.name}:region", tally)


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]]
    if not paths:
        corpus = Path(os.environ.get("SPVINSPECT_CORPUS", "/work/shared/corpus")) / "spv"
        paths = sorted(corpus.glob("*.spv"), key=lambda p: p.stat().st_size)[::9][:40]
    tally: Counter = Counter()
    for path in paths:
        try:
            campaign(path, tally)
        except Exception:  # a crash is a finding: shown, and the campaign goes on
            traceback.print_exc()
            tally["crash"] += 1
    for key, count in sorted(tally.items(), key=str):
        print(f"  {key}: {count}")


if __name__ == "__main__":
    main()
