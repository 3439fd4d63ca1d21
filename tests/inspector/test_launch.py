"""`spvinspect [FILE] [--at] [--pane] [--raw-id] [--theme]`: the app on a terminal, text in a
pipe, one-line errors for anything wrong."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spvinspect import launch
from spvinspect.commands.open import EXAMPLE_MODULE

ROOT = Path(__file__).resolve().parents[2]


def spvinspect(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "spvinspect.cli", *args], capture_output=True, cwd=ROOT, check=False
    )


@pytest.fixture
def on_a_terminal(monkeypatch):
    """Standard output is a terminal; the app itself is replaced by a recorder."""
    opened = []
    monkeypatch.setattr(launch, "on_terminal", lambda: True)
    monkeypatch.setattr(launch, "run_app", lambda *args: opened.append(args) or 0)
    return opened


def test_in_a_pipe_it_prints_the_disassembly():
    piped = spvinspect(str(EXAMPLE_MODULE))
    assert piped.returncode == 0
    assert piped.stdout == spvinspect("dis", str(EXAMPLE_MODULE)).stdout
    assert spvinspect().stdout == piped.stdout
    raw = spvinspect(str(EXAMPLE_MODULE), "--raw-id")
    assert raw.stdout == spvinspect("dis", "--raw-id", str(EXAMPLE_MODULE)).stdout


def test_options_reach_the_app(on_a_terminal):
    assert launch.main([str(EXAMPLE_MODULE), "--at", "0x40", "--pane", "header", "--raw-id", "--theme", "spvinspect-light"]) == 0
    data, path, at, pane, raw, theme, tour, inputs = on_a_terminal[0]
    assert data == EXAMPLE_MODULE.read_bytes() and path == str(EXAMPLE_MODULE)
    assert (at, pane, raw, theme, tour, inputs) == (0x40, "header", True, "spvinspect-light", None, None)
    assert launch.main([str(EXAMPLE_MODULE), "--at", "72"]) == 0
    assert on_a_terminal[1][2] == 72


def test_an_inputs_file_reaches_the_run(on_a_terminal, tmp_path):
    (tmp_path / "in.json").write_text('{"uniforms": {"tint": [1, 0.5, 0.25, 1]}}')
    assert launch.main([str(EXAMPLE_MODULE), "--inputs", str(tmp_path / "in.json")]) == 0
    assert on_a_terminal[0][7] == {"uniforms": {"tint": [1, 0.5, 0.25, 1]}}


def test_no_file_opens_the_example(on_a_terminal):
    assert launch.main([]) == 0
    assert on_a_terminal[0][1] == str(EXAMPLE_MODULE)
    assert on_a_terminal[0][6].steps  # with its tour


def test_a_tour_file_reaches_the_app_and_a_bad_one_is_one_line(on_a_terminal, tmp_path, capsys):
    from spvinspect.tour import EXAMPLE_TOUR

    assert launch.main([str(EXAMPLE_MODULE), "--tour", str(EXAMPLE_TOUR)]) == 0
    assert on_a_terminal[0][6].source == str(EXAMPLE_TOUR)
    bad = tmp_path / "bad.toml"
    bad.write_text('[[step]]\ntitle = "x"\ntext = "y"\nat = { instrution = "OpString" }\n')
    assert launch.main([str(EXAMPLE_MODULE), "--tour", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"spvinspect: error: --tour {bad}: step 1: at: unknown key 'instrution' (a place has expect, instruction, named, nth, word)"
    assert launch.main([str(EXAMPLE_MODULE), "--tour", str(tmp_path / "none.toml")]) == 1
    assert "none.toml: cannot read the tour" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["{missing}"], "error: cannot read"),
        (["{text}"], "not a SPIR-V module (first word 0x6c6c6568"),
        (["{empty}"], "not a SPIR-V module (0 bytes long, shorter than the magic number)"),
        (["{example}", "--at", "12x"], "--at 12x: not a byte offset"),
        (["{example}", "--at", "0x100000"], "--at 0x100000: past the end"),
        (["{example}", "--pane", "hexx"], "--pane hexx: no such pane; choose one of header, list, hex, cfg, diagnostics"),
        (["{example}", "--theme", "neon"], "--theme neon: no such theme; choose one of spvinspect-dark"),
        (["{example}", "--inputs", "{missing}"], "cannot read"),
        (["{example}", "--inputs", "{text}"], "text.spv:1:1: not JSON: Expecting value"),
        (["{example}", "--inputs", "{list}"], "the inputs must be a JSON object"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(on_a_terminal, capsys, tmp_path, args, message):
    (tmp_path / "text.spv").write_text("hello, world")
    (tmp_path / "empty.spv").write_bytes(b"")
    (tmp_path / "list.json").write_text("[1, 2]")
    files = {
        "list": str(tmp_path / "list.json"),
        "missing": str(tmp_path / "missing.spv"),
        "text": str(tmp_path / "text.spv"),
        "empty": str(tmp_path / "empty.spv"),
        "example": str(EXAMPLE_MODULE),
    }
    assert launch.main([a.format(**files) for a in args]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert not on_a_terminal


def test_subcommands_still_dispatch():
    assert spvinspect("dis", "--no-header", str(EXAMPLE_MODULE)).stdout.startswith(b"               OpCapability Shader")
    assert spvinspect("--help").stdout.count(b"dis") >= 1


def test_the_app_runs_on_a_real_terminal_and_quits():
    """Launched on a pseudo-terminal, the app paints the module and `q` ends it cleanly."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.environ.update(TERM="xterm-256color", COLUMNS="120", LINES="40")
        os.execv(sys.executable, [sys.executable, "-m", "spvinspect.cli", str(EXAMPLE_MODULE)])
    screen = b""
    deadline = time.monotonic() + 30
    try:
        while b"OpCapability" not in screen and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                screen += os.read(fd, 65536)
        assert b"OpCapability" in screen
        os.write(fd, b"q")
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                assert os.waitstatus_to_exitcode(status) == 0
                break
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
        else:
            pytest.fail("the app did not quit on q")
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
