"""The inspector app on the large module: launch to first paint, peak memory, jumps, page
scrolls, a whole-module search and the hex pane's moves, each next to its target (and
spirv-dis for scale).

Usage: python benchmarks/bench_app.py [--module PATH] [--repeat N]
       python benchmarks/bench_app.py --compare REV [--keep]   (before: revision REV)
       python benchmarks/bench_app.py --before-python PATH      (before: that install)

Before and after, side by side: `--compare REV` checks REV out into a throwaway git
worktree with its own virtual environment (`pip install -e`), or `--before-python` names
the Python of an environment where the "before" app is installed. This script then runs
itself once under that Python (before) and once under its own (after), one after the
other on the same module, and prints both columns with the change. A "before" from
before the one `spvinspect` package (top-level `inspector` and `codec`) works too.


How it measures:
- First paint: `spvinspect MODULE` runs in a real 120x40 pseudo-terminal (as a user starts
  it); the clock starts just before the fork and stops when the first instruction's text
  (`OpCapability`) arrives on the terminal, i.e. when Textual has painted the first
  screen. Best of N runs. No hook in the app: the terminal output is the evidence.
- Peak RSS: that same process's VmHWM (/proc) once the whole-module index (diagnostics,
  definitions, search text) has been built, which the header pane shows as
  `N/BOUND ids` on the terminal.
- Keys (jumps, page scrolls, a typed search): sent to that same terminal, while the index
  is being built and once it is; the time until the terminal shows the cursor on its new
  row (the status line is painted in the same frame as the list). G right after the first
  paint is timed in every launch (median and worst: one launch says little on a shared
  machine).
- Hex pane (#12): in that same app, key 4 (the hex pane, zoomed with the word detail),
  `g` to the middle of the module, then pages and word moves; each timed until the
  status line shows the cursor's new word (`0x… wN`, painted with the hex pane).
- The app runs as installed: with its bytecode cached. `PYTHONDONTWRITEBYTECODE` (set in
  some sandboxes) is removed from its environment; with it, every launch compiles the
  app's modules again (0.2-0.3 s more to the first paint).
- Jumps to the middle, quarters and end: in-process (Textual headless), from the selection
  to the next frame Textual paints; a one-row move first shows what any frame costs.
- Index and searches: the document model alone, timed directly.
The machine is shared with other agents (2 cores): compare figures within one run.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib
import importlib.util
import json
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

from large_module import build_large_module, tool_path

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[\]P][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>]")
INDEXED = re.compile(rb"ids defined\s+[\d,]+|\d[\d,]*/[\d,]+ ids")
"""The header pane's count of ids defined (spread out, or compact beside the list), which
shows once the whole-module index is built."""
FIRST_LINE = re.compile(rb"OpCapability")
ROW = re.compile(rb"(?:row|instruction) ([\d,]+)")
"""The status line's place of the selected row (`instruction 1,234/…`, or `row …` past
the instructions): what a list move changes."""
WORD = re.compile(rb"0x[0-9a-f]{8} w(\d+)")
"""The status line's place of the selected word (`0x00001348 w1234`): what a hex cursor
move changes, in the frame that draws the cursor."""
LATER = 1.0
"""Seconds after the first paint for a second G while indexing: the worker first makes
what a jump anywhere needs (definitions scan, names), then the search text."""


def installed(name: str) -> str:
    """The module `spvinspect.NAME` as the installed app calls it: the one package, or
    the layout before it (top-level `inspector`, `codec`, `lima`, `themes`)."""
    if importlib.util.find_spec("spvinspect") is not None:
        return name
    rest = name.removeprefix("spvinspect.")
    return rest if rest.split(".")[0] in ("codec", "lima", "themes") else f"inspector.{rest}"


def load(name: str, attribute: str):
    """`attribute` of the installed app's module `name` (see `installed`)."""
    return getattr(importlib.import_module(installed(name)), attribute)


