"""Fixtures shared by the whole suite."""

from __future__ import annotations

import gc
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# corpus_files lives in oracle, a module only one file is named after (three are named
# `conftest`); it is re-exported here for the tests that import it from conftest.
from oracle import corpus_dir, corpus_files  # noqa: E402, F401
from shared_css import install as share_parsed_css  # noqa: E402

share_parsed_css()

# Property tests check behaviour, never speed: on a shared machine, or with a worker per
# core under pytest-xdist, one example can take seconds, and Hypothesis's default 200 ms
# deadline and slow-generation health check would fail tests that are correct.
# Derandomized: the same examples on every run, so a run fails or passes as the code does,
# never as the random draw does (a property's new counterexample is then a test of its own).
settings.register_profile(
    "spvinspect", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("spvinspect")


LONG_FIRST = ("tests/packaging/", "tests/test_fuzz_slice.py", "tests/inspector/test_broken_modules.py",
              "tests/inspector/test_edit_session.py", "tests/codec/test_assembler_quick_paths.py",
              "tests/codec/test_assembler_corpus.py", "tests/inspector/test_theme_contrast.py")
"""Files whose tests take longest (pip builds, the fuzz campaign, long walks): run first, so
that the parallel workers do not end waiting on one of them."""


COMPILED_FOLDERS = ("inspector", "codec", "lima", "themes", "benchmarks")
"""The project's sources, compiled once before the workers start."""


YOUNG_THRESHOLD = 50_000
"""Allocations between two young collections in a process running tests (Python's default
is 700): the suite allocates millions of short-lived objects (Textual's renders, decoded
corpora) and the collector's walks of them cost about a tenth of its CPU. The middle and
old thresholds stay as they are (the app's own collection pacing manages those)."""


END_COLLECTIONS = 1
"""Full garbage collections pytest makes when a process's session ends, so that an object
whose finalizer raises is reported (its default is 5, for garbage that only the next
collection frees). Each walks the whole heap, ~0.25 s in a worker that ran its share of
the suite; what a test left unreported in its own garbage the first one finds."""


def pytest_configure(config) -> None:
    """Collect young garbage less often in a process that runs tests, and all of it once
    at the end; write the sources' bytecode once, in the process that starts the workers:
    with PYTHONDONTWRITEBYTECODE set no import writes it, and every worker and every
    `spvinspect` the tests start would compile the whole package again (and every worker
    the test helpers, and rewrite every test module's asserts)."""
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    _collect_once_at_the_end(config)
    os.fsync = fsync_checked_only
    if hasattr(config, "workerinput"):
        return
    import compileall

    root = Path(__file__).resolve().parent.parent
    for folder in COMPILED_FOLDERS:
        compileall.compile_dir(root / folder, quiet=1)
    compileall.compile_dir(root / "tests", quiet=1, rx=REWRITTEN)
    _rewrite_tests_once(config, root / "tests")


def _collect_once_at_the_end(config) -> None:
    """pytest's end-of-session collections, END_COLLECTIONS of them; a pytest without
    the setting keeps its own number."""
    try:
        from _pytest.unraisableexception import gc_collect_iterations_key
    except ImportError:
        return
    config.stash[gc_collect_iterations_key] = END_COLLECTIONS


def fsync_checked_only(fd: int) -> None:
    """`os.fsync` in a process running tests: the descriptor is checked (a closed or bad
    one raises as fsync would) but nothing waits for the disk. A sync only matters after
    a power cut, which no test makes; each one waited milliseconds to tens of them on a
    busy disk, and saving the corpus round trips synced thousands of files. A test that
    makes fsync fail still patches it over this."""
    os.fstat(fd)


REWRITTEN = re.compile(r"(^|[/\\])(test_[^/\\]*|conftest)\.py$")
"""The files pytest rewrites the asserts of (test modules, conftests): not byte-compiled plainly."""


def _rewrite_tests_once(config, tests: Path) -> None:
    """Write the assert-rewritten bytecode (pytest's own cache files) of the test modules and
    of the plugins pytest rewrites (Hypothesis, syrupy...) once, before the workers start:
    with PYTHONDONTWRITEBYTECODE set pytest never writes them, and every worker would parse
    and rewrite all of them again (~4 s CPU each). A pytest whose internals differ, or
    `--assert=plain`, just leaves the workers to rewrite as before."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL, AssertionRewritingHook, _read_pyc, _rewrite_test, _write_pyc, assertstate_key,
            get_cache_dir,
        )
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return
    plugins = [Path(module.__file__) for module in list(sys.modules.values())
               if isinstance(getattr(module, "__loader__", None), AssertionRewritingHook)
               and getattr(module, "__file__", None)]
    tests = [source for source in sorted(tests.rglob("*.py")) if REWRITTEN.search(str(source))]
    for source in plugins + tests:
        folder = get_cache_dir(source)
        pyc = folder / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None:
            continue
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            continue
        source_stat, code = _rewrite_test(source, config)
        _write_pyc(state, code, source_stat, pyc)


def pytest_collection_modifyitems(config, items) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))


def pytest_xdist_auto_num_workers(config) -> int:
    """Two workers more than the cores (`-n auto`): the Pilot tests wait on the event loop
    (timers, idle callbacks) for part of their time, which the extra workers fill."""
    return (os.cpu_count() or 1) + 2


@pytest.fixture(autouse=True)
def notices_kept(monkeypatch) -> None:
    """A notice stays in `app._notifications` for the whole test: Textual drops one once
    its timeout has passed, which on a busy machine can come before the test reads it."""
    from textual.notifications import Notification

    monkeypatch.setattr(Notification, "has_expired", property(lambda notification: False))


@pytest.fixture
def corpus() -> Path:
    """The corpus root; skips the test with a message when it is not configured."""
    root = corpus_dir()
    if root is None:
        pytest.skip("SPVINSPECT_CORPUS is not set: corpus tests skipped")
    return root


@pytest.fixture
def spv_modules(corpus) -> list[Path]:
    """The corpus's SPIR-V modules (`spv/`), sorted; none there fails the test."""
    files = corpus_files("spv")
    assert files
    return files


if os.environ.get("SPVINSPECT_CPU_LOG"):
    _started: list[bool] = []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        """With SPVINSPECT_CPU_LOG=FILE, append each test's CPU seconds (its process and
        the children it waited for) to FILE: where the suite's time goes. Further columns:
        the children's share, the worker, and the wall clock at its end (the workers'
        balance); a process's first line is its CPU before its first test (`<start>`:
        imports, collection)."""
        before = os.times()
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        if not _started:
            _started.append(True)
            _cpu_log(sum(before[:4]), "<start>", before[2] + before[3], worker)
        try:
            return (yield)
        finally:
            after = os.times()
            children = after[2] + after[3] - before[2] - before[3]
            _cpu_log(sum(after[:4]) - sum(before[:4]), item.nodeid, children, worker)

    def _cpu_log(cpu: float, what: str, children: float, worker: str) -> None:
        import time

        with open(os.environ["SPVINSPECT_CPU_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{cpu:.2f}\t{what}\t{children:.2f}\t{worker}\t{time.time():.2f}\n")
