"""Lima mode's inputs pane: the varyings, uniforms and textures the stepped fragment and
the image read, a value per line (numbers separated by spaces; Enter applies them), and
the whole set loaded from or saved to a JSON file in the `lima run --inputs` shape."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label

from spvinspect.execution import Execution
from spvinspect.lima.emulator import InputError, parse_inputs
from spvinspect.screens.edit_dialogs import Question
from spvinspect.screens.panes import BuiltPane
from spvinspect.screens.run_keys import RunFollower

RAMP_LABELS = {"bottom_left": "bottom-left", "bottom_right": "bottom-right", "top_left": "top-left"}


def numbers_text(values) -> str:
    """Numbers as the user edits them: `0.5 -1 inf`."""
    return " ".join(f"{v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v) for v in values)


def parse_numbers(text: str, where: str) -> list[float]:
    """`0.5, -1 inf` -> [0.5, -1.0, inf]; ValueError naming the word that is not a number."""
    values = []
    for word in text.replace(",", " ").split():
        try:
            values.append(float(word))
        except ValueError:
            raise ValueError(f"{where}: {word!r} is not a number") from None
    if not values:
        raise ValueError(f"{where}: no numbers")
    return values


def _json_safe(data):
    """The inputs as strict JSON can hold them (NaN and infinities as "nan", "inf", "-inf")."""
    if isinstance(data, dict):
        return {k: _json_safe(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_json_safe(v) for v in data]
    if isinstance(data, float) and not math.isfinite(data):
        return "nan" if math.isnan(data) else ("inf" if data > 0 else "-inf")
    return data


class LimaInputs(BuiltPane, RunFollower, VerticalScroll):
    """Editable inputs of the run, one line per value."""

    DEFAULT_CSS = """
    LimaInputs { border: round $panel; height: 1fr; }
    LimaInputs:focus-within { border: round $accent; }
    LimaInputs .input-row { height: 1; }
    LimaInputs .input-row Label { width: 24; color: $text-muted; }
    LimaInputs .input-row Input { width: 1fr; height: 1; border: none; padding: 0; }
    LimaInputs #inputs-file-row { height: 1; margin-top: 1; }
    LimaInputs #inputs-file-row Input { width: 1fr; height: 1; border: none; padding: 0; }
    LimaInputs #inputs-file-row Button { min-width: 8; height: 1; border: none; margin-left: 1; }
    LimaInputs #inputs-message { color: $warning; height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Inputs"
        self._paths: dict[str, tuple[str, ...]] = {}
        """Input id -> where its value is in the inputs JSON."""

    @property
    def execution(self) -> Execution | None:
        return getattr(self.screen, "execution", None)

    def compose(self) -> ComposeResult:
        yield from self._rows()
        with Horizontal(id="inputs-file-row"):
            yield Input(placeholder="inputs.json", id="inputs-file")
            yield Button("Load", id="inputs-load")
            yield Button("Save", id="inputs-save")
        yield Label("", id="inputs-message")

    def _rows(self) -> ComposeResult:
        execution = self.execution
        if execution is None or execution.settings is None:
            return
        data = execution.settings.data
        self._paths.clear()
        for table in ("varyings", "uniforms"):
            for key, value in data.get(table, {}).items():
                name = f"{table[:-1]} {key}" if key.isdigit() else key  # a slot number says which table
                if isinstance(value, dict):
                    for corner, label in RAMP_LABELS.items():
                        yield self._row(f"{name} {label}", (table, key, corner), value.get(corner, []))
                else:
                    yield self._row(name, (table, key), value if isinstance(value, list) else [value])
        for key, texture in data.get("textures", {}).items():
            size = [texture.get("width"), texture.get("height"), texture.get("filter", "nearest"), texture.get("wrap", "repeat")]
            yield self._row(f"sampler {key} w h filter wrap", ("textures", key, "shape"), size)
            yield self._row(f"sampler {key} texels rgba", ("textures", key, "rgba"), texture.get("rgba", []))

    def _row(self, label: str, path: tuple[str, ...], values) -> Horizontal:
        ident = f"input-{len(self._paths)}"
        self._paths[ident] = path
        return Horizontal(Label(label), Input(numbers_text(values), id=ident), classes="input-row")

    def _message(self, text: str) -> None:
        self.query_one("#inputs-message", Label).update(text)

    @on(Input.Submitted)
    def _submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.input.id == "inputs-file":
            return
        path = self._paths.get(message.input.id or "")
        execution = self.execution
        if path is None or execution is None:
            return
        data = copy.deepcopy(execution.settings.data)
        where = " ".join(path)
        try:
            if path[-1] == "shape":
                words = message.value.split()
                if len(words) != 4 or not all(w.isdigit() for w in words[:2]):
                    raise ValueError(f"{where}: expected width height filter wrap, like 4 4 nearest repeat")
                texture = data["textures"][path[1]]
                texture["width"], texture["height"] = int(words[0]), int(words[1])
                texture["filter"], texture["wrap"] = words[2], words[3]
            else:
                values = parse_numbers(message.value, where)
                target = data
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = values
            parse_inputs(data, execution.settings.symbols)
        except (ValueError, InputError) as error:
            self._message(str(error))
            return
        self._apply(data, f"{where}: applied")

    def _apply(self, data: dict, told: str) -> None:
        execution = self.execution
        assert execution is not None
        execution.settings.data = data
        self._message(told)
        restart = getattr(self.screen, "restart_run", None)
        if restart is not None:
            restart()

    async def _rebuild(self) -> None:
        for row in list(self.query(".input-row")):
            await row.remove()
        await self.mount_all(list(self._rows()), before=self.query_one("#inputs-file-row"))

    def _file(self) -> Path | None:
        text = self.query_one("#inputs-file", Input).value.strip()
        if not text:
            self._message("Type a file name first")
            return None
        return Path(text)

    @on(Button.Pressed, "#inputs-load")
    async def _load(self, message: Button.Pressed) -> None:
        message.stop()
        await self.load(self._file())

    async def load(self, path: Path | None) -> bool:
        """Read inputs from a JSON file; the pane and the run take them when they can be used."""
        execution = self.execution
        if path is None or execution is None:
            return False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            parse_inputs(data, execution.settings.symbols)
        except OSError as error:
            self._message(f"cannot read {path}: {error.strerror}")
            return False
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            self._message(f"{path}: not JSON ({error})")
            return False
        except InputError as error:
            self._message(f"{path}: {error}")
            return False
        self._apply(data, f"loaded {path}")
        await self._rebuild()
        return True

    @on(Button.Pressed, "#inputs-save")
    def _save(self, message: Button.Pressed) -> None:
        message.stop()
        self.save(self._file())

    def save(self, path: Path | None) -> None:
        """Write the inputs as JSON; an existing file is replaced only after asking."""
        execution = self.execution
        if path is None or execution is None:
            return
        text = json.dumps(_json_safe(execution.settings.data), indent=1) + "\n"

        def write(yes: bool | None = True) -> None:
            if not yes:
                self._message(f"{path} left as it was")
                return
            try:
                path.write_text(text, encoding="utf-8")
            except OSError as error:
                self._message(f"cannot write {path}: {error.strerror}")
                return
            self._message(f"saved {path}")

        if path.exists():
            self.app.push_screen(Question(f"{path} exists. Replace it with these inputs?", "Replace"), write)
        else:
            write()
