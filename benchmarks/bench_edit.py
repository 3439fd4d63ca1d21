"""Benchmark: keystroke to updated panes in the app, on a 5,000-line module and on the
468,000-instruction large module, next to spirv-as assembling the same text.

Run: python benchmarks/bench_edit.py [--keys N] [--no-large | --only-large] [--open-only | --whole-only | --keys-only]
       [--no-new-id | --id-only | --width-only] [--rss-stages [--collect] [--never-idle] [--trace N]]

The app runs headless (Textual's Pilot, 120x40) over the module, and the editor is
opened (`e`) at places spread through the module; at each, keys are pressed as a user
types them. A keystroke's time runs from the key event reaching the app to the screen
painted after the panes took the new binary (or the new errors): the editor's own
work, the re-assembly on the job thread, the new document (its index spliced from the
old one's), the swap into the header, list, hex and CFG panes, and the repaint
(`EditingController.edit_latencies`). Three kinds of keys:

- a digit typed after a constant's literal, then deleted (the common edit);
- a letter typed into a result's name, then deleted (defines a new name);
- an arbitrary character anywhere in the functions, then deleted (may make an error,
  shown at its line:col while the last good binary stays).

Before the keys, and with the same app: the time from `e` to an editable editor on
screen (target 1.0 s, goal 0.5 s on the large module), scrolling the editor a page at
a time (50 ms a page), each from the key sent to the frame that shows it (`Frames`:
the screen's paints, with what they showed; the UI thread's CPU time beside it), then
edits that needed a whole assembly (a character typed into the header comments, after
the import, into a switch selector's type, a new numeric id: 250 ms p95 from key to
panes), edits that took the whole text's assembly and now re-assemble the region over
the module's tables on a worker (a numeric id at the number a name the user typed took;
a type whose constants and switches outside the region grow, re-encoded from their
words; an import added; a numeric id at 0xFFFFFFFF; a numeric id the region no longer
holds taken by a name the user typed), each beside spirv-as, a string left open typed
in a function (` "ab`, then deleted, each key pressed without waiting for the panes;
beside spirv-as), and the process's RSS (now and peak) after 100 edits (500 MB peak on the large module).
`--id-only` (with `--whole-only`) runs only the new numeric id and the open string rows;
`--no-new-id` leaves out the edits past the new numeric id (a name then a numeric id at its
number, a type growing its constants, an import added: the RSS peak);
`--rss-stages` instead prints the RSS (now and peak) and the collector's object count at
each stage: the app open and indexed, `e`, 10 and 100 edits, and escape + `e` elsewhere
(with `--collect`, each also after a full collection, its CPU time, and the C heap
trimmed: live versus garbage not collected yet); `--never-idle` has the app never see
the user pause (a fast typist, or a machine quick enough that no edit leaves a second
between keys): no freeze and no full collection of the app's own.

A module of 1 MiB or more is edited a region at a time (`editing.region_assembler`): `e`
shows the function around the selection (or a window), and typing at a place outside it
moves the region there (escape, select, `e`). Places are chosen by instruction, so the
same run measures both kinds of session. On the large module the figures also give the
region's first job (its tables read off the binary, in the background) and `e` on a
module already indexed (a region moved).

p50, p95 and max are printed with the targets (100 ms p95 at 5,000 lines, 250 ms on the
large module) and with spirv-as (the real binary, not cmeel's launcher) on spirv-dis's text of the
module (spirv-dis timed too), which is what assembling the whole text on every key would
cost. The machine is
shared with other work: compare within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.large_module import build_large_module, module_of_lines, tool_path  # noqa: E402
from textual import events  # noqa: E402
from textual.widgets.text_area import Selection  # noqa: E402

from spvinspect.app import InspectorApp  # noqa: E402
from spvinspect.codec.text.listing import DisassemblyOptions, Listing  # noqa: E402
from spvinspect.document import Document  # noqa: E402
from spvinspect.responsive import collector, memory  # noqa: E402

EDITOR_LINES = 5_000
TARGETS_MS = {"5,000 lines": 100.0, "large module": 250.0}
SETTLE_SECONDS = 180.0
OPEN_SECONDS = 600.0
"""How long `e` may take on the large module before the run gives up (16.8 s on an idle machine)."""
OPEN_TARGET_S = {"5,000 lines": 0.5, "large module": 1.0}
SCROLL_TARGET_MS = 50.0
RSS_TARGET_MB = {"5,000 lines": None, "large module": 500.0}
EDITS_FOR_RSS = 100
PEAK_STEP_MB = 10.0
"""`--rss-stages` says at which edits the peak rose by this much or more."""
PAGES = 30
_CONSTANT = re.compile(r"= OpConstant %\w+ \d+$")


def editor_module(tmp: Path) -> Path:
    """A valid module whose disassembly has at least EDITOR_LINES lines."""
    return module_of_lines(tmp, EDITOR_LINES)


def spirv_dis_seconds(path: Path, tmp: Path) -> float:
    """spirv-dis on the module, best of two."""
    best = float("inf")
    for _ in range(2):
        began = time.perf_counter()
        subprocess.run([tool_path("spirv-dis"), str(path), "-o", str(tmp / "bench-dis.spvasm")], check=True)
        best = min(best, time.perf_counter() - began)
    return best


def spirv_as_seconds(source: Path, tmp: Path) -> float:
    """spirv-as on a text file, best of two."""
    best = float("inf")
    for _ in range(2):
        began = time.perf_counter()
        subprocess.run([tool_path("spirv-as"), str(source), "-o", str(tmp / "bench.spv"),
                        "--preserve-numeric-ids"], check=True)
        best = min(best, time.perf_counter() - began)
    return best


async def settle(pilot, seconds: float = SETTLE_SECONDS) -> None:
    """Wait until the newest text is assembled and shown."""
    screen = pilot.app.screen
    deadline = time.monotonic() + seconds
    while screen.editing.edit_session is None or screen.editing.editor is None or screen.editing.edit_session.busy:
        if time.monotonic() > deadline:
            raise TimeoutError("the editor did not settle")
        await pilot.pause(0.01)
    await pilot.pause(0.05)


async def shown_edits(pilot, count: int) -> None:
    """Wait until `count` edits have reached the panes (`edit_latencies`), then settle."""
    screen = pilot.app.screen
    deadline = time.monotonic() + OPEN_SECONDS
    while len(screen.editing.edit_latencies) < count:
        if time.monotonic() > deadline:
            raise TimeoutError("the edit did not reach the panes")
        await pilot.pause(0.01)
    await settle(pilot, OPEN_SECONDS)


async def editor_on(pilot, index: int) -> int:
    """The editor's line (in the session's text) of instruction `index`, opening the
    editor there (escape, select, `e`) when its text does not show it; waits for a moved
    region's session."""
    screen = pilot.app.screen
    word = screen.document.module.offset(index)
    session = screen.editing.edit_session
    editor = screen.editing.editor
    line = session.line_of(word)
    if line is None or not editor.first_line <= line < editor.first_line + editor.document.line_count:
        await pilot.press("escape")
        screen.select(screen.document.select_word(word))
        await pilot.press("e")
        deadline = time.monotonic() + OPEN_SECONDS
        while session.partial and screen.editing.edit_session is session:
            if time.monotonic() > deadline:
                raise TimeoutError("the region did not move")
            await pilot.pause(0.01)
        await settle(pilot)
        line = screen.editing.edit_session.line_of(word)
    return line


