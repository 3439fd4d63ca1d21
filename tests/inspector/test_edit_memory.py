"""Memory stays bounded while editing: what an edit replaces (the document, the strips
drawn for it and their caches) is freed while the editor stays open, at the latest by
the collection of an idle moment, not kept out of the collector's reach (frozen) until
the editor closes (`spvinspect.responsive.collector`)."""

from __future__ import annotations

import gc
import weakref

from spvinspect.responsive import collector
from edit_pilot import open_editor, opened_from, settled


async def test_edits_leave_no_garbage_out_of_the_collectors_reach(monkeypatch, tmp_path, example_bytes):
    monkeypatch.setattr(collector, "FULL_AFTER", 0)  # the idle moment's collection is due
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot, r"= OpConstant %float \d")
        screen = app.screen
        documents = []
        for key in ["5", "backspace", "6", "backspace", "7", "backspace"]:
            await pilot.press(key)
            await settled(pilot)
            documents.append(weakref.ref(screen.document))
        alive = sum(ref() is not None for ref in documents)
        assert alive == 1, f"{alive} of the edits' documents are still alive"
        assert gc.get_freeze_count() > 0  # the editor's tables are out of the collector
        assert app._collections.collect_if_idle()
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
