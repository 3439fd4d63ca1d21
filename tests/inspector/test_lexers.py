"""The SPIR-V and Lima Pygments lexers: every corpus text lexes without errors, the
SPIR-V tokens fall exactly on the parts of a disassembled line, every Lima op is coloured
by the unit that runs it, and both are reachable as Pygments plugins."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Punctuation, Whitespace

from spvinspect import lima
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.disassembler import disassemble
from spvinspect.codec.text.listing import DisassemblyOptions, Listing, Role
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.lexers import LimaLexer, SpirvLexer
from spvinspect.lexers.spirv import spirv_tokens
from spvinspect.themes.tokens import LIMA_CONTROL, LIMA_UNIT_TOKENS, ROLE_TOKENS

TESTS = Path(__file__).parents[1]
sys.path.insert(0, str(TESTS / "codec"))
sys.path.insert(0, str(TESTS / "lima"))

from corruptions import corruptions  # noqa: E402
from oracle import corpus_dir, corpus_sample  # noqa: E402
from lima_words import (  # noqa: E402
    BRANCH, COMBINE, CONST0, CONST1, FLOAT_ACC, FLOAT_MUL, MESA_FIELD_SIZES, REAL_INSTRUCTION, SAMPLER,
    TEMP_WRITE, UNIFORM, VARYING, VEC4_ACC, VEC4_MUL, instruction,
)

CORPUS = corpus_dir()
ALL_ASM = sorted((CORPUS / "asm").iterdir()) if CORPUS else []
ASM = [p for p in ALL_ASM if p.suffix != ".hlsl"]
NOT_ASSEMBLY = [p for p in ALL_ASM if p.suffix == ".hlsl"]
SPV = sorted((CORPUS / "spv").glob("*.spv")) if CORPUS else []
NOT_SET = "SPVINSPECT_CORPUS is not set: corpus tests skipped"
BLANK_ROLES = {Role.INDENT, Role.SPACE}


def role_of(token) -> Role | str:
    """The listing role a token stands for: the role of its nearest ancestor in ROLE_TOKENS;
    "blank" for blanks, "punctuation" for the commas and parentheses spirv-as reads as
    empty words."""
    if token in Punctuation:
        return "punctuation"
    candidates = [(len(t), role) for role, t in ROLE_TOKENS.items() if token in t]
    assert candidates, f"token {token} stands for no listing role"
    role = max(candidates)[1]
    return "blank" if role in BLANK_ROLES else role


def lexed_parts(line: str) -> list[tuple[str, Role | str]]:
    """(text, role) of the lexer's tokens on one line, touching tokens of one role
    joined (a string and its escapes), blanks dropped."""
    parts: list[tuple[str, Role | str]] = []
    end = -1
    for start, token, text in spirv_tokens(line):
        role = role_of(token)
        if role != "blank":
            if parts and parts[-1][1] == role and start == end:
                parts[-1] = (parts[-1][0] + text, role)
            else:
                parts.append((text, role))
            end = start + len(text)
    return parts


def listing_parts(listing: Listing, index: int) -> list[tuple[str, Role]]:
    """(text, role) of the listing's segments for one instruction, blanks dropped; the
    ` = ` segment without its blanks."""
    return [(s.text.strip(), s.role) for s in listing.segments(index) if s.role not in BLANK_ROLES]


def check_module_lines(data: bytes, options: DisassemblyOptions = DisassemblyOptions()) -> None:
    """Every token of every line lies in one segment of the listing and has its role."""
    module = open_module(data)
    module.ensure_indexed()
    for friendly in (True, False):
        listing = Listing(module, options=replace(options, friendly_names=friendly))
        for index in range(module.instruction_count):
            line = listing.line(index)
            assert lexed_parts(line) == listing_parts(listing, index), line


def test_example_module_lines_split_into_their_segments() -> None:
    check_module_lines(EXAMPLE_MODULE.read_bytes())


@pytest.mark.parametrize("seed", range(4))
def test_lossless_lines_of_broken_modules_split_into_their_segments(seed) -> None:
    """Raw words (`!0x…`) and `OpUnknown(opcode, word count)` included."""
    for case in corruptions(EXAMPLE_MODULE.read_bytes(), seed):
        check_module_lines(case.data, DisassemblyOptions(lossless=True))


@pytest.mark.skipif(not SPV, reason=NOT_SET)
@pytest.mark.parametrize("path", corpus_sample(SPV), ids=[p.name for p in corpus_sample(SPV)])
def test_corpus_module_lines_split_into_their_segments(path: Path) -> None:
    check_module_lines(path.read_bytes())


@pytest.mark.skipif(not ASM, reason=NOT_SET)
def test_corpus_assembly_lexes_without_errors() -> None:
    """Every assembly file of the corpus in one test (a test per file cost more in pytest's
    per-test overhead than the lexing): its tokens give back its text, none is an error."""
    failures = []
    for path in ASM:
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        tokens = list(spirv_tokens(text))
        if "".join(t for _, _, t in tokens) != text:
            failures.append(f"{path.name}: the tokens do not give back the text")
        errors = [(text.count("\n", 0, start) + 1, word) for start, token, word in tokens if token is Error]
        if errors:
            failures.append(f"{path.name}: Error tokens (line, word): {errors[:5]}")
    assert not failures, f"{len(failures)} of {len(ASM)} files:\n" + "\n".join(failures[:10])


@pytest.mark.skipif(not NOT_ASSEMBLY, reason=NOT_SET)
def test_hlsl_source_in_the_corpus_is_flagged() -> None:
    """The one corpus file that is HLSL, not assembly, shows errors where it is not assembly."""
    text = NOT_ASSEMBLY[0].read_text()
    errors = {word for _, token, word in spirv_tokens(text) if token is Error}
    assert {"//", "{", "}"} <= errors


@pytest.mark.parametrize("seed", range(4))
def test_lossless_text_of_broken_modules_lexes_without_errors(seed) -> None:
    """The whole text: header comments, lines, and the raw tail."""
    for case in corruptions(EXAMPLE_MODULE.read_bytes(), seed):
        text = disassemble(decode(case.data), DisassemblyOptions(lossless=True))
        errors = [word for _, token, word in spirv_tokens(text) if token is Error]
        assert not errors, f"{case.name}: {errors[:5]}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '%str = OpString "a \\"quoted\\" \\\\ path"',
            [("%str", "result_id"), ("=", "equals"), ("OpString", "opcode"), ('"a \\"quoted\\" \\\\ path"', "string")],
        ),
        (
            "%inf = OpConstant %float 0x1p+128 ; infinity",
            [("%inf", "result_id"), ("=", "equals"), ("OpConstant", "opcode"), ("%float", "type_id"),
             ("0x1p+128", "literal"), ("; infinity", "comment")],
        ),
        (
            "OpLoopMerge %merge %cont Unroll|DependencyLength 4",
            [("OpLoopMerge", "opcode"), ("%merge", "id"), ("%cont", "id"), ("Unroll|DependencyLength", "enum"),
             ("4", "literal")],
        ),
        ("OpUnknown(12, 3) !0x00000001 !7", [("OpUnknown(12, 3)", "opcode"), ("!0x00000001", "raw"), ("!7", "raw")]),
        ("OpUnknown(12 3)", [("OpUnknown", "opcode"), ("(", "punctuation"), ("12", "literal"), ("3", "literal"),
                             (")", "punctuation")]),
        ("%x = OpTypeImage %float 2D 0 0 0 1 Unknown",
         [("%x", "result_id"), ("=", "equals"), ("OpTypeImage", "opcode"), ("%float", "id"), ("2D", "enum"),
          ("0", "literal"), ("0", "literal"), ("0", "literal"), ("1", "literal"), ("Unknown", "enum")]),
        ("%n = OpConstant %double -1.5e-07", [("%n", "result_id"), ("=", "equals"), ("OpConstant", "opcode"),
                                               ("%double", "type_id"), ("-1.5e-07", "literal")]),
    ],
)
def test_hand_written_lines(text, expected) -> None:
    assert lexed_parts(text) == expected


def test_result_id_and_equals_may_be_on_different_lines() -> None:
    tokens = [(token, word) for _, token, word in spirv_tokens("%a\n  = OpTypeVoid") if token is not Whitespace]
    assert [role_of(t) for t, _ in tokens] == ["result_id", "equals", "opcode"]


def test_words_that_are_no_assembly_are_errors() -> None:
    text = 'OpName %x {y} "unterminated\n  OpNop'
    errors = [w for _, token, w in spirv_tokens(text) if token is Error]
    assert errors == ["{y}", '"unterminated\n  OpNop'], "as in spirv-as, an open quote runs to the end"


def test_pygments_finds_the_lexers_by_name_and_file_name() -> None:
    assert type(get_lexer_by_name("spirv")) is SpirvLexer
    assert type(get_lexer_by_name("spvasm")) is SpirvLexer
    assert type(get_lexer_for_filename("shader.spvasm")) is SpirvLexer
    assert type(get_lexer_by_name("lima")) is LimaLexer


def test_pygmentize_highlights_a_file(tmp_path) -> None:
    """`pygmentize -l spirv FILE` outside the app (the plugin entry points after `pip install -e .`)."""
    source = tmp_path / "example.spvasm"
    source.write_text(disassemble(decode(EXAMPLE_MODULE.read_bytes())))
    result = subprocess.run(
        [sys.executable, "-m", "pygments", "-l", "spirv", "-f", "html", "-O", "style=spvinspect-light", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '<span class="nf">%main</span>' in result.stdout
    assert '<span class="k">OpFunction</span>' in result.stdout
    assert 'class="err"' not in result.stdout


# --- Lima -------------------------------------------------------------------------------

FIELD_UNITS = {
    VARYING: {"varying"},
    SAMPLER: {"texture"},
    UNIFORM: {"uniform", "temporary"},  # `load.t` when the source is the temporaries
    VEC4_MUL: {"vec4-mul"},
    FLOAT_MUL: {"scalar-mul"},
    VEC4_ACC: {"vec4-add"},
    FLOAT_ACC: {"scalar-add"},
    COMBINE: {"complex"},
    TEMP_WRITE: {"temporary"},
    BRANCH: {"branch"},
    CONST0: {"constant"},
    CONST1: {"constant"},
}
UNIT_OF_TOKEN = {token: unit for unit, token in LIMA_UNIT_TOKENS.items()}


def lima_texts(words: list[int]) -> list[str]:
    """The program in the seed-004 syntax and in Mesa's."""
    program = lima.decode_words(words)
    return ["\n".join(lima.seed_lines(program)), "\n".join(lima.mesa_line(i) for i in program.instructions)]


