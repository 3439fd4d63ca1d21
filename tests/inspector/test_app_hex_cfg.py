"""The hex, word detail and CFG panes in the app, as a user drives them: every pane
follows the one the user moves, in both directions."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual import events
from textual.pilot import Pilot

from spvinspect.app import InspectorApp
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.text.grammar_card import EnumerantCard, InstructionCard
from cfg_functions import NESTED_LOOPS, SWITCH, module_bytes
from inspector_apps import after_keys, broken_module_bytes, byte_swapped, ext_inst_module_bytes, make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.messages import SelectInstruction
from spvinspect.screens.grammar_card import GrammarCardScreen
from spvinspect.responsive import pacing
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.screens.go_to import GoToDialog
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.word_detail import WordDetailPanel
from waiting import until as wait_until, until_quiet

SIZE = (120, 40)


async def settle(pilot) -> None:
    """Let the workers (index, CFG layout) finish, the CFG pane follow (a moment after
    the last key) and every message land: until the app has done all it put off."""
    await until_quiet(pilot)


@asynccontextmanager
async def settled_app(data: bytes, **options) -> AsyncIterator[tuple[InspectorApp, Pilot]]:
    """The app over `data` (`make_app`'s options), running and settled."""
    app = make_app(data, **options)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        yield app, pilot


def panes(app) -> tuple[InstructionList, HexView, WordDetailPanel, CfgView]:
    screen = app.screen
    return screen.query_one(InstructionList), screen.query_one(HexView), screen.query_one(WordDetailPanel), screen.query_one(CfgView)


MOVES = 100
"""Instructions walked with the down key: the header's, the types and constants, and into
the first function."""


async def test_moving_in_the_list_frames_each_instruction_in_the_hex_pane():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    async with settled_app(data) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        for index, inst in enumerate(module.instructions[:MOVES]):
            assert app.screen.selection.instruction == index
            assert hex_view.cursor == inst.offset
            assert hex_view.highlighted == range(inst.offset, inst.end)
            assert detail.detail.instruction_index == index and detail.detail.word_offset == inst.offset
            await pilot.press("down")


async def test_the_operand_cursor_moves_the_hex_cursor_to_the_operand():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    target = next(i for i in module.instructions if i.opname == "OpDecorate" and len(i.operands) == 3)
    async with settled_app(data, at=target.offset) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        await pilot.press("right", "right")
        assert hex_view.cursor == target.operands[1].offset
        assert detail.detail.operand_index == 1
        assert "Decoration" in detail.detail.operand_label


async def test_moving_the_hex_cursor_moves_the_list_and_keeps_the_focus():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    async with settled_app(data) as (app, pilot):
        instruction_list, hex_view, detail, _ = panes(app)
        await pilot.press("4")
        assert hex_view.has_focus
        start = hex_view.cursor
        await pilot.press("right", "right", "right")
        word = start + 3
        index = next(k for k, inst in enumerate(module.instructions) if inst.offset <= word < inst.end)
        inst = module.instructions[index]
        operand = next((k for k, o in enumerate(inst.operands) if o.offset <= word < o.end), None)
        assert hex_view.has_focus
        assert app.screen.selection.word == word
        assert instruction_list.cursor_row == index and instruction_list.cursor_operand == operand
        assert hex_view.highlighted == range(inst.offset, inst.end)
        assert detail.detail.word_offset == word


async def test_go_to_an_offset_from_the_hex_pane_and_back():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    target = module.instructions[150]
    async with settled_app(data) as (app, pilot):
        instruction_list, hex_view, _, _ = panes(app)
        await pilot.press("4", "g")
        assert isinstance(app.screen, GoToDialog)
        await pilot.press(*f"{target.offset * 4 + 4:#x}", "enter")
        await pilot.pause()
        assert hex_view.cursor == target.offset + 1
        assert instruction_list.cursor_row == 150
        await pilot.press("ctrl+o")  # a `g` is a jump: back returns
        await pilot.pause()
        assert instruction_list.cursor_row == 0


async def test_at_puts_the_hex_cursor_on_the_word():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    target = module.instructions[120]
    async with settled_app(data, at=target.offset + 1) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        assert hex_view.cursor == target.offset + 1
        assert detail.detail.instruction_index == 120


async def test_a_big_endian_module_shows_its_words_in_its_byte_order():
    little = EXAMPLE_MODULE.read_bytes()
    words = struct.unpack(f"<{len(little) // 4}I", little)
    async with settled_app(byte_swapped(little)) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        assert hex_view.big_endian and "big-endian" in hex_view.border_title
        assert list(hex_view.words[:8]) == list(words[:8])
        assert detail.detail.file_bytes == struct.pack(">I", words[5])


async def test_a_broken_module_marks_its_faulty_words():
    data = broken_module_bytes()
    async with settled_app(data) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        named = {d.word_offset for d in app.document.diagnostics if d.word_offset is not None}
        assert named and hex_view.marked == named
        assert hex_view.tail_offset < len(hex_view.words)
        await pilot.press("G")  # the last row: the trailing bytes
        await pilot.pause()
        assert hex_view.cursor == len(hex_view.words)
        assert "trailing" in detail.detail.meaning


async def test_grammar_cards_for_an_instruction_an_enumerant_and_an_extended_instruction():
    data = ext_inst_module_bytes()
    module = decode(data)
    capability = module.instructions[0]
    ext_inst = next(i for i in module.instructions if i.opname == "OpExtInst")
    async with settled_app(data) as (app, pilot):
        await pilot.press("c")
        card = app.screen.card
        assert isinstance(card, InstructionCard) and card.opname == capability.opname
        await pilot.press("escape", "right", "c")
        card = app.screen.card
        assert isinstance(card, EnumerantCard) and (card.kind, card.name) == ("Capability", "Shader")
        await pilot.press("escape")
        app.screen.select(app.document.select_instruction(module.instructions.index(ext_inst), 3))
        await pilot.press("c")
        card = app.screen.card
        assert isinstance(app.screen, GrammarCardScreen) and card.ext_set == "GLSL.std.450"


MASK_MODULE = """OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void Inline|Pure %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


async def test_the_card_of_a_mask_shows_every_set_bit():
    from spvinspect.codec.asm import assemble

    data = assemble(MASK_MODULE).binary
    module = decode(data)
    function = next(i for i, inst in enumerate(module.instructions) if inst.opname == "OpFunction")
    async with settled_app(data) as (app, pilot):
        app.screen.select(app.document.select_instruction(function, 2))
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, GrammarCardScreen)
        shown = "\n".join(
            strip.text for static in app.screen.query("Static") for strip in static.render_lines(static.region.reset_offset)
        )
        assert "FunctionControl Inline|Pure (0x5)" in shown
        assert "0x1 Inline" in shown and "0x4 Pure" in shown


async def test_the_status_line_and_the_word_detail_count_instructions_alike():
    """One numbering, from 1, that says what it counts: "#84" beside "row 85" was two."""
    async with settled_app(EXAMPLE_MODULE.read_bytes()) as (app, pilot):
        app.screen.post_message(SelectInstruction(84))  # the 85th instruction, counted from 1
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        _, _, detail, _ = panes(app)
        total = len(decode(EXAMPLE_MODULE.read_bytes()).instructions)
        assert f"instruction 85/{total}" in app.screen.query_one("#status").place
        rows = dict(detail.detail.rows())
        assert rows["Instruction"].startswith(f"{detail.detail.instruction.opname}, instruction 85 of {total},")
        assert "(spec numbering)" in rows["Operand"] or rows["Operand"].endswith(("the Result <id>", "the Result Type"))


async def test_the_cfg_follows_the_list_and_moves_it_along_edges():
    data = module_bytes(NESTED_LOOPS)
    async with settled_app(data) as (app, pilot):
        _, hex_view, _, cfg = panes(app)
        await pilot.press("right_square_bracket")  # on OpFunction: the entry block
        await settle(pilot)
        graph = cfg.function
        assert graph is not None and cfg.block_id == graph.entry
        first_edge = graph.successors(graph.entry)[0]
        await pilot.press("5", "down")  # along the chosen edge to the successor
        await settle(pilot)
        assert cfg.has_focus and cfg.block_id == first_edge
        selected = app.screen.selection
        assert selected.word == graph.block(first_edge).offset
        label = app.document.module.instruction(selected.instruction)
        assert label.opname == "OpLabel" and label.result_id == first_edge
        assert hex_view.cursor == selected.word
        await pilot.press("ctrl+o")  # choosing a block is a jump: back returns
        await settle(pilot)
        assert cfg.block_id == graph.entry


async def test_moving_in_the_list_highlights_the_block_holding_the_instruction():
    data = module_bytes(SWITCH)
    module = decode(data)
    async with settled_app(data) as (app, pilot):
        _, _, _, cfg = panes(app)
        labels = [k for k, i in enumerate(module.instructions) if i.opname == "OpLabel"]
        for index in labels:
            app.screen.select(app.document.select_instruction(index + 1 if module.instructions[index + 1].opname != "OpLabel" else index))
            await settle(pilot)
            assert cfg.block_id == module.instructions[index].result_id


async def test_narrow_screen_opens_hex_and_cfg_zoomed():
    data = module_bytes(NESTED_LOOPS)
    app = make_app(data)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        _, hex_view, detail, cfg = panes(app)
        await pilot.press("4")
        await pilot.pause()
        assert hex_view.has_focus and hex_view in app.screen.maximized.walk_children()
        assert detail in app.screen.maximized.walk_children()  # the word detail comes along
        await pilot.press("5")
        await pilot.pause()
        assert app.screen.maximized is cfg and cfg.has_focus
        await pilot.press("2")
        await pilot.pause()
        assert app.screen.maximized is None


def test_snapshot_hex_zoomed_80x24(snap_compare):
    """At 80x24 the hex pane opens zoomed, with the word detail under it."""
    app = make_app(EXAMPLE_MODULE.read_bytes(), name="example.spv")
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_keys(("]",), ("}",), "j", "4", "right"))


def test_snapshot_loop_function_120x40(snap_compare):
    """The CFG of a loop-heavy function beside the list, a block inside the inner loop selected."""
    app = make_app(module_bytes(NESTED_LOOPS), name="loops.spv")
    assert snap_compare(app, terminal_size=(120, 40), run_before=after_keys("]", "}", "5", "j", "j", "j", one_by_one=True))


async def test_a_big_endian_file_shorter_than_its_header_keeps_its_byte_order():
    data = bytes.fromhex("07230203" "00010000" "12345678")  # magic, version, a stray word
    async with settled_app(data) as (app, pilot):
        _, hex_view, detail, _ = panes(app)
        assert hex_view.big_endian and list(hex_view.words) == [0x07230203, 0x00010000, 0x12345678]
        app.screen.select(app.document.select_word(2))
        await pilot.pause()
        assert detail.detail.file_bytes == bytes.fromhex("12345678")


async def test_the_cfg_pane_folds_outside_functions_once_the_keys_pause(monkeypatch):
    """Folding re-lays out the screen: not between keys, only when the user pauses. Whether
    the user is at the keys is the test's to say, so no step depends on the machine's speed."""
    at_the_keys = False
    monkeypatch.setattr(pacing, "QUIET_AFTER_INPUT", 0.05)
    monkeypatch.setattr(pacing.WhenIdle, "user_at_the_keys", lambda when_idle: at_the_keys)
    data = EXAMPLE_MODULE.read_bytes()
    async with settled_app(data) as (app, pilot):
        box = app.screen.query_one("#cfg-box")
        assert box.has_class("-idle"), "at the first instruction, no function: folded"
        at_the_keys = True
        await pilot.press("G")
        # Not `settle`: while the test says the user is at the keys the fold stays put off.
        await until(pilot, lambda: app.screen.query_one(CfgView).function_id is not None)
        await pilot.pause()
        assert app.screen.query_one(CfgView).function_id is not None
        assert box.has_class("-idle"), "keys just pressed: still folded"
        at_the_keys = False
        await until(pilot, lambda: not box.has_class("-idle"))
        assert not box.has_class("-idle"), "the keys paused: unfolded"
        at_the_keys = True
        await pilot.press("g", "g")
        await until(pilot, lambda: app.screen.query_one(CfgView).function_id is None)
        await pilot.pause()
        assert not box.has_class("-idle"), "keys just pressed: still unfolded"
        at_the_keys = False
        await until(pilot, lambda: box.has_class("-idle"))
        assert box.has_class("-idle")


async def until(pilot, condition) -> None:
    """Let the app run until `condition` holds."""
    await wait_until(pilot, condition, "the condition")


async def test_a_page_key_moves_the_page_and_the_cursor_together():
    data = EXAMPLE_MODULE.read_bytes()
    async with settled_app(data) as (app, pilot):
        instruction_list = app.screen.query_one(InstructionList)
        height = instruction_list.scrollable_content_region.height - 1
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert app.screen.selection.row == 2 * height
        assert instruction_list.scroll_offset.y == 2 * height, "both pages scrolled"
        await pilot.press("pageup")
        await pilot.pause()
        assert app.screen.selection.row == height and instruction_list.scroll_offset.y == height


async def test_an_offset_typed_at_once_after_g_lands_in_the_dialog():
    """A fast typist (or a paste): `g0x10⏎` arrives in one burst, before the dialog has
    the focus; no key is lost, and none acts on the panes underneath."""
    async with settled_app(EXAMPLE_MODULE.read_bytes()) as (app, pilot):
        await pilot.press("4")
        for key, character in [("g", "g"), ("0", "0"), ("x", "x"), ("1", "1"), ("0", "0"), ("enter", "\r")]:
            app.post_message(events.Key(key, character))
        await settle(pilot)
        assert not isinstance(app.screen, GoToDialog)
        assert app.screen.selection.word == 0x10 // 4
        assert app.screen.query_one(HexView).has_focus, "key 1 typed in the offset did not focus the header"


async def test_the_footer_shows_the_keys_of_the_focused_pane():
    async with settled_app(EXAMPLE_MODULE.read_bytes()) as (app, pilot):

        def shown() -> list[str]:
            return [key.description for key in app.screen.query("FooterKey")]

        assert "Definition" in shown() and "Go to" not in shown()
        await pilot.press("4")
        await settle(pilot)
        assert "Go to" in shown() and "Definition" not in shown()
        await pilot.press("2")
        await settle(pilot)
        assert "Definition" in shown()
