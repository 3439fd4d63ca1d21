"""`spvinspect as FILE --ids-from ORIGINAL.spv`: friendly-name text keeps the original's ids."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import corpus_files

from spvinspect.codec.binary.decoder import decode
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE

SPV_FILES = corpus_files("spv", "*.spv")


def dis_then_as(original: Path, tmp: Path, edit=lambda text: text) -> bytes:
    """What a user does: `dis` (friendly names) to a file, edit it, `as --ids-from`."""
    text_path, out = tmp / "m.spvasm", tmp / "m.spv"
    assert main(["dis", str(original), "-o", str(text_path)]) == 0
    text_path.write_text(edit(text_path.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["as", str(text_path), "--ids-from", str(original), "-o", str(out)]) == 0
    return out.read_bytes()


@pytest.mark.skipif(not SPV_FILES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
def test_every_corpus_module_comes_back_byte_for_byte(tmp_path):
    different = [path.name for path in SPV_FILES if dis_then_as(path, tmp_path) != path.read_bytes()]
    assert not different, f"{len(different)} of {len(SPV_FILES)} modules changed: {different[:5]}"


def test_without_ids_from_friendly_names_are_renumbered(tmp_path):
    """The reason for the option: plain `as` numbers names in order of appearance."""
    text_path, out = tmp_path / "m.spvasm", tmp_path / "m.spv"
    main(["dis", str(EXAMPLE_MODULE), "-o", str(text_path)])
    assert main(["as", str(text_path), "-o", str(out)]) == 0
    assert out.read_bytes() != Path(EXAMPLE_MODULE).read_bytes()


def test_an_edited_literal_changes_only_its_word(tmp_path):
    original = Path(EXAMPLE_MODULE).read_bytes()
    text = (tmp_path / "probe.spvasm")
    main(["dis", str(EXAMPLE_MODULE), "-o", str(text)])
    literal_line = next(
        line for line in text.read_text().splitlines() if "OpConstant %float " in line
    )
    value = literal_line.rsplit(" ", 1)[1]
    edited_line = literal_line.rsplit(" ", 1)[0] + " 12345"
    assert value != "12345"
    new = dis_then_as(Path(EXAMPLE_MODULE), tmp_path, lambda t: t.replace(literal_line, edited_line, 1))
    assert len(new) == len(original)
    changed = [i for i in range(0, len(new), 4) if new[i : i + 4] != original[i : i + 4]]
    assert len(changed) == 1
    at = changed[0] // 4
    inst = next(i for i in decode(new).instructions if i.offset < at < i.offset + i.word_count)
    assert inst.opname == "OpConstant" and inst.operands[-1].value == 0x4640E400  # 12345.0f


def test_an_unreadable_original_is_one_line_on_stderr(tmp_path, capsys):
    text_path = tmp_path / "m.spvasm"
    main(["dis", str(EXAMPLE_MODULE), "-o", str(text_path)])
    capsys.readouterr()
    assert main(["as", str(text_path), "--ids-from", str(tmp_path / "missing.spv"), "-o", "-"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.spv" in err and "cannot read" in err


def test_an_original_without_a_header_is_refused(tmp_path, capsys):
    text_path, short = tmp_path / "m.spvasm", tmp_path / "short.spv"
    main(["dis", str(EXAMPLE_MODULE), "-o", str(text_path)])
    short.write_bytes(b"\x03\x02\x23\x07")
    capsys.readouterr()
    assert main(["as", str(text_path), "--ids-from", str(short), "-o", "-"]) == 1
    assert "no SPIR-V header" in capsys.readouterr().err