async def type_at_instruction(pilot, index: int, column, keys: list[str]) -> None:
    """Put the cursor on instruction `index`'s line at `column(text)` (the editor opened
    or moved there first) and press `keys`, each after the one before is on screen."""
    screen = pilot.app.screen
    line = await editor_on(pilot, index)
    editor = screen.editing.editor
    editor.move_cursor((line - editor.first_line, column(screen.editing.edit_session.lines[line])))
    await pilot.pause()
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def type_at(pilot, line: int, column: int, keys: list[str]) -> None:
    """Put the editor's cursor at a line:col of the whole text (opening the editor
    there when the line is outside its window) and press `keys`, each after the one
    before is on screen."""
    screen = pilot.app.screen
    editor = screen.editing.editor
    if not editor.first_line <= line < editor.first_line + editor.document.line_count:
        await pilot.press("escape")
        word = screen.editing.edit_session.location_of_line(line)
        screen.select(screen.document.select_word(word))
        await pilot.press("e")
        await settle(pilot)
        editor = screen.editing.editor
    editor.move_cursor((line - editor.first_line, column))
    await pilot.pause()
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def verdict_line(what: str, figure: float, target: float | None, unit: str, extra: str = "") -> str:
    """One figure with its target and whether it meets it."""
    shown = f"{figure:.2f} s" if unit == "s" else f"{figure:.1f} {unit}"
    if target is None:
        return f"  {what:<38} {shown:>12}  (no target){extra}"
    goal = f"{target:g} {unit}"
    return f"  {what:<38} {shown:>12}  (target {goal}: {'ok' if figure <= target else 'OVER'}){extra}"


class Frames:
    """The frames the screen paints (its compositor's refreshes): when each went out, and
    what `probe` read of the app then. Keys are timed to the frame that shows their
    effect, not to Pilot's wait for an idle process (which also waits for the job
    thread and the index worker, and is never shorter than three 20 ms sleeps)."""

    def __init__(self, screen, probe) -> None:
        self.painted: list[tuple[float, float, object]] = []
        """When each frame went out, the UI thread's CPU time then, and the probe's value."""
        refresh = screen._compositor_refresh

        def painted() -> None:
            refresh()
            self.painted.append((time.perf_counter(), time.thread_time(), probe()))

        screen._compositor_refresh = painted

    async def wait(self, pilot, since: tuple[float, float], wanted, what: str) -> tuple[float, float]:
        """Seconds from `since` (a `send_key`) to the first frame with `wanted(probe value)`,
        and the UI thread's CPU seconds meanwhile (waits for that frame)."""
        began, cpu = since
        deadline = began + OPEN_SECONDS
        while (frame := next(((at, used) for at, used, seen in self.painted
                              if at >= began and wanted(seen)), None)) is None:
            if time.perf_counter() > deadline:
                raise TimeoutError(what)
            await asyncio.sleep(0.001)
        return frame[0] - began, frame[1] - cpu


