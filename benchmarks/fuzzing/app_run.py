"""Driving the app through Pilot with one input and one key sequence, as a user would at
a terminal of a random size, and telling what went wrong: an exception that ended the
app, a worker's failure (told in a notice, but a bug all the same), an error notice that
says it is a bug, or a hang (the keys not done within the time limit)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import tempfile
import traceback
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.fuzzing.app_inputs import AppInput
from benchmarks.fuzzing.outcome import exception_signature

SIZES = ((80, 24), (100, 30), (120, 40), (160, 50))
"""Terminal sizes a run picks from."""
BUG_WORDS = ("a bug in spvinspect", "re-assembly failed")
"""Words of an error notice that tell of a bug rather than of the user's input."""


@dataclass
class AppOutcome:
    """What one run did."""

    keys: int = 0
    """Keys (steps) pressed before the end."""
    findings: list[tuple[str, str]] = field(default_factory=list)
    """(category, signature) of each problem: exception, worker, notice or hang."""
    detail: str = ""


def _app(item: AppInput, path: Path):
    from spvinspect.app import InspectorApp
    from spvinspect.document import Document, looks_like_spirv
    from spvinspect.lima_document import LimaDocument

    if item.lima or not looks_like_spirv(item.data):  # as `spvinspect --lima FILE` opens it
        return InspectorApp(LimaDocument(item.data, str(path)), theme="spvinspect-dark")
    return InspectorApp(Document(item.data, path), theme="spvinspect-dark")


async def _press(pilot, folder: Path, step) -> None:
    if isinstance(step, str):
        await pilot.press(step)
        return
    what, text = step
    if what == "type":
        await pilot.press(*text)
        return
    await pilot.press("f12")
    await pilot.pause()
    from textual.widgets import Input

    fields = pilot.app.screen.query(Input)
    if fields:
        fields.first().value = str(folder / text)
        await pilot.press("enter")


async def _run(item: AppInput, steps, size, folder: Path, outcome: AppOutcome) -> None:
    path = folder / item.name
    path.write_bytes(item.data)
    app = _app(item, path)
    async with app.run_test(size=size) as pilot:
        for step in steps:
            if app.return_code is not None:
                break
            await _press(pilot, folder, step)
            outcome.keys += 1
        await pilot.pause()
    for failure in getattr(app, "worker_failures", []):
        outcome.findings.append(("worker", exception_signature(failure.error)))
    for notice in app._notifications:
        text = str(notice.message)
        if notice.severity == "error" and any(word in text for word in BUG_WORDS):
            outcome.findings.append(("notice", text.split(";")[0][:120]))


class _Stuck(BaseException):
    """The event loop itself did not come back (a handler looping forever)."""


HARD_LIMIT = 60
"""Seconds past the time limit after which an alarm interrupts a handler that never returns."""


def _alarm(_signal, _frame):
    raise _Stuck


def drive(item: AppInput, steps, size, timeout: float) -> AppOutcome:
    """Open `item` in the app at `size`, press `steps`; never raises. A run whose keys are
    not done within `timeout` hangs; so does one whose event loop is stuck in a handler
    (caught by an alarm, in the main thread where no other alarm is set)."""
    outcome = AppOutcome()
    working = os.getcwd()
    opened = webbrowser.open
    webbrowser.open = lambda *args, **kwargs: False  # `o` must not start a browser
    alarmed = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGALRM) in (
        signal.SIG_DFL, None)
    if alarmed:
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(int(timeout) + HARD_LIMIT)
    try:
        with tempfile.TemporaryDirectory(prefix="spvinspect-fuzz-app-") as folder:
            # A name typed into "save as" is relative to the working folder: the run's own.
            os.chdir(folder)
            asyncio.run(asyncio.wait_for(_run(item, steps, size, Path(folder), outcome), timeout))
    except (asyncio.TimeoutError, TimeoutError):
        outcome.findings.append(("hang", f"keys not done in {timeout:.0f} s (after {outcome.keys})"))
    except _Stuck:
        outcome.findings.append(("hang", f"event loop stuck for {timeout + HARD_LIMIT:.0f} s (after {outcome.keys})"))
        outcome.detail = traceback.format_exc(limit=-12)
    except Exception as error:  # noqa: BLE001 - every exception is a finding
        outcome.findings.append(("exception", exception_signature(error)))
        outcome.detail = traceback.format_exc(limit=-12)
    finally:
        os.chdir(working)
        if alarmed:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        webbrowser.open = opened
    return outcome
