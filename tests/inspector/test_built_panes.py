"""Panes a format builds from their spec (`PaneSpec.factory`): both screens lay them out,
show them by name, and tell them every new selection."""

from __future__ import annotations

from textual.widgets import Static

from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.formats.lima_panes import LIMA_PANES
from spvinspect.formats.panes import PaneSpec
from spvinspect.formats.spirv_panes import SPIRV_PANES
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.screens.panes import BuiltPane

from inspector_apps import make_app
from lima_apps import launched, program_words, to_bytes


class Probe(BuiltPane, Static):
    """Shows the instruction of the last selection it was told."""

    can_focus = True

    def follow_selection(self, selection) -> None:
        self.update(f"instruction {selection.instruction}")


PROBE = PaneSpec("probe", "Probe", "What the screen told it.", factory=lambda screen: Probe(""), column="main")


async def test_a_built_pane_starts_hidden_shows_by_name_and_follows_the_selection(monkeypatch) -> None:
    monkeypatch.setattr(Document, "PANES", (*SPIRV_PANES, PROBE))
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        probe = app.screen.query_one("#probe", Probe)
        assert not probe.display
        app.screen.action_pane("probe")
        await pilot.pause()
        assert probe.display and app.focused is probe
        await pilot.press("2", "j", "j")
        await pilot.pause()
        assert str(probe.render()) == f"instruction {app.screen.selection.instruction}"


async def test_a_built_pane_follows_the_lima_selection(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(LimaDocument, "PANES", (*LIMA_PANES, PROBE))
    app = launched(monkeypatch, tmp_path, to_bytes(program_words()), "--lima", name="code.bin")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n", "n")
        await pilot.pause()
        probe = app.screen.query_one("#probe", Probe)
        assert str(probe.render()) == f"instruction {app.screen.selection.instruction}"
        assert app.screen.selection.instruction == 2
