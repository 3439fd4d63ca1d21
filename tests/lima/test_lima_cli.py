"""`spvinspect lima dis|as|explain` as a user runs them."""

from __future__ import annotations

import io
import sys

import pytest
from lima_words import REAL_INSTRUCTION, mbs_file, to_bytes

from spvinspect import lima
from spvinspect.cli import main


@pytest.fixture
def shader(tmp_path):
    """A raw file holding the real instruction from ENCODING.md."""
    path = tmp_path / "shader.bin"
    path.write_bytes(to_bytes(REAL_INSTRUCTION))
    return str(path)


def test_dis_prints_the_proposed_syntax(cli, shader):
    assert cli("lima", "dis", shader) == (0, "stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.678\n", "")


def test_dis_mesa_style(cli, shader):
    code, out, _ = cli("lima", "dis", "--style", "mesa", shader)
    assert code == 0
    assert out == "mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop\n"


def test_dis_of_an_mbs_file_shows_the_chunks_as_comments(cli, tmp_path):
    path = tmp_path / "shader.mbs"
    path.write_bytes(mbs_file(REAL_INSTRUCTION))
    code, out, _ = cli("lima", "dis", str(path))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("# MBS1 at byte 0x0, ")
    assert "#   CFRA at byte 0x8, " in out
    assert "#     version = 7 (Mali-400 PP) (byte 0x10)" in lines
    assert "#   CVER at byte" in out
    assert lines[-1] == "stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.678"


def test_dis_reports_bad_input_with_word_offsets(cli, tmp_path):
    path = tmp_path / "broken.bin"
    path.write_bytes(to_bytes(REAL_INSTRUCTION + [0x00000009, 0]))
    code, out, err = cli("lima", "dis", str(path))
    assert code == 1
    assert out.splitlines()[0].startswith("stop, mov.v0")
    assert "# word 5: 0x00000009 (not decoded)" in out
    assert err == f"{path}:word 5: error: instruction 1 claims 9 words but the stream ends at word 7, 2 words after it\n"


def test_explain_lists_every_range_with_offsets(cli, shader):
    code, out, _ = cli("lima", "explain", shader)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "instruction 0 at word 0 (5 words): 00020425 0000000c 01e007cf b0000000 000005f5"
    op = next(line for line in lines if " op " in line)
    assert op.split() == ["word", "2", "bits", "70-74", "vec4_mul", "38-42", "op", "0x1f", "mov"]
    # 7 control ranges, 12 vec4_mul ranges, 4 constants, 1 padding
    assert len(lines) == 1 + 7 + 12 + 4 + 1


def test_as_writes_the_words(cli, tmp_path):
    source = tmp_path / "shader.s"
    source.write_text("stop, mov.v0 $0 ^const0.xxxx {arg0_swizzle=0}, const0 1.0 0.0 0.0 -1.678\n")
    out = tmp_path / "shader.bin"
    assert cli("lima", "as", str(source), "-o", str(out)) == (0, "", "")
    assert out.read_bytes() == to_bytes(REAL_INSTRUCTION)


def test_as_with_errors_writes_nothing_and_keeps_existing_output(cli, tmp_path):
    source = tmp_path / "shader.s"
    source.write_text("stop, mov.v0 ^const0.yyyx $0\n")
    out = tmp_path / "shader.bin"
    out.write_bytes(b"user data")
    code, stdout, err = cli("lima", "as", str(source), "-o", str(out))
    assert (code, stdout) == (1, "")
    assert err.startswith(f"{source}:1:14: error: the destination comes first")
    assert out.read_bytes() == b"user data"


def test_as_reads_stdin_and_writes_stdout(monkeypatch, capsysbinary):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"stop, discard\n")))
    assert main(["lima", "as", "-", "-o", "-"]) == 0
    # count 4 (control word + 73 branch bits), stop, presence bit 9; then the discard bits
    assert capsysbinary.readouterr().out == to_bytes([0x00010024, 0x007F0003, 0, 0])


def test_missing_file(cli, tmp_path):
    code, out, err = cli("lima", "explain", str(tmp_path / "absent.bin"))
    assert (code, out) == (1, "")
    assert err == f"{tmp_path / 'absent.bin'}: error: cannot read: No such file or directory\n"


def test_as_never_writes_a_raw_stream_under_an_mbs_name(cli, tmp_path):
    source = tmp_path / "shader.s"
    source.write_text("stop, mov.v0 $0 $1\n")
    out = tmp_path / "shader.mbs"
    code, stdout, err = cli("lima", "as", str(source), "-o", str(out))
    assert (code, stdout) == (1, "")
    assert "an MBS container" in err and "--container" in err
    assert not out.exists()


def test_as_with_a_container_writes_it_with_the_new_code(cli, tmp_path):
    container = tmp_path / "original.mbs"
    container.write_bytes(mbs_file(REAL_INSTRUCTION))
    source = tmp_path / "shader.s"
    source.write_text("mov.v0 $0 $1\nstop, mov.v0 $1 $0\n")
    out = tmp_path / "shader.mbs"
    assert cli("lima", "as", str(source), "--container", str(container), "-o", str(out)) == (0, "", "")
    program = lima.decode(out.read_bytes())
    assert out.read_bytes().startswith(b"MBS1") and len(program.instructions) == 2 and not program.diagnostics
    code, _, err = cli("lima", "as", str(source), "--container", str(source), "-o", str(out))
    assert code == 1 and "not an MBS container" in err
