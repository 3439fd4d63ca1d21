"""Lima mode's image pane: every fragment of the grid run (in a worker, with progress)
drawn by `FragmentImage`; choosing a pixel makes its fragment the stepped one."""

from __future__ import annotations

import json

from textual import on, work
from textual.worker import get_current_worker

from spvinspect.execution import Execution
from spvinspect.lima.emulator import EmulationError, InputError, run_grid
from spvinspect.screens.panes import BuiltPane
from spvinspect.screens.run_keys import RunFollower
from spvinspect.widgets.fragment_image import FragmentImage


class LimaImage(BuiltPane, RunFollower, FragmentImage):
    """What the program draws over the grid, with the stepped fragment's pixel chosen."""

    DEFAULT_CSS = """
    LimaImage { border: round $panel; height: 1fr; min-height: 6; }
    LimaImage:focus { border: round $accent; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Image"
        self._drawn: str | None = None
        """The program, inputs and grid the image shows (as JSON), to know when to draw again."""

    @property
    def execution(self) -> Execution | None:
        return getattr(self.screen, "execution", None)

    def on_show(self) -> None:
        self.redraw_if_needed()

    def run_changed(self, execution: Execution) -> None:
        if self.display:
            self.redraw_if_needed()

    def redraw_if_needed(self) -> None:
        """Run the grid again when the inputs or the grid changed since the last drawing."""
        execution = self.execution
        if execution is None or execution.settings is None:
            return
        settings = execution.settings
        key = json.dumps([id(settings.program), settings.data, settings.grid], sort_keys=True, default=str)
        if key == self._drawn:
            return
        self._drawn = key
        self.chosen = settings.fragment
        self.cursor = settings.fragment
        self.progress = f"running the {settings.grid[0]}×{settings.grid[1]} grid…"
        self._run_grid(settings.program, settings.data, settings.symbols, settings.grid)

    @work(thread=True, exclusive=True, group="lima-grid")
    def _run_grid(self, program, data, symbols, grid) -> None:
        worker = get_current_worker()
        from spvinspect.lima.emulator import parse_inputs

        def progress(executed: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(setattr, self, "progress", f"running the {grid[0]}×{grid[1]} grid: {executed} instructions")

        try:
            result = run_grid(program, parse_inputs(data, symbols), grid, progress)
        except (EmulationError, InputError) as error:
            if not worker.is_cancelled:
                self.app.call_from_thread(setattr, self, "progress", f"cannot draw: {error}")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._drawn_grid, result)

    def _drawn_grid(self, result) -> None:
        self.progress = ""
        self.show_image(result.colors, result.discarded)

    @on(FragmentImage.Chosen)
    def _chosen(self, message: FragmentImage.Chosen) -> None:
        message.stop()
        execution = self.execution
        if execution is None or execution.settings is None:
            return
        execution.settings.fragment = (message.x, message.y)
        restart = getattr(self.screen, "restart_run", None)
        if restart is not None:
            restart()
