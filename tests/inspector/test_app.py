"""The app as a user drives it (Pilot): what shows at launch, moving, jumping, searching."""

from __future__ import annotations

from spvinspect.codec.binary.decoder import decode
from inspector_apps import make_app, settle
from waiting import search_palette, until
from spvinspect.screens.help import HelpScreen
from spvinspect.screens.uses import UsesScreen
from spvinspect.widgets.diagnostics_panel import DiagnosticsPanel
from spvinspect.widgets.header_pane import HeaderPane
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.status_line import StatusLine

SIZE = (120, 40)


def row_of(app, text: str, raw: bool = False) -> int:
    """The first row whose line (friendly names, or raw ids) contains `text`."""
    document = app.document
    return next(row for row in range(document.row_count) if text in document.row_text(row, raw))


def rendered(widget) -> str:
    """The text a widget shows, as the terminal would."""
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def header_text(app) -> str:
    pane = app.screen.query_one(HeaderPane)
    return "\n".join(strip.text for strip in pane.render_lines(pane.region.reset_offset))


async def test_launch_shows_the_decoded_header(example_bytes):
    header = decode(example_bytes).header
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        beside = header_text(app)  # compact beside the other panes: a line a field
        for word, value in enumerate((header.magic, header.version, header.generator, header.bound, header.schema)):
            assert f"{value:08x} w{word}" in beside
        assert "199 instructions · 2 functions · 117/126 ids" in beside
        assert "0 diagnostics · 4,040 bytes" in beside
        await pilot.press("1", "z")  # zoomed: every part on a line of its own
        await pilot.pause()
        shown = header_text(app)
        for word, value in enumerate((header.magic, header.version, header.generator, header.bound, header.schema)):
            assert f"{value:08x}  word {word}, byte {word * 4}" in shown
        assert "SPIR-V, little-endian" in shown
        assert "vendor  Khronos" in shown and "tool    Glslang Reference" in shown
        assert f"version {header.generator_version}" in shown
        assert f"instructions   {len(decode(example_bytes).instructions)}" in shown
        assert "ids defined    117 of bound 126" in shown


async def test_at_selects_the_instruction_holding_the_word(example_bytes):
    module = decode(example_bytes)
    target = module.instructions[100]
    app = make_app(example_bytes, at=target.offset + 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        selection = app.screen.selection
        assert selection.instruction == 100
        assert selection.word == target.offset + 2
        instruction_list = app.screen.query_one(InstructionList)
        assert instruction_list.cursor_row == 100
        top = instruction_list.scroll_offset.y
        assert top <= 100 < top + instruction_list.size.height


async def test_definition_gd_and_the_uses_dialog_jump_and_other_panes_select(example_bytes):
    """Four ways the selection moves, as steps of one session (each selects where it starts)."""
    from spvinspect.messages import SelectInstruction, SelectWord

    module = decode(example_bytes)
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # Step 1: enter on an operand goes to its definition; ctrl+o back, ctrl+n forward again.
        store = row_of(app, "OpStore %base %73")
        app.screen.select(app.screen.document.select_row(store))
        await pilot.press("l")  # the operand cursor onto %base
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "%base = OpVariable")
        assert app.screen.selection.operand == 1  # the result id
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.selection.row == store
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "%base = OpVariable")

        # Step 2: `gd` goes to the definition of the first id the instruction reads.
        app.screen.select(app.screen.document.select_row(row_of(app, "= OpLoad %v2float %uv")))
        await pilot.press("g", "d")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "%uv = OpVariable")

        # Step 3: `u` lists the uses of the id under the cursor and jumps to the one picked.
        app.screen.select(app.screen.document.select_row(row_of(app, "%sum = OpVariable"), 1))
        await pilot.press("u")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, UsesScreen)
        assert [use.row for use in dialog._uses] == [
            row_of(app, 'OpName %sum "sum"'), row_of(app, "OpStore %sum %18"),
            row_of(app, "%53 = OpLoad %v4float %sum"), row_of(app, "OpStore %sum %54"),
            row_of(app, "%58 = OpLoad %v4float %sum"),
        ]
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "%53 = OpLoad %v4float %sum")
        assert app.screen.selection.operand == 2

        # Step 4: the other panes select by word and by instruction; a jump is undone by ctrl+o.
        target = module.instructions[120]
        app.screen.post_message(SelectWord(target.offset + 1))
        await pilot.pause()
        assert (app.screen.selection.instruction, app.screen.selection.word) == (120, target.offset + 1)
        app.screen.post_message(SelectInstruction(130, 0, jump=True))
        await pilot.pause()
        selection = app.screen.selection
        assert (selection.instruction, selection.operand, selection.word) == (130, 0, module.instructions[130].operands[0].offset)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.selection.instruction == 120


