"""`spvinspect serve`: the app as a web page on a loopback port — the page loads, and a browser's
websocket gets the inspector's first screen (the app, not the disassembly a pipe would get)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest

from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.launch import on_terminal


@pytest.fixture(autouse=True, scope="module")
def serve_extra() -> None:
    """The serve extra, imported when a test of this file runs: not at collection, where
    every worker would pay for aiohttp's import."""
    pytest.importorskip("aiohttp", reason="the serve extra (textual-serve, aiohttp) is not installed")
    pytest.importorskip("textual_serve", reason="the serve extra (textual-serve) is not installed")


DEADLINE = 60.0
"""Seconds the server and the app get to answer on a loaded machine; the test waits on answers."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def first_screen(port: int) -> str:
    """The page's HTML, then the text the app draws into a browser's websocket until its
    first screen shows the instruction list."""
    import aiohttp

    async with aiohttp.ClientSession() as client:
        give_up = time.monotonic() + DEADLINE
        while True:
            try:
                async with client.get(f"http://127.0.0.1:{port}/") as response:
                    page = await response.text()
                    break
            except aiohttp.ClientConnectionError:
                if time.monotonic() > give_up:
                    raise
                await asyncio.sleep(0.1)
        assert "/ws" in page, "the page opens the app's websocket"
        drawn = ""
        async with client.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40") as websocket:
            await websocket.send_json(["resize", {"width": 120, "height": 40}])
            while "Instructions" not in drawn and time.monotonic() < give_up:
                try:
                    message = await websocket.receive(timeout=max(0.1, give_up - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if message.type == aiohttp.WSMsgType.BINARY:
                    drawn += message.data.decode("utf-8", "replace")
                elif message.type == aiohttp.WSMsgType.TEXT:
                    drawn += message.data
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
        return page + "\n" + drawn


def test_serve_shows_the_page_and_the_app_in_it():
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "spvinspect", "serve", str(EXAMPLE_MODULE), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        shown = asyncio.run(asyncio.wait_for(first_screen(port), DEADLINE + 10))
    finally:
        server.terminate()
        try:
            _, errors = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, errors = server.communicate()
    assert "spvinspect · example.spv" in shown, "the page is titled with the module"
    assert "Instructions" in shown and "OpCapability" in shown, f"the app's first screen: {shown[-2000:]!r}"
    assert "; SPIR-V" not in shown, "the app runs under the web driver instead of printing the disassembly"
    assert f"serving spvinspect · example.spv at http://127.0.0.1:{port}/" in errors


def test_serve_says_what_is_wrong_with_its_arguments(tmp_path):
    missing = subprocess.run([sys.executable, "-m", "spvinspect", "serve", str(tmp_path / "nope.spv")],
                             capture_output=True, text=True)
    assert missing.returncode == 1 and "nope.spv: no such file" in missing.stderr and "Traceback" not in missing.stderr
    port = subprocess.run([sys.executable, "-m", "spvinspect", "serve", "--port", "70000"], capture_output=True, text=True)
    assert port.returncode == 1 and "--port 70000: not a port" in port.stderr


def test_the_web_driver_counts_as_a_screen(monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert not on_terminal()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert on_terminal()
