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
        probe = app.screen.pane("probe")  # built on asking, hidden
        assert isinstance(probe, Probe) and not probe.display
        await app.screen.action_pane("probe")
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
        probe = app.screen.pane("probe")  # built on asking, hidden
        await pilot.press("n", "n")
        await pilot.pause()
        assert str(probe.render()) == f"instruction {app.screen.selection.instruction}"
        assert app.screen.selection.instruction == 2


async def test_hidden_panes_are_built_when_first_shown_and_show_the_current_selection() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        hidden = [spec for spec in SPIRV_PANES if spec.starts_hidden]
        assert hidden and not [spec.name for spec in hidden if screen.query(spec.query)]
        await pilot.press("j", "j", "j")  # the selection moves while the panes are not built
        await pilot.press("6")
        await pilot.pause()
        table = screen.query_one("#words")
        opname = screen.document.module.instruction(screen.selection.instruction).opname
        assert table.display and table.has_focus and opname in str(table.border_title)
        assert f"({opname})" in " ".join(str(cell) for cell in table.get_row_at(0))
        # In its place in its column (after the panes placed before it), the only one built.
        assert [child.id for child in table.parent.children] == ["list", "diagnostics", "cfg-box", "words"]
        assert [spec.name for spec in hidden if screen.query(spec.query)] == ["words"]
        await pilot.press("j")
        await pilot.pause()
        opname = screen.document.module.instruction(screen.selection.instruction).opname
        assert opname in str(table.border_title)