async def test_search_moves_through_matches(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        module = decode(example_bytes)
        loads = [r for r, i in enumerate(module.instructions) if i.opname == "OpLoad"]
        await pilot.press("slash", *"OpLoad", "enter")
        await pilot.pause()
        assert app.screen.selection.row == loads[0]
        assert "opcode OpLoad: match 1 of" in app.screen.query_one(StatusLine).detail
        await pilot.press("n", "n")
        await pilot.pause()
        assert app.screen.selection.row == loads[2]
        await pilot.press("N")
        await pilot.pause()
        assert app.screen.selection.row == loads[1]
        await pilot.press("slash", *"%main", "enter")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "OpEntryPoint Fragment %main")


async def test_raw_toggle_shows_raw_ids(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        instruction_list = app.screen.query_one(InstructionList)
        assert "OpEntryPoint Fragment %main" in rendered(instruction_list)
        await pilot.press("r")
        await settle(pilot)
        assert "OpEntryPoint Fragment %5 " in rendered(instruction_list)
        assert app.screen.query_one(StatusLine).mode == "raw ids"
        await pilot.press("slash", *"%main", "enter")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "OpEntryPoint Fragment %5", raw=True)


async def test_raw_ids_from_the_command_line(example_bytes):
    app = make_app(example_bytes, raw=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "OpEntryPoint Fragment %5 " in rendered(app.screen.query_one(InstructionList))


async def test_theme_switch_recolours_the_list(example_bytes, monkeypatch):
    saved = []
    monkeypatch.setattr("spvinspect.app.save_theme", saved.append)
    app = make_app(example_bytes, theme="spvinspect-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        instruction_list = app.screen.query_one(InstructionList)
        dark = instruction_list.render_line(0)
        app.theme = "spvinspect-light"
        await pilot.pause()
        light = instruction_list.render_line(0)
        assert dark.text == light.text
        assert [s.style for s in dark] != [s.style for s in light]
        assert saved == ["spvinspect-light"]


async def test_broken_module_opens_with_its_diagnostics(broken_bytes):
    module = decode(broken_bytes)
    app = make_app(broken_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(DiagnosticsPanel)
        assert panel.display
        assert panel.option_count == len(module.diagnostics) == 3
        listed = "\n".join(str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count))
        for diagnostic in module.diagnostics:
            assert diagnostic.message in listed
        decorate = next(d for d in module.diagnostics if "OpDecorate" in d.message)
        panel.focus()
        position = next(i for i in range(panel.option_count) if "OpDecorate" in str(panel.get_option_at_index(i).prompt))
        panel.highlighted = position
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.selection.word == decorate.word_offset
        assert app.screen.query_one(InstructionList).has_focus
        await pilot.press("G")
        await pilot.pause()
        assert app.screen.selection.row == app.screen.document.row_count - 1
        assert "!0x12345678" in rendered(app.screen.query_one(InstructionList))


async def test_help_screen_opens_and_closes(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_zoom_and_panes(example_bytes):
    app = make_app(example_bytes, pane="header")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.screen.query_one(HeaderPane)
        assert app.screen.maximized is header and header.has_focus
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is None
        hex_view = app.screen.query_one(HexView)
        top = header.region.y
        await pilot.press("x")
        await pilot.pause()
        assert not header.display and app.screen.query_one(InstructionList).has_focus
        assert hex_view.region.y == top  # the hex pane took the header's place
        instruction_list = app.screen.query_one(InstructionList)
        await pilot.press("4", "x")  # the hex pane goes with its word detail
        await pilot.pause()
        assert instruction_list.region.right == SIZE[0]  # the emptied column gave its width away
        await pilot.press("1")
        await pilot.pause()
        assert header.display and header.has_focus
        assert instruction_list.region.right < SIZE[0]


async def test_narrow_terminal_keeps_every_pane_one_key_away(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-narrow")
        assert app.screen.query_one(InstructionList).has_focus
        await pilot.press("1")
        await pilot.pause()
        assert app.screen.maximized is app.screen.query_one(HeaderPane)
        await pilot.press("2")
        await pilot.pause()
        assert app.screen.maximized is None
        assert app.screen.query_one(InstructionList).has_focus


async def test_movement_by_line_page_function_and_block(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        document = app.screen.document
        await pilot.press("j", "j", "k")
        await pilot.pause()
        assert app.screen.selection.row == 1
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.screen.selection.row == document.function_starts[0]
        await pilot.press("right_curly_bracket")
        await pilot.pause()
        assert document.row_text(app.screen.selection.row).endswith("OpLabel")
        box = app.screen.query_one("#cfg-box")
        # in a function, the CFG pane unfolds once the keys pause
        await until(pilot, lambda: not box.has_class("-idle"), "the CFG pane unfolding")
        await pilot.pause()
        height = app.screen.query_one(InstructionList).scrollable_content_region.height
        await pilot.press("pagedown")
        await pilot.pause()
        assert app.screen.selection.row == document.block_row(document.function_starts[0], 1) + height - 1
        await pilot.press("g", "g")
        await pilot.pause()
        assert app.screen.selection.row == 0
        await pilot.press("G")
        await pilot.pause()
        assert app.screen.selection.row == document.row_count - 1


async def test_command_palette_goes_to_a_function(example_bytes):
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await search_palette(pilot, "Go to function %blur")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "%blur_vf2_ = OpFunction")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.selection.row == 0
