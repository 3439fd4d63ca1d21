"""Memory stays bounded while editing: what an edit replaces (the document, the strips
drawn for it and their caches, the index being built for it) is freed while the editor stays open, at the latest by
the collection of an idle moment, not kept out of the collector's reach (frozen) until
the editor closes; and no key waits for a full collection: those (and the collection
before a freeze) wait for the user to pause (`spvinspect.responsive.collector`)."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from textual import events

from spvinspect import app as app_module
from spvinspect.responsive import collector
from spvinspect.screens import module_indexing
from edit_pilot import open_editor, opened_from, settled
from waiting import until


class IndexWaitingForAPause:
    """The index worker's pace while the user never pauses: it waits until cancelled
    (as on a big module indexed while the user types)."""

    def __init__(self, last_input, cancelled) -> None:
        self._cancelled = cancelled

    def __call__(self) -> bool:
        while not self._cancelled():
            time.sleep(0.005)
        return False


async def test_edits_leave_no_garbage_out_of_the_collectors_reach(monkeypatch, tmp_path, example_bytes):
    monkeypatch.setattr(collector, "FULL_AFTER", 0)  # the idle moment's collection is due …
    monkeypatch.setattr(app_module, "IDLE_AFTER", 1e9)  # … but the user never pauses: the test calls it
    monkeypatch.setattr(module_indexing, "Pace", IndexWaitingForAPause)
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot, r"= OpConstant %float \d")
        screen = app.screen
        documents = [weakref.ref(screen.document)]  # the opened one, its index not built yet
        full_on_keys = []

        def note_full(phase: str, info: dict) -> None:
            if phase == "start" and info["generation"] == 2 and threading.current_thread() is threading.main_thread():
                full_on_keys.append(info)

        gc.callbacks.append(note_full)
        try:
            for key in ["5", "backspace", "6", "backspace", "7", "backspace"]:
                await pilot.press(key)
                await settled(pilot)
                documents.append(weakref.ref(screen.document))
        finally:
            gc.callbacks.remove(note_full)
        assert not full_on_keys, f"{len(full_on_keys)} full collections while the user was at the keys"
        alive = sum(ref() is not None for ref in documents)
        assert alive == 1, f"{alive} of the documents shown are still alive"
        assert app._collections.collect_if_idle()
        assert gc.get_freeze_count() > 0  # the editor's tables are out of the collector
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            trapped = len(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.freeze()
        assert trapped == 0, f"{trapped} objects were garbage but frozen"


def test_launching_keeps_no_other_hold_on_the_opened_document(monkeypatch, tmp_path, example_bytes):
    # Once an edit replaces the opened document (the app lets go of it), nothing else may
    # keep it, and its whole-module index, alive for as long as the app runs.
    from spvinspect import launch
    from spvinspect.app import InspectorApp

    freed = []

    def run(app) -> None:
        opened = weakref.ref(app.document)
        app._opened = None  # as if the screen had swapped an edited document in
        gc.collect()
        freed.append(opened() is None)

    monkeypatch.setattr(InspectorApp, "run", run)
    path = tmp_path / "module.spv"
    path.write_bytes(example_bytes)
    assert launch.run_app(path.read_bytes(), str(path), None, None, False, None) == 0
    assert freed == [True], "the launcher keeps the opened document while the app runs"


async def test_a_paste_is_the_user_at_the_keys(monkeypatch, tmp_path, example_bytes):
    """A pasted line is input as a key is: the idle moment's full collection does not
    land on the edit it makes (it did, 0.5 s on a large module)."""
    monkeypatch.setattr(collector, "FULL_AFTER", 0)  # a full collection is due
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        full = []

        def note_full(phase: str, info: dict) -> None:
            if phase == "start" and info["generation"] == 2:
                full.append(info)

        app.last_input = 0.0
        app.post_message(events.Paste("5"))
        await pilot.pause()
        gc.callbacks.append(note_full)
        try:
            app._collect_when_idle()
        finally:
            gc.callbacks.remove(note_full)
        assert not full, "a full collection ran right after the paste"


def reachable(root, kind: type) -> list:
    """The objects of `kind` reachable from `root` by references (modules, classes and
    functions not followed: what an object holds, not what its code can reach)."""
    import types

    seen, stack, found = {id(root)}, [root], []
    while stack:
        thing = stack.pop()
        if isinstance(thing, kind):
            found.append(thing)
        for referent in gc.get_referents(thing):
            if id(referent) in seen or isinstance(referent, (type, types.ModuleType, types.FunctionType)):
                continue
            seen.add(id(referent))
            stack.append(referent)
    return found


def test_validator_messages_keep_no_opened_module(monkeypatch, example_bytes):
    """Placing spirv-val's messages at their lines opens the binary once per verdict and
    keeps no module of it (a whole module and its index: 20 MB on a large one)."""
    from spvinspect.codec.binary.lazy import LazyModule
    from spvinspect.editing import spirv_assembler
    from spvinspect.editing.spirv_assembler import open_spirv_session
    from spvinspect.editing.validation import Validation, ValidatorMessage
    from spvinspect.codec.diagnostics import Severity

    session = open_spirv_session(example_bytes)
    job = session.request()
    session.accept(job.run())
    opened = []
    real_open = spirv_assembler.open_module
    monkeypatch.setattr(spirv_assembler, "open_module", lambda data: opened.append(1) or real_open(data))
    verdict = session.validation_job()
    assert session.accept_validation(verdict, Validation([ValidatorMessage(Severity.ERROR, "bad", 3)]))
    placed = [m for m in session.messages() if m.diagnostic.message == "spirv-val: bad"]
    assert placed and session.lines[placed[0].line].strip() and session.messages() == session.messages()
    assert len(opened) == 1, f"the binary was opened {len(opened)} times for one verdict"
    assert not reachable(session, LazyModule), "the session keeps an opened module"


async def test_a_moved_region_frees_the_session_it_leaves_at_once(monkeypatch, tmp_path, example_bytes):
    """`e` elsewhere on a big module replaces the region's session: the one left (its
    module, texts and assembly states: tens of MB on a large module) is freed then, by
    reference counting, not kept in a cycle until the collection of an idle moment
    (which never comes while the user types: RSS grew a region move after another)."""
    from spvinspect.editing import region_assembler

    monkeypatch.setattr(region_assembler, "REGION_FROM_BYTES", 0)
    monkeypatch.setattr(app_module, "IDLE_AFTER", 1e9)
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await open_editor(pilot, r"= OpConstant %float \d")  # the global section's region
        left = weakref.ref(screen.editing.edit_session)
        left_module = weakref.ref(left().assembler.source.module)
        await pilot.press("5")
        await settled(pilot)
        assert screen.document.module is not left_module() and screen.editing.unsaved
        cfg = screen.query_one("#cfg")
        await until(pilot, lambda: cfg.graphs.module is screen.document.module, "the CFG pane took the edit")
        gc.disable()
        try:
            await pilot.press("escape", "]", "]", "e")
            await settled(pilot)
            assert screen.editing.edit_session is not left()
            assert left() is None, "the session left is kept until a collection"
            assert left_module() is None, "the module the region left was opened on is kept"
        finally:
            gc.enable()


def test_the_job_thread_lets_go_of_a_job_once_done():
    """The job thread, waiting for the next job, holds nothing of the last one (an edit's
    job holds its base state and module: tens of MB on a large module)."""
    from spvinspect.responsive.jobs import JobThread

    class Held:
        pass

    held = Held()
    freed = threading.Event()
    ran = threading.Event()
    weakref.finalize(held, freed.set)
    jobs = JobThread("test-jobs", lambda error: None)
    jobs.submit(lambda held=held: ran.set())
    del held
    try:
        assert ran.wait(10)
        assert freed.wait(10), "the job thread keeps the last job while it waits"
    finally:
        jobs.stop()
