"""The Lima document: opening MBS files and raw streams (damaged ones too), the list's rows
in both syntaxes with labels and symbol names, stepping, and the header tree."""

from __future__ import annotations

import struct

from lima_words import PROGRAM as SIX_INSTRUCTIONS, mbs_file, to_bytes

from spvinspect import lima
from spvinspect.lima_document import LimaDocument, RowKind
from spvinspect.selection import JumpHistory

PROGRAM = SIX_INSTRUCTIONS.replace("stop,", "load.u 0.y, mov.v0 $0 ^uniform\nstop,")
"""The six-instruction program with a second uniform load before the last."""


def assembled(text: str = PROGRAM) -> list[int]:
    words, diagnostics = lima.assemble(text)
    assert diagnostics == [], diagnostics
    return words


def texts(doc: LimaDocument, style: str = "seed") -> list[str]:
    return [doc.row_text(row, style) for row in range(doc.row_count)]


def test_raw_stream_rows_are_what_lima_dis_prints():
    words = assembled()
    doc = LimaDocument(to_bytes(words), "code.bin")
    assert not doc.is_mbs
    assert texts(doc) == lima.listing_lines(lima.decode(to_bytes(words)))
    assert texts(doc, "mesa")[2:] == [lima.mesa_line(i) for i in doc.instructions[1:]]
    assert doc.rows[1].kind is RowKind.LABEL and doc.row_text(1, "mesa") == "L4:"
    assert doc.diagnostics == ()


def test_mbs_is_recognised_by_content_whatever_the_name():
    words = assembled()
    for name in ("shader.mbs", "code.bin", ""):
        doc = LimaDocument(mbs_file(words), name)
        assert doc.is_mbs
        assert [i.words for i in doc.instructions] == [i.words for i in lima.decode_words(words).instructions]
        assert doc.code_byte_offset == mbs_file(words).index(to_bytes(words))


def test_uniform_names_from_the_symbol_chunks_beside_the_loads():
    doc = LimaDocument(mbs_file(assembled()))
    by_index = {i: doc.instruction_text(i) for i in range(len(doc.instructions))}
    assert by_index[4] == "load.u 0, mov.v0 $0 ^uniform   # u_color"
    assert by_index[5] == "load.u 0.y, mov.v0 $0 ^uniform   # u_color.y"
    assert doc.instruction_text(5, "mesa").endswith("   # u_color.y")
    assert "#" not in by_index[0]  # load.u 1.y is component 5: past u_color's four
    # the text with its comment still assembles back to the same words
    words, diagnostics = lima.assemble("\n".join(texts(doc)))
    assert diagnostics == [] and words == assembled()


def test_branch_targets_labels_and_stepping():
    doc = LimaDocument(to_bytes(assembled()))
    assert doc.branch_target(2) == 1
    assert doc.branch_target_word(2) == doc.instructions[1].word_offset
    assert doc.branch_target(0) is None
    assert doc.next_branch(0) == 2 and doc.next_branch(2) is None and doc.next_branch(5, -1) == 2
    assert doc.next_using(0, "texture") == 3
    assert doc.next_using(3, "uniform") == 4 and doc.next_using(4, "uniform", -1) == 0
    assert doc.next_using(0, "complex") is None
    assert doc.units(0) == ("varying", "uniform")
    assert doc.units_used == ("varying", "uniform", "vec4-mul", "vec4-add", "branch", "texture", "constant")


def test_instruction_at_a_byte_offset_for_at():
    words = assembled()
    doc = LimaDocument(mbs_file(words))
    start = doc.code_byte_offset
    second = doc.instructions[1]
    assert doc.instruction_at_byte(start) == 0
    assert doc.instruction_at_byte(start + 4 * second.word_offset + 5) == 1
    assert doc.instruction_at_byte(start - 1) is None
    assert doc.instruction_at_byte(start + 4 * len(words)) is None


