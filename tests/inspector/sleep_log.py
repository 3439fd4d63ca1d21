"""With SPVINSPECT_SLEEP_LOG=FILE, append each test's requested sleep seconds to FILE: the
delays the tests pass to `pilot.pause`, `asyncio.sleep` and `time.sleep` (the app's own
timers not counted). What a test waits on the clock, whatever the machine's load."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import pytest
from textual.pilot import Pilot

_requested = [0.0]
_TESTS = os.sep + "tests" + os.sep


def _from_a_test(depth: int = 2) -> bool:
    """Whether the caller's caller is the tests' code (not Textual's, nor the app's)."""
    return _TESTS in sys._getframe(depth).f_code.co_filename


_pause = Pilot.pause
_asyncio_sleep = asyncio.sleep
_time_sleep = time.sleep


async def _counted_pause(self, delay=None):
    _requested[0] += delay or 0.0
    return await _pause(self, delay)


async def _counted_asyncio_sleep(delay, *args, **kwargs):
    if _from_a_test():
        _requested[0] += delay
    return await _asyncio_sleep(delay, *args, **kwargs)


def _counted_time_sleep(delay):
    if _from_a_test():
        _requested[0] += delay
    return _time_sleep(delay)


Pilot.pause = _counted_pause
asyncio.sleep = _counted_asyncio_sleep
time.sleep = _counted_time_sleep


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Sum the test's requested sleeps and append them, with its id, to the log."""
    _requested[0] = 0.0
    try:
        return (yield)
    finally:
        with open(os.environ["SPVINSPECT_SLEEP_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{_requested[0]:.3f}\t{item.nodeid}\n")
