"""Background work gives way to the keys: paced workers, full collections while the
user is idle, and a CFG graph build that stops when its worker is cancelled."""

from __future__ import annotations

import gc
import threading
import time

from spvinspect.responsive import collector, memory, pacing
from spvinspect.responsive.collector import FULL_AFTER, IdleCollections
from spvinspect.responsive.jobs import JobThread
from spvinspect.responsive.pacing import Pace, user_active

from cfg_functions import NESTED_LOOPS, graphs_of, main_id


def test_pace_rests_while_the_user_is_at_the_keys(monkeypatch):
    monkeypatch.setattr(pacing, "QUIET_AFTER_INPUT", 0.05)
    monkeypatch.setattr(pacing, "REST", 0.002)
    typed = time.monotonic()
    pace = Pace(lambda: typed, lambda: False)
    assert pace()
    assert time.monotonic() - typed >= 0.05, "went on only once the keys had paused"
    started = time.monotonic()
    assert pace(), "an idle user: on at once"
    assert time.monotonic() - started < 0.05


def test_pace_rests_after_each_slice_of_work(monkeypatch):
    monkeypatch.setattr(pacing, "WORK_SLICE", 0.0)
    slept = []
    monkeypatch.setattr(pacing.time, "sleep", slept.append)
    pace = Pace(lambda: 0.0, lambda: False)
    assert pace() and pace()
    assert slept == [pacing.REST, pacing.REST]


def test_pace_says_stop_once_cancelled():
    cancelled = threading.Event()
    pace = Pace(lambda: 0.0, cancelled.is_set)
    assert pace()
    cancelled.set()
    assert not pace()


def test_user_active_counts_the_quiet_time():
    assert user_active(time.monotonic())
    assert not user_active(time.monotonic() - pacing.QUIET_AFTER_INPUT - 1)


def test_full_collections_wait_for_the_idle_call():
    before = gc.get_threshold()
    collections = IdleCollections()
    collections.start()
    try:
        assert gc.get_threshold()[2] > 1_000_000, "no full collection of the collector's own"
        assert not collections.collect_if_idle(), "nothing piled up yet"
        full = gc.get_stats()[2]["collections"]
        for _ in range(FULL_AFTER):
            gc.collect(1)
        assert gc.get_stats()[2]["collections"] == full
        assert collections.collect_if_idle()
        assert gc.get_stats()[2]["collections"] == full + 1
        assert not collections.collect_if_idle(), "due again only after more has piled up"
    finally:
        collections.stop()
    assert gc.get_threshold() == before


def test_a_freeze_asked_for_while_the_app_runs_waits_for_the_idle_call(monkeypatch):
    monkeypatch.setattr(collector, "_holders", set())  # no other test's
    collections = IdleCollections()
    collections.start()
    holder = object()
    try:
        gc.unfreeze()
        collector.keep_out(holder)
        assert gc.get_freeze_count() == 0, "no collection nor freeze on the asking thread"
        assert collections.freeze_if_due()
        assert gc.get_freeze_count() > 0
        assert not collections.freeze_if_due(), "done once"
    finally:
        collections.stop()
        collector.let_in(holder)
    assert gc.get_freeze_count() == 0


def test_the_job_thread_gives_memory_back_once_its_jobs_are_done(monkeypatch):
    trims = []
    monkeypatch.setattr(memory, "trim", lambda: trims.append(len(ran)))
    ran = []
    submitted = threading.Event()
    done = threading.Event()
    jobs = JobThread("test-jobs", lambda error: None)
    jobs.submit(lambda: submitted.wait(10) and ran.append(1))
    jobs.submit(lambda: ran.append(2))
    jobs.submit(lambda: ran.append(3) or done.set())
    submitted.set()
    assert done.wait(10)
    deadline = time.monotonic() + 10
    while not trims and time.monotonic() < deadline:
        time.sleep(0.01)
    jobs.stop()
    assert trims == [3], "once, after the last job queued"


def test_a_paced_graph_build_stops_when_told_and_keeps_nothing():
    graphs = graphs_of(NESTED_LOOPS)
    function_id = main_id(graphs)
    assert graphs.function(function_id, pace=lambda: False) is None
    assert not graphs.has_graph(function_id)
    calls = []
    graph = graphs.function(function_id, pace=lambda: calls.append(1) or True)
    assert graph is not None and graphs.has_graph(function_id) and calls


def test_the_ui_thread_does_not_wait_for_a_graph_being_built():
    graphs = graphs_of(NESTED_LOOPS)
    function_id = main_id(graphs)
    building = threading.Event()
    release = threading.Event()

    def held_pace() -> bool:
        building.set()
        return release.wait(10)

    worker = threading.Thread(target=graphs.function, args=(function_id, held_pace))
    worker.start()
    try:
        assert building.wait(10)
        assert graphs.function(function_id, wait=False) is None
    finally:
        release.set()
        worker.join()
    assert graphs.function(function_id, wait=False) is not None
