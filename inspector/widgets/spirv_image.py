"""The image pane of a SPIR-V fragment shader: the entry point run over a grid of pixels in
a worker (with progress), its colour output drawn with half blocks; choosing a pixel makes
its fragment the stepped invocation. A compute shader's results are buffers: the pane
says where they are."""

from __future__ import annotations

import numpy as np
from textual.worker import Worker, WorkerState, get_current_worker
from textual.content import Content

from spvinspect.codec.interp.interface import InputError
from spvinspect.codec.interp.shader import ShaderError
from spvinspect.codec.interp.values_view import scalar_text
from spvinspect.execution.spirv import GridImage, grid_image
from spvinspect.screens.panes import BuiltPane
from spvinspect.widgets.fragment_image import FragmentImage


class SpirvImage(BuiltPane, FragmentImage):
    """A fragment shader's output over `run_settings.grid`, pixel (0, 0) at the top left
    as FragCoord counts (the widget counts rows from the bottom)."""

    DEFAULT_CSS = """
    SpirvImage { height: 1fr; border: round $border-blurred; border-title-color: $text-muted;
                 border-subtitle-color: $text-muted; background: $background; }
    SpirvImage:focus { border: round $primary; border-title-color: $text; border-subtitle-color: $text; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.border_title = "Image"
        self.image: GridImage | None = None
        self._started = False

    @property
    def settings(self):
        """The screen's run settings (a `SpirvSettings`), None when nothing can run."""
        execution = getattr(self.screen, "execution", None)
        return execution.settings if execution is not None else None

    def on_show(self) -> None:
        if not self._started:
            self.start()

    def document_changed(self, document) -> None:
        self._started = False
        if self.display:
            self.start()

    def start(self) -> None:
        """Run the grid again (in a worker; the first line shows the progress)."""
        settings = self.settings
        if settings is None:
            self.progress = "This module cannot be run."
            return
        self._started = True
        width, height = settings.grid
        self.border_title = f"Image · {width}×{height} fragments"
        self.progress = f"running {width}×{height} fragments…"
        self.run_worker(lambda: self._compute(settings), name="fragment grid", group="spirv-grid", thread=True, exclusive=True)

    def _compute(self, settings) -> GridImage | str | None:
        """The grid's image, None for a shader that is not a fragment shader, or why the
        module or its inputs cannot run (the user's input, not a failure of the worker)."""
        worker = get_current_worker()
        width, height = settings.grid

        def progress(done: int, rows: int) -> bool:
            if worker.is_cancelled:
                return False
            self.app.call_from_thread(setattr, self, "progress", f"running {width}×{height} fragments… row {done}/{rows}")
            return True

        try:
            return grid_image(settings, progress)
        except (ShaderError, InputError) as error:
            return str(error)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "spirv-grid":
            return
        if event.state == WorkerState.ERROR:
            self.progress = f"could not run the grid: {event.worker.error}"
        elif event.state == WorkerState.SUCCESS:
            image = event.worker.result
            if isinstance(image, str):
                self.progress = f"could not run the grid: {image}"
                return
            if image is None:
                self.progress = ("Not a fragment shader: a compute shader's buffers are in the values pane (8) "
                                 "once the run ends (F5).")
                return
            self.image = image
            height, width = image.pixels.shape[:2]
            self.border_title = Content(f"Image · {image.output or 'no colour output'} · {width}×{height} fragments")
            self.border_subtitle = Content(f"run invocation by invocation: {image.per_invocation}") if image.per_invocation else ""
            self.progress = ""
            self.show_image(image.pixels, image.discarded)
            settings = self.settings
            if settings is not None:
                fx, fy = settings.fragment
                self.cursor = (min(fx, width - 1), max(0, height - 1 - fy))
                self.chosen = self.cursor

    def fragment_of(self, x: int, y: int) -> tuple[int, int]:
        """The pixel as FragCoord counts it (rows from the top) of widget pixel (x, y)."""
        height = self.pixels.shape[0] if self.pixels is not None else 1
        return x, height - 1 - y

    def info_text(self) -> str:
        if self.progress or self.pixels is None:
            return super().info_text()
        x, y = self.cursor
        fx, fy = self.fragment_of(x, y)
        chosen = " stepped" if self.chosen == (x, y) else ""
        if self.discarded is not None and self.discarded[y, x]:
            return f"pixel {fx},{fy}{chosen}: discarded"
        return f"pixel {fx},{fy}{chosen}: " + " ".join(scalar_text(None, np.float32(c)) for c in self.pixels[y, x])

    def on_fragment_image_chosen(self, message: FragmentImage.Chosen) -> None:
        """Step the chosen pixel's fragment: the run starts again from it."""
        message.stop()
        settings = self.settings
        if settings is None:
            return
        settings.fragment = self.fragment_of(message.x, message.y)
        restart = getattr(self.screen, "restart_run", None)
        if restart is not None:
            restart()
        self.refresh()