def test_file_bits_place_a_selection_in_the_file():
    doc = LimaDocument(mbs_file(assembled()))
    bits = doc.breakdown(1).strip("vec4_mul").label("op").bits
    (word, mask), = bits.words
    assert doc.file_bits(bits) == ((doc.code_byte_offset + 4 * word, mask),)


def test_a_damaged_stream_opens_with_diagnostics_and_its_words_shown():
    words = assembled()
    cut = words[: len(words) - 2]  # the last instruction now claims more words than remain
    doc = LimaDocument(to_bytes(cut) + b"\x01")
    last = lima.decode_words(words).instructions[-1]
    assert len(doc.instructions) == len(lima.decode_words(words).instructions) - 1
    messages = [(d.word_offset, d.message) for d in doc.diagnostics]
    assert (len(cut), "1 byte after the last whole word are ignored (length "
            f"{4 * len(cut) + 1} is not a multiple of 4)") in messages
    assert any(offset == last.word_offset and "claims" in text for offset, text in messages)
    undecoded = [doc.row_text(r) for r in range(doc.row_count) if doc.rows[r].kind is RowKind.UNDECODED]
    assert undecoded[0] == f"# word {last.word_offset}: 0x{cut[last.word_offset]:08x} (not decoded)"
    assert any(node.label.startswith("diagnostics: ") for node in doc.header)


def test_a_count_of_zero_and_empty_input_open_without_instructions():
    doc = LimaDocument(struct.pack("<2I", 0, 0x12345678))
    assert doc.instructions == ()
    assert doc.diagnostics[0].word_offset == 0 and "count 0" in doc.diagnostics[0].message
    assert doc.row_count == 2
    empty = LimaDocument(b"")
    assert (empty.row_count, empty.diagnostics[0].message) == (0, "no instruction words")
    assert empty.units_used == ()


def test_a_damaged_mbs_file_still_shows_its_chunks():
    data = mbs_file(assembled())
    doc = LimaDocument(data[:40])
    assert doc.instructions == () and doc.diagnostics
    assert doc.header[-1].label.startswith("MBS1")


def test_header_summarises_a_raw_stream():
    words = assembled()
    doc = LimaDocument(to_bytes(words))
    labels = [node.label for node in doc.header]
    assert labels == [
        f"raw little-endian PP stream: {4 * len(words)} bytes ({len(words)} words)",
        f"instructions: 7 in {len(words)} words",
        "units used: varying, uniform, vec4-mul, vec4-add, branch, texture, constant",
    ]


def test_header_shows_the_chunk_tree_of_an_mbs_file():
    doc = LimaDocument(mbs_file(assembled()))
    (root,) = [node for node in doc.header if node.label.startswith("MBS1")]
    fragment = root.children[0]
    assert fragment.label.startswith("CFRA  @0x8  ")
    assert fragment.children[0].label == "version = 7 (Mali-400 PP)  @0x10"
    uniforms = next(node for node in fragment.children if node.label.startswith("SUNI"))
    symbol = next(node for node in uniforms.children if node.label.startswith("VUNI"))
    assert any(leaf.label.startswith("string = 'u_color'") for node in symbol.children for leaf in node.children)
    assert [node.label.split()[0] for node in root.children] == ["CFRA", "CVER"]


def test_history_goes_back_and_forward():
    history = JumpHistory()
    history.record(3)
    history.record(7)
    assert history.back(9) == 7 and history.back(7) == 3 and history.back(3) is None
    assert history.forward(3) == 7


def test_file_words_are_the_whole_file_for_the_hex_pane():
    data = mbs_file(assembled()) + b"\x07"
    words, rest = LimaDocument(data).file_words()
    assert words.tobytes() == data[:-1] and rest == b"\x07"


def test_header_lists_the_symbols_with_the_components_they_occupy():
    doc = LimaDocument(mbs_file(assembled()))
    (uniforms,) = [node for node in doc.header if node.label.startswith("uniforms: ")]
    assert uniforms.label == "uniforms: 1"
    assert [(n.label, n.byte_offset) for n in uniforms.children] == [("u_color: components 0-3", 0x4C)]
    assert not any(node.label.startswith("varyings") for node in doc.header)
