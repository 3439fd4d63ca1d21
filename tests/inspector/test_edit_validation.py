"""spirv-val on each good re-assembly: messages on the instructions they name, or a clear
"validation is off" when it cannot run."""

from __future__ import annotations

import os
import stat

import pytest

from spvinspect.codec.binary.lazy import open_module
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.editing.session import EditSession
from spvinspect.editing.spirv_assembler import open_spirv_session
from spvinspect.editing.validation import parse_messages, validate, validator_path


def settled(session: EditSession) -> EditSession:
    while (job := session.request()) is not None:
        session.accept(job.run())
    return session


def made_invalid() -> tuple[EditSession, int]:
    """The example with an OpFMul whose result type no longer matches its operands."""
    session = settled(open_spirv_session(EXAMPLE_MODULE.read_bytes()))
    at = next(i for i, line in enumerate(session.lines) if "= OpFMul %v4float" in line)
    column = session.lines[at].index("%v4float")
    session.edit((at, column), (at, column + len("%v4float")), "%float")
    return settled(session), at


@pytest.mark.skipif(validator_path() is None, reason="spirv-val is not installed")
def test_an_edit_that_breaks_the_module_is_reported_on_its_line():
    session, at = made_invalid()
    assert session.assembles
    job = session.validation_job()
    assert job is not None and session.validation_job() is None  # once per binary
    assert session.accept_validation(job, job.run())
    assert not session.validation.valid
    (message,) = [m for m in session.messages() if m.diagnostic.message.startswith("spirv-val")]
    assert message.line == at
    assert "Result Type" in message.diagnostic.message
    module = open_module(session.binary)
    module.ensure_indexed()
    assert message.diagnostic.word_offset == module.offset(
        next(i for i in range(module.instruction_count) if module.instruction(i).opname == "OpFMul")
    )


@pytest.mark.skipif(validator_path() is None, reason="spirv-val is not installed")
def test_the_unedited_example_is_valid():
    session = settled(open_spirv_session(EXAMPLE_MODULE.read_bytes()))
    job = session.validation_job()
    assert session.accept_validation(job, job.run()) and session.validation.valid


def test_a_verdict_on_an_older_binary_is_dropped():
    session, at = made_invalid()
    job = session.validation_job()
    session.edit((at, 0), (at, 0), " ")
    settled(session)
    assert not session.accept_validation(job, job.run())
    assert session.validation is None


def test_a_missing_validator_turns_validation_off_and_nothing_else(tmp_path):
    session, _ = made_invalid()
    session.assembler.validator = str(tmp_path / "no-such-spirv-val")
    job = session.validation_job()
    assert session.accept_validation(job, job.run())
    assert session.validation.unavailable.startswith("validation is off")
    assert not session.validation.valid and session.assembles
    assert [m for m in session.messages() if "spirv-val" in m.diagnostic.message] == []


def test_a_validator_that_crashes_turns_validation_off(tmp_path):
    crashing = tmp_path / "spirv-val"
    crashing.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crashing.chmod(crashing.stat().st_mode | stat.S_IXUSR)
    verdict = validate(EXAMPLE_MODULE.read_bytes(), tool=os.fspath(crashing))
    assert verdict.unavailable is not None and "signal" in verdict.unavailable


def test_a_validator_still_running_when_the_app_quits_is_stopped(tmp_path):
    """spirv-val takes seconds on a huge module; quitting must not leave it running on
    (it outlived the app by 20 s and more, on a core the user's next run needs)."""
    import threading
    import time

    from spvinspect.editing import validation

    slow = tmp_path / "spirv-val"
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    slow.chmod(slow.stat().st_mode | stat.S_IXUSR)
    verdicts = []
    thread = threading.Thread(target=lambda: verdicts.append(validate(b"", tool=os.fspath(slow))))
    thread.start()
    while not validation.RUNNING and thread.is_alive():  # a condition, not a pause
        time.sleep(0.01)
    (process,) = list(validation.RUNNING)
    validation.stop_validators()
    thread.join()
    assert process.poll() is not None and not validation.RUNNING
    assert verdicts[0].unavailable == "validation is off: spirv-val was stopped (its verdict no longer wanted)"


def test_messages_are_read_with_their_instruction():
    output = "error: line 116: Expected arithmetic operands\n  %101 = OpFMul %float %96 %100\nwarning: no line\n"
    first, second = parse_messages(output)
    assert (first.instruction, first.shown) == (115, "%101 = OpFMul %float %96 %100")
    assert second.instruction is None and second.message == "no line"


def test_a_validation_ending_after_the_app_closed_is_dropped_not_raised():
    """Quitting while spirv-val runs: its verdict, or its failure, finds no app to tell;
    the job thread says nothing (it raised NoActiveAppError, printed as a traceback)."""
    from textual._context import NoActiveAppError

    from spvinspect.editing.validation import Validation
    from spvinspect.screens.editing import EditingController

    class ClosedScreen:
        @property
        def app(self):
            raise NoActiveAppError()

    class Job:
        def run(self) -> Validation:
            return Validation()

    controller = EditingController(ClosedScreen())
    controller._run_validation(Job(), None)
    controller._validation_failed(OSError("spirv-val went away"))
