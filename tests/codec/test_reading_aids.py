"""The reading aids of spirv-dis (`--comment`, `--nested-indent`, `--reorder-blocks`):
byte for byte what spirv-dis prints, and every row tied to its instruction."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import corpus_files, corpus_sample
from corruptions import corruptions
from every_opcode import sample_words
from oracle import first_difference, run_tool

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.model import Module
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.disassembler import Disassembler, DisassemblyOptions
from spvinspect.codec.text.listing import Listing
from spvinspect.codec.text.reading_aids import ALL_AIDS, ReadingAids, instruction_rows, reading_rows, rows_text
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE

ALL_AID_FLAGS = ["--comment", "--nested-indent", "--reorder-blocks"]
AID_FLAGS = (["--comment"], ["--nested-indent"], ["--reorder-blocks"], ALL_AID_FLAGS)
NAMING = ([], ["--raw-id"])


def options_for(flags: list[str]) -> DisassemblyOptions:
    """The disassembly options of spirv-dis's command-line flags."""
    return DisassemblyOptions(
        friendly_names="--raw-id" not in flags,
        header="--no-header" not in flags,
        indent="--no-indent" not in flags,
        offsets="--offsets" in flags,
    )


def ours(module: Module | Listing, flags: list[str]) -> bytes:
    """Our text for spirv-dis's command-line flags; a listing passed in must have the
    options of the flags."""
    listing = module if isinstance(module, Listing) else Listing(module, options=options_for(flags))
    aids = ReadingAids("--comment" in flags, "--nested-indent" in flags, "--reorder-blocks" in flags)
    return rows_text(reading_rows(listing, aids)).encode("utf-8", "surrogateescape")


def spirv_dis(source: Path | bytes, flags: list[str], check: bool = True) -> bytes:
    """spirv-dis's text for a file, or for a module's bytes given on standard input."""
    if isinstance(source, bytes):
        result = run_tool("spirv-dis", "--no-color", *flags, "-", input=source)
    else:
        result = run_tool("spirv-dis", "--no-color", *flags, str(source))
    assert result.returncode == 0 or not check, result.stderr.decode()
    return result.stdout


@pytest.fixture(scope="module")
def decoded() -> dict[Path, Module]:
    """Every corpus module, decoded once for all the tests here."""
    files = corpus_files("spv")
    if not files:
        pytest.skip("SPVINSPECT_CORPUS is not set: corpus tests skipped")
    return {path: decode(path.read_bytes()) for path in files}