def lima_errors(text: str) -> list[str]:
    tokens = list(LimaLexer().get_tokens_unprocessed(text))
    assert "".join(t for _, _, t in tokens) == text
    return [word for _, token, word in tokens if token is Error]


fields = st.dictionaries(
    st.sampled_from(range(len(MESA_FIELD_SIZES))),
    st.integers(0, 2**73 - 1),
    min_size=0,
    max_size=12,
).map(lambda chosen: {k: v % (1 << MESA_FIELD_SIZES[k]) for k, v in chosen.items()})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(fields, st.booleans(), st.booleans()), min_size=1, max_size=4))
def test_lima_disassembly_of_generated_programs_lexes_without_errors(instructions) -> None:
    words = [w for chosen, stop, sync in instructions for w in instruction(chosen, stop=stop, sync=sync)]
    for text in lima_texts(words):
        assert not lima_errors(text), text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(MESA_FIELD_SIZES))).flatmap(
    lambda k: st.tuples(st.just(k), st.integers(0, (1 << MESA_FIELD_SIZES[k]) - 1))))
def test_lima_ops_are_coloured_by_their_unit(field) -> None:
    index, raw = field
    for text in lima_texts(instruction({index: raw})):
        ops = [t for _, t, w in LimaLexer().get_tokens_unprocessed(text) if t in UNIT_OF_TOKEN]
        assert len(ops) == 1 and UNIT_OF_TOKEN[ops[0]] in FIELD_UNITS[index], text


def test_lima_labels_controls_and_comments() -> None:
    source = "start:\nstop, sync, mov.v0 $0 ^const0.xxxx, # halt\n  branch start, const0 1.0 0.0 0.0 -1.678\n"
    words, diagnostics = lima.assemble(source)
    assert words is not None, diagnostics
    assert not lima_errors(source)
    tokens = {w: t for _, t, w in LimaLexer().get_tokens_unprocessed(source) if t is not Whitespace}
    assert tokens["stop"] is tokens["sync"] is LIMA_CONTROL
    assert UNIT_OF_TOKEN[tokens["mov.v0"]] == "vec4-mul"
    assert UNIT_OF_TOKEN[tokens["branch"]] == "branch"
    for text in lima_texts(words + REAL_INSTRUCTION):
        assert not lima_errors(text)
    assert "L0:" in lima_texts(words)[0]