def send_key(pilot, key: str) -> tuple[float, float]:
    """Send a key to the app as the terminal would (without waiting); returns when, and
    the UI thread's CPU time then (the bench runs on the app's thread)."""
    began = time.perf_counter(), time.thread_time()
    pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
    return began


def editor_state(screen):
    """What the frames probe: the editor's cursor and scroll when it is up and focused,
    and the selection the panes show."""
    editor = screen.editing.editor
    up = editor is not None and editor.is_mounted and editor.display and editor.has_focus
    selection = screen.selection
    return ((editor.cursor_location, editor.scroll_offset.y) if up else None,
            selection.word if selection is not None else None)


async def editable_after_e(pilot, before=None) -> tuple[float, float]:
    """Seconds from `e` to the first frame that shows the editor focused with its cursor
    on the selection's line (ready for keys), and the UI thread's CPU seconds meanwhile;
    `before`: the session `e` replaces (a region moved), if any."""
    screen = pilot.app.screen
    frames = Frames(screen, lambda: editor_state(screen))
    began = send_key(pilot, "e")
    deadline = began[0] + OPEN_SECONDS
    while editor_state(screen)[0] is None or screen.editing.edit_session in (None, before):
        if time.perf_counter() > deadline:
            raise TimeoutError("the editor did not open")
        await asyncio.sleep(0.002)
    await pilot.pause()
    cursor = screen.editing.editor.cursor_location
    return await frames.wait(pilot, began, lambda seen: seen[0] is not None and seen[0][0] == cursor,
                             "the editor was not painted")


def p95(ms: list[float]) -> float:
    ms = sorted(ms)
    return ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]


async def bench_scrolling(pilot) -> None:
    """Page down through the editor (and back up): key to the frame that shows the page,
    each, and key to the frame where the panes show its line (they follow the cursor)."""
    screen = pilot.app.screen
    editor = screen.editing.editor
    editor.move_cursor((0, 0))
    await pilot.pause()
    frames = Frames(screen, lambda: editor_state(screen))
    page, panes, cpu = [], [], []
    for key in ["pagedown"] * PAGES + ["pageup"] * PAGES:
        before = editor_state(screen)
        began = send_key(pilot, key)
        while editor_state(screen) == before:
            await asyncio.sleep(0.001)
        await pilot.pause()
        shown = editor_state(screen)
        seconds, used = await frames.wait(pilot, began, lambda seen: seen[0] == shown[0], "the page was not painted")
        page.append(seconds * 1000)
        cpu.append(used * 1000)
        panes.append((await frames.wait(pilot, began, lambda seen: seen == shown, "the panes did not follow"))[0] * 1000)
    print(verdict_line(f"scroll the editor a page (p95 of {len(page)})", p95(page), SCROLL_TARGET_MS, "ms",
                       f"  p50 {statistics.median(page):.1f} ms, max {max(page):.1f} ms (key to the page painted)"))
    print(verdict_line("  the UI thread's CPU for it (p95)", p95(cpu), None, "ms",
                       f"  p50 {statistics.median(cpu):.1f} ms (what a busy machine does not inflate)"))
    print(verdict_line("  and the panes following it (p95)", p95(panes), None, "ms",
                       f"  p50 {statistics.median(panes):.1f} ms, max {max(panes):.1f} ms"))


def _p95_line(what: str, ms: list[float], extra: str) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return verdict_line(f"{what} (p95 of {len(ms)})", p95, 250.0, "ms", f"  max {ms[-1]:.0f} ms; {extra}")


async def _typed_back_and_forth(pilot, at, keys: list[str], undo: list[str], count: int) -> tuple[list[float], str]:
    """`keys` then `undo` typed at `at()` (an instruction, or a line of the whole text),
    `count` times: key to panes (ms) of each, and how many took a whole assembly."""
    screen = pilot.app.screen
    before = len(screen.editing.edit_latencies)
    whole = 0
    for _ in range(count):
        for typed in (keys, undo):
            await at([])  # the editor there first (a region moved there is not the edit's)
            state = screen.editing.edit_session.state
            await at(typed)
            now = screen.editing.edit_session.state
            whole += now is not state and now is not None and now.full
    return [s * 1000 for s in screen.editing.edit_latencies[before:]], f"whole assemblies {whole}/{2 * count} edits"