def assert_all_match(pairs, flag_sets) -> None:
    failures = []
    for path, module in pairs:
        listings: dict[DisassemblyOptions, Listing] = {}
        for flags in flag_sets:
            options = options_for(flags)
            if options not in listings:
                listings[options] = Listing(module, options=options)
            listing = listings[options]
            expected, actual = spirv_dis(path, flags), ours(listing, flags)
            if actual != expected:
                failures.append(f"{path.name} {' '.join(flags)}: {first_difference(expected, actual)}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("naming", NAMING, ids=["friendly", "raw-id"])
def test_corpus_matches_spirv_dis_with_each_aid_and_all_three(decoded, naming):
    """Friendly names over every other module (the plain listing's differential test has
    them all); raw ids (the same layout, other names) over the sample."""
    pairs = list(decoded.items())[::2]
    if naming:
        pairs = [(path, decoded[path]) for path in corpus_sample(list(decoded))]
    assert_all_match(pairs, [[*flags, *naming] for flags in AID_FLAGS])


def test_aids_with_offsets_no_indent_and_no_header_match_spirv_dis(decoded):
    flag_sets = [
        ["--comment", "--offsets"],
        ["--nested-indent", "--reorder-blocks", "--offsets", "--raw-id"],
        ["--comment", "--nested-indent", "--no-indent", "--no-header"],
        ["--comment", "--nested-indent", "--reorder-blocks", "--offsets", "--no-indent", "--raw-id"],
    ]
    assert_all_match(list(decoded.items())[::8], flag_sets)


def test_every_instruction_has_exactly_one_row_holding_its_text(decoded):
    for path, module in decoded.items():
        listing = Listing(module)
        rows = reading_rows(listing, ALL_AIDS)
        shown = sorted(row.instruction for row in rows if row.instruction is not None)
        assert shown == list(range(len(module.instructions))), path.name
        row_of = instruction_rows(rows)
        for index, inst in enumerate(module.instructions):
            row = rows[row_of[index]]
            assert row.instruction == index, f"{path.name}: {row}"
            assert listing.instruction_text(inst) in row.text, f"{path.name}: {row}"
        for row in rows:
            if row.instruction is None:
                assert row.text == "" or row.text.lstrip().startswith("; "), f"{path.name}: {row.text!r}"


def test_a_module_opened_lazily_gives_the_same_rows(decoded):
    for path, module in list(decoded.items())[::25]:
        lazy = open_module(path.read_bytes())
        assert reading_rows(Listing(lazy), ALL_AIDS) == reading_rows(Listing(module), ALL_AIDS), path.name


def test_without_aids_the_rows_are_the_plain_disassembly(decoded):
    plain = (DisassemblyOptions(), DisassemblyOptions(friendly_names=False, offsets=True))
    for module in list(decoded.values())[::10]:
        for options in plain:
            rows = reading_rows(Listing(module, options=options), ReadingAids())
            assert [row.text for row in rows] == Disassembler(module, options).lines()


def test_lossless_rows_keep_the_raw_header_and_tail(corpus):
    """Broken modules in lossless form: without aids exactly `dis --lossless`; with them
    the same header comments and raw tail around the instructions."""
    options = DisassemblyOptions(lossless=True)
    for number, path in enumerate(corpus_files("spv")[::40]):
        for case in corruptions(path.read_bytes(), number):
            module = decode(case.data)
            listing = Listing(module, options=options)
            lines = Disassembler(module, options).lines()
            assert [row.text for row in reading_rows(listing, ReadingAids())] == lines
            rows = reading_rows(listing, ALL_AIDS)
            header, tail = listing.header_lines(), listing.tail_lines()
            assert [row.text for row in rows[: len(header)]] == header
            assert [row.text for row in rows[len(rows) - len(tail):]] == tail
            assert sorted(r.instruction for r in rows if r.instruction is not None) == list(
                range(len(module.instructions))
            )


def test_broken_modules_print_what_spirv_dis_prints_and_go_on(corpus):
    """spirv-dis stops at the first fault, and with the aids it holds back the blocks of
    the function it was reading; what it printed must begin our text, wherever the plain
    disassembly agrees with it that far (raw ids: names past a fault differ by design)."""
    flags = ["--raw-id", "--comment", "--nested-indent", "--reorder-blocks", "--offsets"]
    compared = 0
    for number, path in enumerate(corpus_files("spv")[::40]):
        for case in corruptions(path.read_bytes(), number):
            module = decode(case.data)
            plain = spirv_dis(case.data, ["--raw-id"], check=False)
            ours_plain = Disassembler(module, DisassemblyOptions(friendly_names=False)).text()
            if not plain or not ours_plain.encode("utf-8", "surrogateescape").startswith(plain):
                continue
            expected = spirv_dis(case.data, flags, check=False)
            actual = ours(module, flags)
            difference = first_difference(expected, actual)
            assert actual.startswith(expected), f"{path.name}, {case.name}: {difference}"
            compared += 1
    assert compared > 50


def section_comments(text: bytes) -> list[bytes]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith(b"; ")]


