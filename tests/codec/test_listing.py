"""Lines as segments: every line of `spvinspect dis`, each piece tied to its operand."""

from __future__ import annotations

import random
import struct

import pytest
from oracle import corpus_files, corpus_sample
from corruptions import corruptions

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.model import Instruction
from spvinspect.codec.text.disassembler import Disassembler, DisassemblyOptions, disassemble
from spvinspect.codec.text.listing import Listing, Role, Segment, operand_role
from spvinspect.codec.text.names import NameMap, module_names
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE

FRIENDLY = DisassemblyOptions()
RAW = DisassemblyOptions(friendly_names=False)
LAYOUT_ROLES = {Role.INDENT, Role.EQUALS, Role.OPCODE, Role.SPACE}


def listing_text(data: bytes, options: DisassemblyOptions) -> tuple[Listing, list[str]]:
    """A fresh lazy module's listing, and every instruction line it renders, in order."""
    module = open_module(data)
    listing = Listing(module, module_names(module, options.friendly_names), options)
    module.ensure_indexed()
    return listing, [listing.line(i) for i in range(module.instruction_count)]


def assert_roles_match_operands(segments: tuple[Segment, ...], inst: Instruction, names: NameMap) -> None:
    """Each piece shows what the instruction's operands are, in order, once each."""
    assert all(s.operand is None for s in segments if s.role in LAYOUT_ROLES)
    tied = [s for s in segments if s.role not in LAYOUT_ROLES]
    assert all(s.operand is not None for s in tied), segments
    if tied and all(s.role is Role.RAW for s in tied) and inst.opname not in {s.text for s in segments}:
        # Written whole as OpUnknown: one raw word per segment, covering every word.
        words = [w for s in tied for w in range(inst.operands[s.operand].offset, inst.operands[s.operand].end)]
        assert sorted(set(words)) == list(range(inst.offset + 1, inst.end)), segments
        return
    shown = [k for k, o in enumerate(inst.operands) if o.kind == "IdResult"]
    shown += [k for k, o in enumerate(inst.operands) if o.kind != "IdResult"]
    assert [s.operand for s in tied] == shown, segments
    for segment in tied:
        operand = inst.operands[segment.operand]
        assert segment.role is operand_role(operand.kind), (segment, operand)
        if segment.role in (Role.ID, Role.TYPE_ID, Role.RESULT_ID):
            assert segment.text == "%" + names.name(operand.value)  # type: ignore[arg-type]


def check_module(data: bytes, name: str) -> None:
    eager = decode(data)
    for options in (FRIENDLY, RAW):
        listing, lines = listing_text(data, options)
        text = disassemble(open_module(data), options)
        expected = "".join(line + "\n" for line in [*listing.header_lines(), *lines])
        assert text == expected, f"{name}: the segments differ from spvinspect dis"
        for index, inst in enumerate(eager.instructions):
            assert_roles_match_operands(listing.segments(index), inst, listing.names)


def test_example_module_segments_make_its_dis_lines(capsys):
    data = EXAMPLE_MODULE.read_bytes()
    check_module(data, "example")
    assert main(["dis", str(EXAMPLE_MODULE)]) == 0
    printed = capsys.readouterr().out
    listing, lines = listing_text(data, FRIENDLY)
    assert printed == "".join(line + "\n" for line in [*listing.header_lines(), *lines])


def test_segments_of_a_line_say_what_each_piece_is():
    module = open_module(EXAMPLE_MODULE.read_bytes())
    listing = Listing(module, module_names(module))
    index = next(i for i in range(200) if module.instruction(i).opname == "OpTypePointer")
    segments = [s for s in listing.segments(index) if s.role is not Role.INDENT]
    assert [s.role for s in segments] == [
        Role.RESULT_ID, Role.EQUALS, Role.OPCODE, Role.SPACE, Role.ENUM, Role.SPACE, Role.ID
    ]
    assert segments[0].text.startswith("%_ptr_") and segments[0].operand == 0
    assert [s.operand for s in segments] == [0, None, None, None, 1, None, 2]


def test_every_corpus_line_is_its_segments(spv_modules):
    for path in corpus_sample(spv_modules):
        check_module(path.read_bytes(), path.name)


def test_broken_modules_lines_are_their_segments():
    data = EXAMPLE_MODULE.read_bytes()
    for seed in range(3):
        for case in corruptions(data, seed):
            check_module(case.data, case.name)
            lossless = DisassemblyOptions(lossless=True)
            module = open_module(case.data)
            listing = Listing(module, None, lossless)
            lines = [listing.line(i) for i in range(module.instruction_count)]
            expected = [*listing.header_lines(), *lines, *listing.tail_lines()]
            assert disassemble(decode(case.data), lossless) == "".join(line + "\n" for line in expected), case.name


@pytest.mark.parametrize("options", [FRIENDLY, RAW], ids=["friendly", "raw"])
def test_lines_rendered_out_of_order_equal_lines_rendered_in_order(corpus, options):
    rng = random.Random(7)
    for path in corpus_files("spv")[::9] + [EXAMPLE_MODULE]:
        data = path.read_bytes()
        _, in_order = listing_text(data, options)
        module = open_module(data)
        listing = Listing(module, module_names(module, options.friendly_names), options)
        order = list(range(len(in_order)))
        rng.shuffle(order)
        assert {i: listing.line(i) for i in order} == dict(enumerate(in_order)), path.name


