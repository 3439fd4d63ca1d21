"""Search lands on what matched, and finds words and enum values (issue #27 item 19):
`/%id` selects the operand naming the id (so `u` lists its uses at once), `/0x…` finds the
instructions holding that word and selects it, `/N` finds literal and enum operands of
that value; the uses picker moves with j and k."""

from __future__ import annotations

from textual.widgets import OptionList

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.grammar import load_grammar
from spvinspect.screens.uses import UsesScreen
from spvinspect.widgets.status_line import StatusLine
from inspector_apps import make_app, settle
from test_app import SIZE, row_of


def operand_text(app) -> str:
    """The selected operand as its line shows it."""
    selection = app.screen.selection
    assert selection.operand is not None, "the search landed on the opcode, not on an operand"
    return app.screen.document.operand_text(selection.row, selection.operand)


async def search(pilot, query: str) -> None:
    await pilot.press("slash", *query, "enter")
    await pilot.pause()


async def test_search_lands_on_the_matching_operand_and_finds_words_and_enum_values(example_bytes):
    module = decode(example_bytes)
    kinds = load_grammar().operand_kinds
    app = make_app(example_bytes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        # An id: its definition, then its use, each on the operand naming it.
        await search(pilot, "%float_512")
        assert app.screen.selection.row == row_of(app, "%float_512 = OpConstant")
        assert operand_text(app) == "%float_512"
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.selection.row == row_of(app, "OpFDiv %float %47 %float_512")
        assert operand_text(app) == "%float_512"
        await pilot.press("u")  # the id under the cursor is the one searched for
        await settle(pilot)
        assert isinstance(app.screen, UsesScreen) and "Uses of %float_512 (1)" in app.screen.query_one("#uses-dialog").border_title
        await pilot.press("escape")
        await search(pilot, "%sum")
        await pilot.press("u")
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        assert options.option_count > 2
        assert options.highlighted == 0
        await pilot.press("j")
        assert options.highlighted == 1
        await pilot.press("k")
        assert options.highlighted == 0
        await pilot.press("escape")
        await pilot.pause()

        # A hex word: every instruction holding it, the cursor on the word itself.
        value = 0x44000000  # 512.0
        holding = [k for k, i in enumerate(module.instructions) if value in module.words[i.offset : i.end]]
        assert holding
        await pilot.press("slash", *"0x44000000")  # told as it is typed
        assert status.detail == "0x44000000 → a word: the instructions holding that value"
        await pilot.press("enter")
        await pilot.pause()
        selection = app.screen.selection
        assert selection.instruction in holding and module.words[selection.word] == value
        assert "word 0x44000000: match" in status.detail
        assert app.screen.view.navigation.session.matches == holding

        # A decimal: literal and enum operands of that value (Binding is decoration 33).
        def has_value(instruction, number: int) -> bool:
            return any(
                o.value == number and o.kind in kinds and kinds[o.kind].category in ("Literal", "ValueEnum", "BitEnum")
                and not isinstance(o.value, str)
                for o in instruction.operands
            )

        expected = [k for k, i in enumerate(module.instructions) if has_value(i, 33)]
        assert expected == [row_of(app, "OpDecorate %_ Binding 1"), row_of(app, "OpDecorate %albedo Binding 0")]
        await search(pilot, "33")
        assert app.screen.view.navigation.session.matches == expected
        assert operand_text(app) == "Binding"
        assert "value 33: match 1 of 2" in status.detail
        await search(pilot, "0x7fffffff")
        assert "No match for 0x7fffffff (a word's value)" in "".join(str(n.message) for n in app._notifications)
