"""Copy and export (issue #27 item 22): ctrl+c offers the selected instruction, its
function (Lima: the program), its words and the selected word's offset, copies the choice
to the clipboard (OSC 52, Textual's `copy_to_clipboard`) with a notice saying what was
copied; `x` writes the function's text to a file the user names, asking before it
replaces one."""

from __future__ import annotations

from oracle import run_tool
from textual.widgets import Input

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.screens.copy import CopyScreen
from spvinspect.screens.edit_dialogs import Question
from inspector_apps import settle
from test_app import SIZE
from lima_apps import to_bytes as struct_words


def notices(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


async def copy(pilot, key: str) -> None:
    """ctrl+c, then the choice's key."""
    await pilot.press("ctrl+c")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CopyScreen), notices(pilot.app)
    await pilot.press(key)
    await pilot.pause()


async def export(pilot, path) -> None:
    """ctrl+c, x, and the file's name typed in."""
    await copy(pilot, "x")
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


def function_text(dis: str, name: str) -> str:
    """spirv-dis's lines of one function, from its OpFunction to its OpFunctionEnd."""
    lines = dis.splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip().startswith(f"%{name} = OpFunction "))
    end = next(k for k in range(start, len(lines)) if lines[k].strip() == "OpFunctionEnd")
    return "\n".join(lines[start : end + 1])


async def test_ctrl_c_copies_the_instruction_function_words_or_offset_and_x_exports_the_function(tmp_path, example_bytes):
    run = run_tool("spirv-dis", "--no-header", "--no-color", "-", input=example_bytes)
    assert run.returncode == 0, run.stderr.decode()
    dis = run.stdout.decode()
    path = tmp_path / "example.spv"
    path.write_bytes(example_bytes)
    app = InspectorApp(Document(example_bytes, path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"OpFDiv", "enter")
        await pilot.pause()
        screen = app.screen
        selection = screen.selection
        instruction = screen.document.module.instruction(selection.instruction)
        await copy(pilot, "i")
        assert app.clipboard == "%49 = OpFDiv %float %47 %float_512"
        assert "Copied instruction" in notices(app) and "ctrl+q" not in notices(app)
        await copy(pilot, "w")
        words = screen.document.module.words[instruction.offset : instruction.end]
        assert app.clipboard == " ".join(f"{word:08x}" for word in words)
        await copy(pilot, "o")
        assert app.clipboard == f"0x{4 * selection.word:08x}"
        await copy(pilot, "f")
        blur = function_text(dis, "blur_vf2_")
        assert [line.strip() for line in app.clipboard.splitlines()] == [line.strip() for line in blur.splitlines()]
        assert "Copied function %blur_vf2_" in notices(app)

        target = tmp_path / "blur.spvasm"
        await export(pilot, target)
        assert target.read_text() == app.clipboard + "\n"
        await pilot.press("left_square_bracket", "left_square_bracket")  # the function before: main
        await pilot.pause()
        await export(pilot, target)
        assert isinstance(app.screen, Question)  # never replaced without asking
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text() == app.clipboard + "\n"
        await export(pilot, target)
        await pilot.press("y")
        await pilot.pause()
        main = function_text(dis, "main")
        assert [line.strip() for line in target.read_text().splitlines()] == [line.strip() for line in main.splitlines()]
        assert f"Exported function %main to {target}" in notices(app)


async def test_lima_copies_the_instruction_in_the_list_style_and_the_program(tmp_path):
    words, _ = lima.assemble("mov.v0 $0 $1\nstop, mov.v0 $1 $0")
    data = struct_words(words)
    app = InspectorApp(LimaDocument(data, str(tmp_path / "code.bin")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        await pilot.pause()
        await copy(pilot, "i")
        assert app.clipboard == "stop, mov.v0 $1 $0"
        await pilot.press("m")
        await copy(pilot, "i")
        assert app.clipboard.strip() == "mov.v0 $1 $0 , stop"
        await copy(pilot, "f")
        program = lima.listing_lines(lima.decode(data), "mesa")
        assert app.clipboard == "\n".join(program) and "Copied the program" in notices(app)
        await copy(pilot, "w")
        second = lima.decode(data).instructions[1]
        assert app.clipboard == " ".join(f"{word:08x}" for word in second.words)
        await copy(pilot, "o")
        assert app.clipboard == f"0x{4 * second.word_offset:08x}"
        target = tmp_path / "program.txt"
        await export(pilot, target)
        assert target.read_text() == "\n".join(program) + "\n"
        assert lima.assemble(target.read_text(), "auto")[0] == words