def test_which_instructions_open_a_section_follows_spirv_dis():
    """Types, annotations and debug instructions, each first in its own module."""
    grammar = load_grammar()
    candidates = [
        desc for name, desc in sorted(grammar.by_name.items())
        if name == desc.opname
        and (name.startswith("OpType") or desc.opclass in ("Annotation", "Debug", "Type-Declaration"))
    ]
    assert len(candidates) > 60
    failures = []
    for desc in candidates:
        words = [w for o in desc.operands if o.kind != "IdResult" for w in sample_words(o.kind, 0, grammar)]
        line = " ".join([desc.opname, *words])
        text = "OpCapability Shader\n" + (f"%r = {line}" if desc.has_result else line)
        result = assemble(text + "\n")
        assert result.ok, f"{text}: {result.diagnostics[:1]}"
        expected = section_comments(spirv_dis(result.binary, ["--comment"]))
        actual = section_comments(ours(decode(result.binary), ["--comment"]))
        if actual != expected:
            failures.append(f"{desc.opname}: spirv-dis {expected}, ours {actual}")
    assert not failures, "\n".join(failures)


UNPRINTABLE_FOR_SPIRV_DIS = """OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpName %9 "ext"
OpDecorate %9 LinkageAttributes "ext" Import
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%9 = OpFunction %2 None %3
OpFunctionEnd
%1 = OpFunction %2 None %3
%4 = OpLabel
OpBranch %3
%6 = OpLabel
OpReturn
OpFunctionEnd
%8 = OpFunction %2 None %3
%10 = OpLabel
OpReturn
"""

SHOWN_WHOLE = """
               ; Function ext
        %ext = OpFunction %void None %3             ; LinkageAttributes "ext" Import
               OpFunctionEnd


               ; Function 1
          %1 = OpFunction %void None %3

          %4 = OpLabel
                 OpBranch %3

          %6 = OpLabel
                 OpReturn
               OpFunctionEnd


               ; Function 8
          %8 = OpFunction %void None %3

         %10 = OpLabel
                 OpReturn
"""


def test_what_spirv_dis_crashes_on_or_drops_is_shown_whole():
    """A function without blocks (spirv-dis crashes), a branch to an id that is not a
    block (spirv-dis aborts), and a function cut short (spirv-dis drops its blocks)."""
    result = assemble(UNPRINTABLE_FOR_SPIRV_DIS, preserve_numeric_ids=True)
    assert result.ok, result.diagnostics
    module = decode(result.binary)
    rows = reading_rows(Listing(module, options=DisassemblyOptions(header=False)), ALL_AIDS)
    shown = sorted(r.instruction for r in rows if r.instruction is not None)
    assert shown == list(range(len(module.instructions)))
    assert rows_text(rows).endswith(SHOWN_WHOLE)


def test_dis_command_prints_the_reading_aids(capsysbinary):
    flags = ["--comment", "--nested-indent", "--reorder-blocks", "--offsets"]
    capsysbinary.readouterr()
    assert main(["dis", *flags, str(EXAMPLE_MODULE)]) == 0
    actual = capsysbinary.readouterr().out
    expected = spirv_dis(EXAMPLE_MODULE.read_bytes(), flags)
    assert actual == expected, first_difference(expected, actual)


def test_dis_command_refuses_reordered_blocks_in_lossless_form(capsysbinary):
    capsysbinary.readouterr()
    assert main(["dis", "--lossless", "--reorder-blocks", str(EXAMPLE_MODULE)]) == 2
    err = capsysbinary.readouterr().err.decode()
    assert "--lossless" in err and "--reorder-blocks" in err


def test_lossless_text_with_comments_and_nesting_assembles_to_the_same_bytes(corpus):
    options = DisassemblyOptions(lossless=True)
    aids = ReadingAids(comment=True, nested_indent=True)
    for number, path in enumerate(corpus_files("spv")[::40]):
        for data in (path.read_bytes(), *(case.data for case in corruptions(path.read_bytes(), number))):
            dis = Disassembler(decode(data), options)
            result = assemble(rows_text(reading_rows(dis.listing, aids)), id_hints=dis.id_hints())
            assert result.ok and result.binary == data, f"{path.name}: {result.diagnostics[:1]}"