async def bench_whole_assembly(pilot, reference: float, count: int = 3, new_id: bool = True,
                               id_only: bool = False) -> None:
    """Edits that needed the whole text's assembly before they were spliced (`editing.
    dependents`, `editing.header_comments`): a character typed into the header comments
    (a whole text) or after the extended-set import (a region), and a switch selector's
    type changed (a region), a new numeric id brought in and undone (a region); then the
    edits the region's last state cannot splice (a numeric id at the number of a name the
    user typed; a type whose constants after the region grow; an import added; a numeric
    id at 0xFFFFFFFF; a numeric id freed for a typed name), from key to panes, beside
    spirv-as on the whole text."""
    screen = pilot.app.screen
    session = screen.editing.edit_session
    same = f"spirv-as whole text {reference * 1000:.0f} ms"
    if not session.partial:
        comment = next(k for k, line in enumerate(session.lines) if line.startswith(";"))
        text = session.lines[comment]

        async def at_comment(keys):
            column = len(text) + (1 if keys == ["backspace"] else 0)
            await type_at(pilot, comment, column, keys)

        ms, whole = await _typed_back_and_forth(pilot, at_comment, ["x"], ["backspace"], count)
        print(_p95_line("header-comment edits", ms, f"{whole}; {same}"))
        return
    module = screen.document.module
    grammar = module.grammar
    importing = grammar.by_name["OpExtInstImport"].opcode
    index = next(k for k, opcode in enumerate(module.opcodes()) if opcode == importing)
    if id_only:
        await _new_numeric_id(pilot, index, same)
        await _unclosed_quote(pilot, reference)
        return
    ms, whole = await _typed_back_and_forth(
        pilot, lambda keys: type_at_instruction(pilot, index, len, keys), ["x"], ["backspace"], count)
    print(_p95_line("import-line edits", ms, f"{whole}; {same}"))
    found = _selector_load(screen.document)
    if found is not None:
        load, old_type, new_type = found

        prefix = new_type[1 : len(new_type) - len(old_type) + 1]

        def column(text):
            if " " + new_type + " " in text:  # after the typed prefix, to delete it
                return text.index(" " + new_type + " ") + 2 + len(prefix)
            return text.index(" " + old_type + " ") + 2

        ms, whole = await _typed_back_and_forth(
            pilot, lambda keys: type_at_instruction(pilot, load, column, keys), list(prefix),
            ["backspace"] * len(prefix), count)
        print(_p95_line(f"switch selector's type {old_type} -> {new_type}", ms, f"{whole}; {same}"))
    await _new_numeric_id(pilot, index, same)
    await _unclosed_quote(pilot, reference)
    if not new_id:
        return
    editor = screen.editing.editor
    original = list(screen.editing.edit_session.lines)
    int_type = _int_types(screen.document)[0]
    await edited(pilot, lambda: paste(pilot, f"\n%bench_new = OpUndef {int_type}"))
    number = screen.editing.edit_session.state.declared.numbers["%bench_new"]
    before = len(screen.editing.edit_latencies)
    # the name's number: the name is numbered past it, which the last state cannot splice
    await edited(pilot, lambda: paste(pilot, f"\n%{number} = OpUndef {int_type}"))
    while screen.editing.edit_session.lines != original and editor.history.undo_stack:
        await edited(pilot, lambda: pilot.press("ctrl+z"))
    ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
    print(verdict_line("a name, then a numeric id at its number", ms[0], reference * 1000, "ms",
                       f"  then undone {', '.join(f'{m:.0f}' for m in ms[1:])} ms; {_whole_text_made(screen)}; "
                       f"target: {same}{_rss_note()}"))
    await bench_type_width(pilot, same, reference)
    for what, text in [("an import added", '\n%bench_set = OpExtInstImport "GLSL.std.450"'),
                       ("a numeric id at 0xFFFFFFFF (its bound wraps)", f"\n%4294967295 = OpUndef {int_type}")]:
        before = len(screen.editing.edit_latencies)
        await type_at_instruction(pilot, index, len, [])
        await edited(pilot, lambda: paste(pilot, text))
        await edited(pilot, lambda: pilot.press("ctrl+z"))
        ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
        print(verdict_line(what, ms[0], reference * 1000, "ms",
                           f"  then undone {ms[-1]:.0f} ms; {_whole_text_made(screen)}; target: {same}{_rss_note()}"))
    await _freed_numeric_id(pilot, int_type, same, reference)


async def _new_numeric_id(pilot, index: int, same: str) -> None:
    """A numeric id past the bound pasted after the import (instruction `index`), then
    undone: key to panes of each."""
    screen = pilot.app.screen
    await type_at_instruction(pilot, index, len, [])
    before = len(screen.editing.edit_latencies)
    whole = []
    for edit in (lambda: paste(pilot, f"\n%4000000000 = OpUndef {_int_types(screen.document)[0]}"),
                 lambda: pilot.press("ctrl+z")):
        state = screen.editing.edit_session.state
        await edited(pilot, edit)
        now = screen.editing.edit_session.state
        whole.append(now is not state and now is not None and now.full)
    ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
    print(verdict_line("a new numeric id (then undone)", max(ms), 250.0, "ms",
                       f"  {ms[0]:.0f} ms, undone {ms[-1]:.0f} ms; whole assemblies {sum(whole)}/2; {same}{_rss_note()}"))


