"""Broken and odd modules open in the app, and every key keeps working: no input makes
the app crash (a crash ends `run_test` with the exception)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from spvinspect.codec.binary.decoder import decode
from inspector_apps import make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.screens.inspector import InspectorScreen
from spvinspect.widgets.diagnostics_panel import DiagnosticsPanel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codec"))

from corruptions import corruptions  # noqa: E402

KEYS = ["G", "l", "enter", "u", "escape", "ctrl+o", "right_curly_bracket", "r", "slash", "%", "1", "enter", "n", "3"]
"""Moves, jumps, the uses dialog, raw ids, a search and the panes: what touches the document."""


def odd_modules() -> list[tuple[str, bytes]]:
    """Corruptions of the example, and modules that are odd without being corrupted."""
    data = EXAMPLE_MODULE.read_bytes()
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    big_endian = struct.pack(f">{len(words)}I", *words)
    header_only = data[:20]
    short_header = data[:8]
    huge_bound = struct.pack("<5I", 0x07230203, 0x00010500, 0, 0xFFFFFFFF, 7) + data[20:]
    cases = [(c.name, c.data) for c in corruptions(data, seed=11)]
    cases += [("big-endian", big_endian), ("header only", header_only), ("short header", short_header),
              ("huge bound, schema set", huge_bound)]
    return cases


async def test_odd_modules_open_and_every_key_works():
    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(100, 30)) as pilot:
        for name, data in odd_modules():
            screen = InspectorScreen(Document(data, f"{name}.spv"))
            await app.push_screen(screen)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            panel = screen.query_one(DiagnosticsPanel)
            assert panel.option_count == len(decode(data).diagnostics), name
            await pilot.press(*KEYS)
            await app.workers.wait_for_complete()
            await pilot.pause()
            while app.screen is not screen:
                app.pop_screen()  # a dialog the keys left open
            app.pop_screen()