def test_a_line_is_made_without_decoding_the_lines_before_it(decoded):
    data = EXAMPLE_MODULE.read_bytes()
    expected = Disassembler(decode(data), RAW).lines()[-1]
    decoded.clear()
    module = open_module(data)
    listing = Listing(module, module_names(module, False))
    module.ensure_indexed()
    last = module.instruction_count - 1
    assert listing.line(last) == expected
    assert min(decoded) >= module.offset(last - last % 8)


def test_offsets_column_stays_the_whole_text_s():
    data = EXAMPLE_MODULE.read_bytes()
    with_offsets = DisassemblyOptions(offsets=True)
    lazy = disassemble(open_module(data), with_offsets)
    assert lazy == disassemble(decode(data), with_offsets)
    listing, lines = listing_text(data, FRIENDLY)
    body = lazy.splitlines()[len(listing.header_lines()) :]
    assert body[0].startswith(lines[0]) and "; 0x00000014" in body[0]


def test_unknown_opcode_is_one_raw_segment_per_word():
    words = [0x07230203, 0x00010500, 0, 10, 0, 0x00020011, 1, 0x0003FFF0, 7, 8]
    module = open_module(struct.pack(f"<{len(words)}I", *words))
    listing = Listing(module, module_names(module))
    segments = listing.segments(1)
    assert "".join(s.text for s in segments) == "               OpUnknown(65520, 3) !0x00000007 !0x00000008"
    assert [(s.text, s.operand) for s in segments if s.role is Role.RAW] == [("!0x00000007", 0), ("!0x00000008", 1)]


def test_an_instruction_too_short_for_its_result_id_ends_the_module():
    """OpTypeVoid of one word, last: its result id would be past the module's words (the
    line forms look result ids up when a run starts). Its line is the eager decoder's."""
    words = [0x07230203, 0x00010500, 0, 10, 0, 0x00020011, 1, 0x00010013]
    data = struct.pack(f"<{len(words)}I", *words)
    for options in (DisassemblyOptions(), DisassemblyOptions(friendly_names=False, indent=False)):
        text = disassemble(open_module(data), options)
        assert text == disassemble(decode(data), options)
        assert text.splitlines()[-1].strip() == "OpUnknown(19, 1)"
        lines = [line for run in Disassembler(open_module(data), options).line_runs() for line in run]
        assert lines[-1].strip() == "OpUnknown(19, 1)"


def test_an_instruction_too_short_for_its_result_id_leaves_the_next_lines_alone():
    """OpIAdd of one word (its result id would be word 2) before OpTypeVoid and
    OpTypeFunction: where its result id would be are their words, which their lines show."""
    words = [0x07230203, 0x00010500, 0, 10, 0, 0x00020011, 1, 0x00010080, 0x00020013, 4, 0x00030021, 5, 4]
    data = struct.pack(f"<{len(words)}I", *words)
    for options in (DisassemblyOptions(), DisassemblyOptions(friendly_names=False)):
        text = disassemble(open_module(data), options)
        assert text == disassemble(decode(data), options)
        assert [line.strip() for line in text.splitlines()[-3:]] == [
            "OpUnknown(128, 1)", "%void = OpTypeVoid" if options.friendly_names else "%4 = OpTypeVoid",
            "%5 = OpTypeFunction %void" if options.friendly_names else "%5 = OpTypeFunction %4",
        ]


def test_a_long_undecodable_tail_is_written_a_run_of_lines_at_a_time():
    """A word count of 0 near the start leaves a tail of many raw words: the lossless text
    gives them in runs of lines, the same lines as the whole tail."""
    words = [0x07230203, 0x00010000, 0, 10, 0, 0x00000000, *range(1, 10)]
    data = struct.pack(f"<{len(words)}I", *words) + b"\x01"
    module = open_module(data)
    listing = Listing(module, None, DisassemblyOptions(lossless=True, friendly_names=False))
    runs = list(listing.tail_runs(size=4))
    assert [len(run) for run in runs] == [4, 4, 2, 1]
    assert [line for run in runs for line in run] == listing.tail_lines()
    assert listing.tail_lines()[0].strip() == "!0x00000000"
    assert listing.tail_lines()[-1] == "; Trailing bytes: 01"


def test_a_pass_with_names_keeps_no_text_of_every_id():
    """The line forms of a pass with friendly names hold the named ids' texts, not a
    table of every id's: on the large module (a bound of 650,000) that table weighed
    tens of MB, made again for every whole pass (each index build after an edit)."""
    import tracemalloc

    from spvinspect.codec.text.line_forms import ID_FIELD, LineForms

    module = open_module(EXAMPLE_MODULE.read_bytes())
    module.ensure_indexed()
    listing = Listing(module, module_names(module), DisassemblyOptions())
    assert listing.names.table()
    tracemalloc.start()
    try:
        forms = LineForms(listing, module.tables.result_positions)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 1 << 20, f"{held / 2**20:.0f} MB of id texts for {len(listing.names.table())} names"
    forms.prepare([1, 2, 3], 0, [])
    assert [ID_FIELD % text for text in forms.texts] == ["%" + listing.names.table().get(k, str(k)) for k in (1, 2, 3)]