async def _unclosed_quote(pilot, reference: float) -> None:
    """` "ab` typed at the end of a function's instruction line (a string left open: it
    runs on into the text after the region), then deleted, each key pressed as the one
    before reaches the editor (typing on, not waiting for the panes): key to panes (or
    to the error shown) of each, beside spirv-as on the whole text."""
    screen = pilot.app.screen
    module = screen.document.module
    await type_at_instruction(pilot, module.first_function + 3, len, [])
    before = len(screen.editing.edit_latencies)
    used = time.process_time()
    for key in [" ", "quotation_mark", "a", "b", "backspace", "backspace", "backspace", "backspace"]:
        await pilot.press(key)
    await settle(pilot, OPEN_SECONDS)
    cpu = time.process_time() - used
    ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
    print(verdict_line("an unclosed quote typed in a function", max(ms), reference * 1000, "ms",
                       f"  {len(ms)} shown of 8 keys: {', '.join(f'{m:.0f}' for m in ms)} ms; the process's CPU "
                       f"{cpu:.2f} s; {_whole_text_made(screen)}; target: spirv-as whole text "
                       f"{reference * 1000:.0f} ms{_rss_note()}"))


async def bench_type_width(pilot, same: str, reference: float) -> None:
    """The module's first 32-bit signed integer type made 64 bits wide, then undone: its
    constants and switches after the region grow a word each (re-encoded from their
    words), and the type and its constants are renamed (`%int` -> `%long`)."""
    screen = pilot.app.screen
    typed = _signed_int32(screen.document.module)
    if typed is not None:  # its constants after the region grow a word each
        before = len(screen.editing.edit_latencies)
        await type_at_instruction(pilot, typed, lambda text: len(text) - len("32 1"), [])
        editor = screen.editing.editor
        row, at = editor.cursor_location
        line = editor.document.get_line(row)
        editor.selection = Selection((row, at), (row, at + 2))
        cpu = []
        for edit in (lambda: paste(pilot, "64"), lambda: pilot.press("ctrl+z")):
            used = time.process_time()
            await edited(pilot, edit)
            cpu.append((time.process_time() - used) * 1000)
        ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
        print(verdict_line(f"{line.split()[0]} 32 -> 64 bits (constants after the region)", ms[0], reference * 1000,
                           "ms", f"  then undone {ms[-1]:.0f} ms; the process's CPU (all threads, key to settled) "
                           f"{cpu[0]:.0f} ms, undone {cpu[1]:.0f} ms; {_whole_text_made(screen)}; "
                           f"target: {same}{_rss_note()}"))


async def _freed_numeric_id(pilot, int_type: str, same: str, reference: float) -> None:
    """A function's line defining a numeric id used nowhere else replaced by a name the
    user typed, then undone: the whole run numbers the name with the freed number."""
    screen = pilot.app.screen
    module = screen.document.module
    await type_at_instruction(pilot, module.first_function + 1, len, [])
    session = screen.editing.edit_session
    lines = session.lines
    uses = Counter(re.findall(r"%\w+", "\n".join(lines)))
    row = next((k for k, line in enumerate(lines)
                if (found := re.match(r"\s*(%[0-9]+) = ", line)) and uses[found.group(1)] == 1), None)
    if row is None:
        print("  (no numeric id defined and used nowhere else in the region: no freed-id row)")
        return
    before = len(screen.editing.edit_latencies)
    editor = screen.editing.editor
    at = row - editor.first_line
    editor.selection = Selection((at, 0), (at, len(lines[row])))
    await edited(pilot, lambda: paste(pilot, f"%bench_name = OpUndef {int_type}"))
    await edited(pilot, lambda: pilot.press("ctrl+z"))
    ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
    print(verdict_line("a numeric id freed, a typed name taking it", ms[0], reference * 1000, "ms",
                       f"  then undone {ms[-1]:.0f} ms; {_whole_text_made(screen)}; target: {same}{_rss_note()}"))


def _signed_int32(module) -> int | None:
    """The instruction declaring the module's first 32-bit signed integer type, if any."""
    wanted = module.grammar.by_name["OpTypeInt"].opcode
    words = module.words
    for k, opcode in enumerate(module.opcodes()):
        if opcode == wanted and words[module.offset(k) + 2 : module.offset(k) + 4].tolist() == [32, 1]:
            return k
    return None


def _whole_text_made(screen) -> str:
    """Whether the region's session made the module's whole text (`RegionSource.outside`)."""
    source = getattr(screen.editing.edit_session.assembler, "source", None)
    return "the whole text " + ("made" if getattr(source, "_outside", None) is not None else "never made")


async def edited(pilot, edit) -> None:
    """`await edit()`, then wait until the edit it makes has reached the panes."""
    count = len(pilot.app.screen.editing.edit_latencies)
    await edit()
    await shown_edits(pilot, count + 1)


async def paste(pilot, text: str) -> None:
    """`text` pasted at the editor's cursor, as the terminal sends a paste (input, as a key is)."""
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