class PtyApp:
    """`spvinspect MODULE [ARGS]` running on a 120x40 pseudo-terminal, read as it paints."""

    def __init__(self, module: Path, *args: str) -> None:
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            # Not in a checkout: `-m` would import its folders rather than the installed app.
            os.chdir(tempfile.gettempdir())
            os.environ["TERM"] = "xterm-256color"
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.execv(sys.executable, [sys.executable, "-m", installed("spvinspect.cli"), str(module), *args])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.screen = b""

    def read(self, timeout: float) -> float | None:
        """Read what arrives within `timeout`; the time the last byte came, or None."""
        last = None
        if select.select([self.fd], [], [], timeout)[0]:
            try:
                self.screen += os.read(self.fd, 1 << 16)
            except OSError:
                return None
            last = time.perf_counter()
        return last

    def wait_for(self, pattern: re.Pattern[bytes], timeout: float = 120.0) -> float:
        """Seconds from launch until `pattern` shows on the terminal (escapes removed)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            arrived = self.read(0.05)
            if arrived is not None and pattern.search(ANSI.sub(b"", self.screen[-(1 << 17) :])):
                return arrived - self.started
        raise RuntimeError(f"{pattern.pattern!r} never showed on the terminal")

    def shown(self, pattern: re.Pattern[bytes]) -> bytes | None:
        """What `pattern`'s group last showed on the terminal (e.g. the row number of
        the status line's `row 1,234/…`)."""
        found = pattern.findall(ANSI.sub(b"", self.screen[-(1 << 16) :]))
        return found[-1] if found else None

    def move_after(self, keys: bytes, timeout: float = 20.0, pattern: re.Pattern[bytes] = ROW) -> float:
        """Send `keys`; seconds until the screen shows the cursor on another row (or
        whatever `pattern` shows: the status line and the panes are painted in one
        frame). Output that does not move the cursor (progress in the status line) does
        not count."""
        while self.read(0.02) is not None:
            pass  # let anything already under way finish
        before = self.shown(pattern)
        sent = time.perf_counter()
        os.write(self.fd, keys)
        while time.perf_counter() - sent < timeout:
            arrived = self.read(0.05)
            if arrived is not None and self.shown(pattern) != before:
                return arrived - sent
        raise RuntimeError(f"the cursor did not move after {keys!r}")

    def peak_rss_mb(self) -> float:
        """The process's peak resident set (VmHWM), in MB."""
        status = Path(f"/proc/{self.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024

    def quit(self) -> None:
        """Press q, then make sure the process is gone."""
        try:
            os.write(self.fd, b"q")
            time.sleep(0.3)
            os.kill(self.pid, 9)
        except (OSError, ProcessLookupError):
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def pty_figures(module: Path, repeat: int, middle_offset: int, middle_text: bytes) -> list[tuple[str, str, str]]:
    """(measure, ours, target) from real launches on a pseudo-terminal."""
    paints, first_keys, rows = [], [], []
    for run in range(repeat):
        app = PtyApp(module)
        try:
            paints.append(app.wait_for(FIRST_LINE))
            paint_rss = app.peak_rss_mb()
            first_keys.append(app.move_after(b"G"))
            if run == 0:
                for label, keys in (("keys gg while indexing", b"gg"), ("key pagedown while indexing", b"\x1b[6~")):
                    rows.append((label, f"{app.move_after(keys) * 1000:.0f}ms", "<= 50ms"))
                indexed = app.wait_for(INDEXED)
                rows.append(("launch -> whole-module index built (worker)", f"{indexed:.2f}s", "-"))
                rows.append(("peak RSS at first paint", f"{paint_rss:.0f}MB", "-"))
                rows.append(("peak RSS with the index built", f"{app.peak_rss_mb():.0f}MB", "<= 400MB"))
                for label, keys in (
                    ("key G: jump to the end", b"G"),
                    ("keys gg: jump to the start", b"gg"),
                    ("key pagedown", b"\x1b[6~"),
                    ("key pagedown", b"\x1b[6~"),
                    ("key ]: next function", b"]"),
                    ("key enter: go to definition", b"\r"),
                    ("keys ctrl+o: back", b"\x0f"),
                ):
                    rows.append((label, f"{app.move_after(keys) * 1000:.0f}ms", "<= 50ms"))
                seconds = app.move_after(b"/OpReturnValue\r")
                rows.append(("search typed: /OpReturnValue enter", f"{seconds * 1000:.0f}ms", "<= 1000ms"))
                rows += hex_rows(app, middle_offset)
        finally:
            app.quit()
    app = PtyApp(module, "--at", hex(middle_offset))
    try:
        at_middle = app.wait_for(re.compile(middle_text))
    finally:
        app.quit()
    app = PtyApp(module)
    try:
        app.wait_for(FIRST_LINE)
        time.sleep(LATER)
        later = app.move_after(b"G")
        indexing = not INDEXED.search(ANSI.sub(b"", app.screen[-(1 << 17) :]))
    finally:
        app.quit()
    return [
        (f"launch -> first painted screen (best of {repeat})", f"{min(paints):.2f}s", "<= 1.0s"),
        ("launch --at the middle -> first painted screen", f"{at_middle:.2f}s", "<= 1.0s"),
        (f"key G right after the first paint (median of {repeat})", f"{statistics.median(first_keys) * 1000:.0f}ms", "<= 50ms"),
        (f"key G right after the first paint (worst of {repeat})", f"{max(first_keys) * 1000:.0f}ms", "<= 50ms"),
        (f"key G {LATER:.0f}s after the first paint{', still indexing' if indexing else ''}", f"{later * 1000:.0f}ms", "<= 50ms"),
        *rows,
    ]


def _moved(app: PtyApp, keys: bytes, pattern: re.Pattern[bytes]) -> str:
    """`move_after` in milliseconds, or why there is no figure (the cursor did not move)."""
    try:
        return f"{app.move_after(keys, pattern=pattern) * 1000:.0f}ms"
    except RuntimeError as error:
        return str(error)


def hex_rows(app: PtyApp, middle_offset: int) -> list[tuple[str, str, str]]:
    """The hex pane (key 4, zoomed with the word detail) on a running app: going to the
    middle of the module with `g`, then pages and word moves there, each timed until the
    status line shows the cursor's new word."""
    os.write(app.fd, b"4")
    while app.read(0.3) is not None:
        pass  # the zoomed hex pane painted
    goto = b"g" + hex(middle_offset).encode() + b"\r"
    rows = [("hex: g 0x… enter, the middle (typed at once)", _moved(app, goto, WORD), "-")]
    for label, keys in (
        ("hex: key pagedown (middle)", b"\x1b[6~"),
        ("hex: key pagedown (middle)", b"\x1b[6~"),
        ("hex: key right (next word)", b"\x1b[C"),
        ("hex: key right (next word)", b"\x1b[C"),
        ("hex: key down (a row down)", b"\x1b[B"),
        ("hex: key pageup", b"\x1b[5~"),
    ):
        rows.append((label, _moved(app, keys, WORD), "<= 50ms"))
    return rows


def document_figures(module: Path) -> list[tuple[str, str, str]]:
    """(measure, ours, target) of the document model alone: the whole-module index, and
    searches over it (what `/` runs once the index is there)."""
    Document = load("spvinspect.document", "Document")

    document = Document(module.read_bytes(), module)
    started = time.perf_counter()
    for _ in document.index_steps():
        pass
    rows = [("whole-module index, no UI (one pass)", f"{time.perf_counter() - started:.2f}s", "-")]
    for text in ("OpReturnValue", "%main", "%int_3", "3.5", "clamp"):
        started = time.perf_counter()
        matches = document.search(document.parse_query(text))
        seconds = time.perf_counter() - started
        rows.append((f"search {text} ({len(matches):,} rows)", f"{seconds * 1000:.0f}ms", "<= 1000ms"))
    return rows


def pilot_figures(module: Path) -> list[tuple[str, str, str]]:
    """(measure, ours, target) of moves anywhere, in-process (Textual headless) once the
    index is built: from the selection to the next frame Textual paints (its display
    hook), a one-row move first for the frame's own cost."""
    import asyncio

    InspectorApp = load("spvinspect.app", "InspectorApp")
    Document = load("spvinspect.document", "Document")
    InstructionList = load("spvinspect.widgets.instruction_list", "InstructionList")

    async def run() -> list[tuple[str, str, str]]:
        document = Document(module.read_bytes(), module)
        app = InspectorApp(document)
        frames: list[float] = []
        app.post_display_hook = lambda: frames.append(time.perf_counter())
        rows = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = app.screen
            instruction_list = screen.query_one(InstructionList)
            count = document.row_count
            for label, row in (
                ("one row down", 1),
                ("the middle", count // 2),
                ("a quarter", count // 4),
                ("three quarters", 3 * count // 4),
                ("the end", count - 1),
            ):
                painted = len(frames)
                started = time.perf_counter()
                screen.select(document.select_row(row), jump=True)
                while len(frames) == painted:
                    await asyncio.sleep(0.0005)
                seconds = frames[painted] - started
                await pilot.pause()
                assert instruction_list.scroll_offset.y <= row < instruction_list.scroll_offset.y + instruction_list.size.height
                rows.append((f"move to {label} (in-process, next frame)", f"{seconds * 1000:.0f}ms", "<= 50ms"))
        return rows

    return asyncio.run(run())


def reference_seconds(module: Path) -> float:
    """spirv-dis printing the whole module, for scale."""
    started = time.perf_counter()
    subprocess.run([tool_path("spirv-dis"), "--no-color", str(module)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def measure(module: Path, repeat: int) -> dict:
    """Every figure of the installed app on `module`: {"about": [lines], "rows": [(measure,
    ours, target)]}."""
    open_module = load("spvinspect.codec.binary.lazy", "open_module")
    Listing = load("spvinspect.codec.text.listing", "Listing")

    lazy = open_module(module.read_bytes())
    lazy.ensure_indexed()
    middle = lazy.instruction_count // 2
    opcode = Listing(lazy).line(middle).split("= ")[-1].split()[0].encode()
    middle_text = f"{lazy.offset(middle) * 4:08x}".encode() + rb"\W+.*" + re.escape(opcode)
    about = [
        f"module: {module} ({module.stat().st_size / 1e6:.1f} MB, {lazy.instruction_count:,} instructions)",
        f"spirv-dis --no-color, whole module (for scale): {reference_seconds(module):.2f}s",
    ]
    rows = section("on a terminal", lambda: pty_figures(module, repeat, lazy.offset(middle) * 4, middle_text))
    rows += section("in-process moves", lambda: pilot_figures(module))
    rows += section("document model", lambda: document_figures(module))
    return {"about": about, "rows": rows}


def section(name: str, figures: Callable[[], list[tuple[str, str, str]]]) -> list[tuple[str, str, str]]:
    """A section's rows, or one row saying why it has none (an app too old for it)."""
    try:
        return figures()
    except Exception as error:  # noqa: BLE001 - one section's failure leaves the others
        return [(f"{name}: failed", f"{type(error).__name__}: {error}"[:70], "-")]


# -- before and after -----------------------------------------------------------------


def before_environment(revision: str, keep: bool) -> tuple[str, Callable[[], None]]:
    """A throwaway worktree of `revision` with a venv where it is installed: (its
    Python, how to remove both)."""
    place = Path(tempfile.mkdtemp(prefix="spvinspect-before-"))
    tree, venv = place / "tree", place / "venv"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision], check=True,
                   stdout=subprocess.DEVNULL)

    def remove() -> None:
        if keep:
            print(f"kept: {tree} and {venv}", file=sys.stderr)
            return
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        subprocess.run(["rm", "-rf", str(place)], check=False)

    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = str(venv / "bin" / "python")
        print(f"installing {revision} into {venv}…", file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "-q", "-e", str(tree)], check=True)
    except BaseException:
        remove()
        raise
    return python, remove


def run_under(python: str, module: Path, repeat: int, cache: Path | None = None) -> dict:
    """This script's figures under another Python (`--json`); `cache`: its own cache
    directory (an older app's grammar cache is not the newer one's)."""
    env = dict(os.environ)
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    done = subprocess.run([python, str(Path(__file__).resolve()), "--json", "--module", str(module), "--repeat", str(repeat)],
                          stdout=subprocess.PIPE, text=True, check=True, env=env)
    return json.loads(done.stdout)


NUMBER = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|MB)$")


def change(before: str, after: str) -> str:
    """After against before, as a percentage (when both are figures of one unit)."""
    old, new = NUMBER.match(before), NUMBER.match(after)
    if old is None or new is None or old.group(2) != new.group(2) or float(old.group(1)) == 0:
        return ""
    return f"{(float(new.group(1)) / float(old.group(1)) - 1) * 100:+.0f}%"


def side_by_side(before: dict, after: dict, before_name: str) -> list[str]:
    """The rows of both runs, paired by measure (and its repeat, for measures taken twice)."""
    def keyed(rows):
        seen: dict[str, int] = {}
        out = {}
        for label, ours, target in rows:
            seen[label] = seen.get(label, 0) + 1
            out[(label, seen[label])] = (ours, target)
        return out

    old = keyed(before["rows"])
    new = keyed(after["rows"])
    lines = [f"before: {before_name}", *(f"  {line}" for line in before["about"]), "after: this checkout",
             *(f"  {line}" for line in after["about"]),
             f"{'measure':<48}{'before':>10}{'after':>10}{'change':>8}{'target':>11}"]
    for key in [*new, *(k for k in old if k not in new)]:
        before_figure, target = old.get(key, ("-", "-"))
        after_figure, target = new.get(key, ("-", target))
        lines.append(f"{key[0]:<48}{before_figure:>10}{after_figure:>10}{change(before_figure, after_figure):>8}{target:>11}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare", metavar="REV", help="before: this git revision, installed in a throwaway venv")
    parser.add_argument("--before-python", metavar="PATH", help="before: the app installed for this Python")
    parser.add_argument("--keep", action="store_true", help="with --compare: keep the worktree and venv")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    module = args.module or build_large_module()
    if args.json:
        print(json.dumps(measure(module, args.repeat)))
        return 0
    if args.compare is None and args.before_python is None:
        figures = measure(module, args.repeat)
        print("\n".join(figures["about"]))
        print(f"{'measure':<48}{'ours':>10}{'target':>11}")
        for label, ours, target in figures["rows"]:
            print(f"{label:<48}{ours:>10}{target:>11}")
        return 0
    remove = None
    python = args.before_python
    if python is None:
        python, remove = before_environment(args.compare, args.keep)
    try:
        with tempfile.TemporaryDirectory(prefix="spvinspect-before-cache-") as cache:
            before = run_under(python, module, args.repeat, Path(cache))
        after = run_under(sys.executable, module, args.repeat)
    finally:
        if remove is not None:
            remove()
    print("\n".join(side_by_side(before, after, args.compare or python)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