def _int_types(document) -> list[str]:
    """The id words of the module's integer types."""
    module = document.module
    wanted = module.grammar.by_name["OpTypeInt"].opcode
    listing = Listing(module, document.names(False), DisassemblyOptions())
    end = module.first_function or module.instruction_count
    return [listing.line(k).split()[0] for k, opcode in zip(range(end), module.opcodes()) if opcode == wanted]


def _selector_load(document) -> tuple[int, str, str] | None:
    """An OpLoad in a function defining an OpSwitch's selector whose type word has a
    longer type name ending in it (`%int` and `%uint`): (its instruction, the two names)."""
    module = document.module
    grammar = module.grammar
    switch, load = grammar.by_name["OpSwitch"].opcode, grammar.by_name["OpLoad"].opcode
    listing = Listing(module, document.names(False), DisassemblyOptions())
    types = _int_types(document)
    start = module.first_function or 0
    for k, opcode in enumerate(module.opcodes(start), start):
        if opcode != switch:
            continue
        selector = listing.line(k).split()[1]
        for j in range(k - 1, max(start, k - 200), -1):
            words = listing.line(j).split()
            if words[:1] == [selector] and words[2:3] == ["OpLoad"] and module.opcode(j) == load:
                longer = [t for t in types if t != words[3] and t.endswith(words[3][1:])]
                if longer:
                    return j, words[3], longer[0]
                return None
    return None


def rss_mb() -> tuple[float, float]:
    """The process's resident set now and at its peak, in MB."""
    now = 0.0
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Traced:
    """With `--trace N`: what Python allocated (tracemalloc, by file:line) that is still
    held at each stage, the N lines grown most since the stage before."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.last: tracemalloc.Snapshot | None = None
        if top:
            tracemalloc.start()

    def stage(self) -> None:
        if not self.top:
            return
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        now, peak = tracemalloc.get_traced_memory()
        print(f"    traced now {now / 2**20:.1f} MB, peak {peak / 2**20:.1f} MB", flush=True)
        if self.last is not None:
            for stat in snapshot.compare_to(self.last, "lineno")[: self.top]:
                frame = stat.traceback[0]
                print(f"      {stat.size_diff / 2**20:+8.2f} MB  {stat.count_diff:+8,} blocks  "
                      f"({stat.size / 2**20:7.2f} MB held)  {frame.filename}:{frame.lineno}")
        self.last = snapshot
        tracemalloc.reset_peak()


TRACED = Traced(0)


def _rss_note() -> str:
    """The process's RSS now and at its peak, for a row's line."""
    now, peak = rss_mb()
    return f"; RSS now {now:.0f} MB, peak {peak:.0f} MB"


def print_stage(what: str, collect: bool = False) -> None:
    """One line of `--rss-stages`: RSS now and peak, and the objects the collector tracks;
    with `collect`, a second line after a full collection (frozen objects included) and
    the C heap trimmed (what was garbage, not live); with `--trace`, what grew."""
    now, peak = rss_mb()
    print(f"  {what:<44} RSS now {now:6.0f} MB  peak {peak:6.0f} MB  objects {len(gc.get_objects()):>10,}"
          f"  frozen {gc.get_freeze_count():>10,}", flush=True)
    if not collect:
        TRACED.stage()
    if collect:
        began = time.process_time()
        collector.collect_all()
        spent = time.process_time() - began
        memory.trim()
        print_stage(f"  then collected (all: {spent * 1000:.0f} ms CPU), trimmed")
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        documents = sum(isinstance(thing, Document) for thing in gc.get_objects())
        if frozen:
            gc.freeze()
        print(f"    Documents alive: {documents}", flush=True)


async def indexed(pilot) -> None:
    """Wait until the screen's module index is built (it is built while the user pauses)."""
    screen = pilot.app.screen
    deadline = time.monotonic() + OPEN_SECONDS
    while screen.document.search_index(screen.raw) is None:
        if time.monotonic() > deadline:
            raise TimeoutError("the module was not indexed")
        await pilot.pause(0.05)


async def bench_rss_stages(label: str, path: Path, collect: bool = False) -> None:
    """RSS at each stage of editing `path` (see the module's docstring, `--rss-stages`);
    with `collect`, also after a full collection at each stage (`--collect`)."""
    print(f"{label}: RSS by stage")
    print_stage("before the app")
    app = InspectorApp(Document(path.read_bytes(), path))  # the app's alone, as the launcher's (freed once replaced)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.pause()
        await indexed(pilot)
        print_stage("app open and indexed", collect)
        constants = places(screen.document, {"OpConstant"}, EDITS_FOR_RSS // 2, _CONSTANT)
        screen.select(screen.document.select_word(screen.document.module.offset(constants[0])))
        await pilot.pause()
        await editable_after_e(pilot)
        await settle(pilot)
        print_stage("e (the editor open)", collect)
        for done, index in enumerate(constants, 1):
            _, peak = rss_mb()
            await type_at_instruction(pilot, index, len, ["7"])
            await type_at_instruction(pilot, index, len, ["backspace"])
            now, risen = rss_mb()
            if risen - peak >= PEAK_STEP_MB:
                print(f"    the peak rose {risen - peak:.0f} MB to {risen:.0f} MB at edits {2 * done - 1}-{2 * done} "
                      f"(the region moved there; now {now:.0f} MB)", flush=True)
            if 2 * done in (10, EDITS_FOR_RSS):
                print_stage(f"{2 * done} edits", collect)
        for far in constants[len(constants) // 3 :: len(constants) // 3][:2]:
            await pilot.press("escape")
            await pilot.pause()
            await indexed(pilot)
            screen.select(screen.document.select_word(screen.document.module.offset(far)))
            await pilot.pause()
            await editable_after_e(pilot, screen.editing.edit_session)
            await settle(pilot)
            print_stage("escape, indexed, e elsewhere", collect)


async def bench_rss(pilot, label: str, constants: list[int]) -> None:
    """EDITS_FOR_RSS edits (a digit typed after constants, deleted every other time; the
    region moves to each), then RSS: the peak (`ru_maxrss`) and now, and both before the
    edits."""
    before, peak_before = rss_mb()
    for index in constants[: EDITS_FOR_RSS // 2]:
        await type_at_instruction(pilot, index, len, ["7"])
        await type_at_instruction(pilot, index, len, ["backspace"])
    now, peak = rss_mb()
    count = 2 * len(constants[: EDITS_FOR_RSS // 2])
    print(verdict_line(f"peak RSS after {count} edits", peak, RSS_TARGET_MB[label], "MB",
                       f"  (now {now:.0f} MB; before the edits now {before:.0f} MB, peak {peak_before:.0f} MB;"
                       f" the peak is the process's, earlier modules included; {gc.get_freeze_count():,} objects frozen)"))


def places(document, opcodes: set[str], count: int, pattern: re.Pattern | None = None,
           functions_only: bool = False) -> list[int]:
    """Instructions with one of `opcodes` (any when empty) whose line matches `pattern`,
    `count` of them spread evenly through the module (in its functions only, if asked)."""
    module = document.module
    wanted = {module.grammar.by_name[name].opcode for name in opcodes}
    start = module.first_function or 0 if functions_only else 0
    found = [k for k, opcode in enumerate(module.opcodes(start), start) if not wanted or opcode in wanted]
    if pattern is not None:
        listing = Listing(module, document.names(False), DisassemblyOptions())
        step = max(1, len(found) // (count * 20))
        found = [k for k in found[::step] if pattern.search(listing.line(k))]
    step = max(1, len(found) // count)
    return found[::step][:count]


def row(label: str, ms: list[float], target: float | None, reference: float, shown: int) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    verdict = "" if target is None else ("  ok" if p95 <= target else "  OVER")
    goal = f"target p95 {target:.0f} ms" if target is not None else "no target"
    return (f"  {label:<30} keys {len(ms):4} (panes took a new binary: {shown:3})  p50 {statistics.median(ms):7.1f}"
            f"  p95 {p95:7.1f}  max {ms[-1]:7.1f} ms  ({goal}{verdict}; spirv-as whole text {reference * 1000:.0f} ms)")


async def bench(label: str, path: Path, keys: int, tmp: Path, rng: random.Random, open_only: bool = False,
                whole_only: bool = False, keys_only: bool = False, new_id: bool = True, width_only: bool = False,
                id_only: bool = False) -> None:
    app = InspectorApp(Document(path.read_bytes(), path))  # the app's alone, as the launcher's (freed once replaced)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        instructions = screen.document.module.instruction_count
        opened, opened_cpu = await editable_after_e(pilot)
        first_job = time.perf_counter()
        await settle(pilot)
        first_job = time.perf_counter() - first_job
        session = screen.editing.edit_session
        kind = "a region" if session.partial else "the whole text"
        print(f"{label}: {instructions:,} instructions, {path.stat().st_size:,} bytes; "
              f"the editor holds {kind}: {screen.editing.editor.document.line_count:,} lines")
        print(verdict_line("e -> editable editor on screen", opened, OPEN_TARGET_S[label], "s",
                           f"  (right after the app opened; the UI thread's CPU {opened_cpu:.2f} s)"))
        if session.partial:
            print(verdict_line("  then its first job (tables, background)", first_job, None, "s"))
        dis = spirv_dis_seconds(path, tmp)
        reference = spirv_as_seconds(tmp / "bench-dis.spvasm", tmp)
        print(f"  spirv-dis {dis:.2f} s, spirv-as on its text {reference:.2f} s (same run)")
        if width_only:
            await bench_type_width(pilot, f"spirv-as whole text {reference * 1000:.0f} ms", reference)
            return
        if not whole_only and not keys_only:
            await bench_scrolling(pilot)
        if open_only:
            return
        constants = places(screen.document, {"OpConstant"}, max(keys, EDITS_FOR_RSS // 2), _CONSTANT)
        if session.partial and not keys_only:
            far = constants[len(constants) // 2]
            await pilot.press("escape")
            screen.select(screen.document.select_word(screen.document.module.offset(far)))
            await pilot.pause()
            moved, moved_cpu = await editable_after_e(pilot, screen.editing.edit_session)
            print(verdict_line("e elsewhere -> the region moved, editable", moved, OPEN_TARGET_S[label], "s",
                               f"  (the UI thread's CPU {moved_cpu:.2f} s)"))
            await settle(pilot)
        if not keys_only:
            await bench_whole_assembly(pilot, reference, new_id=new_id, id_only=id_only)
        if whole_only:
            return
        if not keys_only:
            await bench_rss(pilot, label, constants)
        kinds = [
            ("digit after a literal", constants[:keys], "digit"),
            ("letter in a result's name", places(screen.document, {"OpLoad"}, keys, functions_only=True), "name"),
            ("any character, anywhere", places(screen.document, set(), keys, functions_only=True), "any"),
        ]
        for name, indexes, kind in kinds:
            before = len(screen.editing.edit_latencies)
            swaps = 0
            cpu: list[float] = []
            for index in indexes:
                if kind == "digit":
                    column, key = len, rng.choice("0123456789")
                elif kind == "name":
                    column, key = (lambda text: text.index(" = Op")), rng.choice("abcxyz")
                else:
                    at = rng.random()
                    column, key = (lambda text, at=at: int(at * len(text))), rng.choice("0123456789abcxyz%=,;")
                document = screen.document
                await type_at_instruction(pilot, index, column, [])
                used = time.process_time()
                await type_at_instruction(pilot, index, column, [key])
                cpu.append(time.process_time() - used)
                swaps += screen.document is not document
                used = time.process_time()
                await pilot.press("backspace")
                await settle(pilot)
                cpu.append(time.process_time() - used)
            ms = [s * 1000 for s in screen.editing.edit_latencies[before:]]
            print(row(name, ms, TARGETS_MS[label] if kind != "any" else None, reference, swaps))
            print(f"  {'':<30} the process's CPU a key (all threads, key to settled): p50 "
                  f"{statistics.median(cpu) * 1000:.1f}  p95 {p95([c * 1000 for c in cpu]):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=20, help="places typed at per kind (two keystrokes each)")
    parser.add_argument("--no-large", action="store_true", help="skip the large module")
    parser.add_argument("--only-large", action="store_true", help="skip the 5,000-line module (a clean RSS peak)")
    parser.add_argument("--whole-only", action="store_true",
                        help="only `e` and the edits that need (or needed) a whole assembly")
    parser.add_argument("--keys-only", action="store_true",
                        help="only the keystroke rows (digit, name, any character), beside spirv-as")
    parser.add_argument("--open-only", action="store_true",
                        help="only opening the editor and scrolling it (not the edits, RSS and the e elsewhere)")
    parser.add_argument("--no-new-id", action="store_true",
                        help="leave out the edits past the new numeric id (the region re-assembled, the whole text: the RSS peak)")
    parser.add_argument("--id-only", action="store_true",
                        help="with --whole-only: only the new numeric id and the unclosed quote rows")
    parser.add_argument("--width-only", action="store_true",
                        help="only `e` and the `32 -> 64` row (a type's width changed, then undone)")
    parser.add_argument("--rss-stages", action="store_true",
                        help="only the RSS at each stage (open, e, 10 and 100 edits, e elsewhere)")
    parser.add_argument("--collect", action="store_true",
                        help="with --rss-stages: also the RSS after a full collection and trim at each stage")
    parser.add_argument("--never-idle", action="store_true",
                        help="with --rss-stages: the app never sees the user pause (no idle collection nor freeze)")
    parser.add_argument("--trace", type=int, default=0, metavar="N",
                        help="with --rss-stages: the N file:lines whose live allocations grew most at each stage "
                             "(tracemalloc: slow)")
    args = parser.parse_args()
    global TRACED
    TRACED = Traced(args.trace if args.rss_stages else 0)
    if args.rss_stages and args.never_idle:
        import spvinspect.app

        spvinspect.app.IDLE_AFTER = 1e9
    rng = random.Random(4)
    print("keystroke -> panes painted with the new binary, in the app (headless, 120x40); "
          "shared machine: compare within a run")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if args.rss_stages:
            if not args.only_large:
                asyncio.run(bench_rss_stages("5,000 lines", editor_module(tmp), args.collect))
            if not args.no_large:
                asyncio.run(bench_rss_stages("large module", build_large_module(), args.collect))
            return
        if not args.only_large:
            asyncio.run(bench("5,000 lines", editor_module(tmp), args.keys, tmp, rng, args.open_only, args.whole_only,
                              args.keys_only, not args.no_new_id, args.width_only, args.id_only))
        if not args.no_large:
            asyncio.run(bench("large module", build_large_module(), args.keys, tmp, rng, args.open_only,
                              args.whole_only, args.keys_only, not args.no_new_id, args.width_only, args.id_only))


if __name__ == "__main__":
    main()
