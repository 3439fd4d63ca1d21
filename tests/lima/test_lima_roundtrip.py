"""Property tests: nothing is lost from words to records, and from records to text and back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lima_words import MESA_FIELD_SIZES

from spvinspect import lima

word = st.integers(0, 0xFFFFFFFF)


@st.composite
def well_formed_instruction(draw) -> list[int]:
    """Random control bits and presence bits, random field and padding bits, a correct count."""
    presence = draw(st.integers(0, 0xFFF))
    total = sum(size for i, size in enumerate(MESA_FIELD_SIZES) if presence >> i & 1)
    count = 1 + (total + 31) // 32
    body = draw(st.integers(0, (1 << (32 * (count - 1))) - 1))
    control = (
        count
        | draw(st.integers(0, 3)) << 5  # stop, sync
        | presence << 7
        | draw(st.integers(0, 63)) << 19  # next_count
        | draw(st.integers(0, 1)) << 25  # prefetch
        | draw(st.integers(0, 63)) << 26  # unknown
    )
    return [control] + [(body >> (32 * k)) & 0xFFFFFFFF for k in range(count - 1)]


@st.composite
def program_words(draw) -> list[int]:
    return [w for instr in draw(st.lists(well_formed_instruction(), min_size=1, max_size=4)) for w in instr]


@settings(max_examples=400)
@given(st.lists(word, max_size=40))
def test_encode_decode_is_identity_on_any_words(words):
    program = lima.decode_words(words)
    assert lima.encode_words(program) == words


@settings(max_examples=300)
@given(program_words())
def test_encode_decode_is_identity_on_random_instructions(words):
    program = lima.decode_words(words)
    assert program.diagnostics == ()
    assert lima.encode_words(program) == words
    assert [lima.encode_instruction(i) for i in program.instructions] == [i.words for i in program.instructions]


@settings(max_examples=300)
@given(program_words())
def test_assemble_disassemble_is_identity(words):
    # Stronger than the acceptance criterion (which excludes unknown bits): unknown and
    # padding bits are random here too and come back through {name=value}.
    text = "\n".join(lima.seed_lines(lima.decode_words(words)))
    assembled, diagnostics = lima.assemble(text)
    assert [d for d in diagnostics if d.severity.value == "error"] == [], text
    assert assembled == words, text


def explained_ranges(instr: lima.Instruction) -> int:
    """Lines `explain` owes an instruction: its header, then one per range of every layout."""
    fields = sum(len(f.ranges) + sum(len(view.ranges) for view in f.alternatives) for f in instr.fields)
    return 1 + len(instr.control) + fields + (instr.padding is not None)


@settings(max_examples=200)
@given(st.lists(word, max_size=24), st.booleans())
def test_every_view_of_any_words_is_total(words, short_counts):
    if short_counts:  # counts that fit the stream, so that the words split into instructions
        words = [w & ~0x1F | (w % 4 + 1) if i % 3 == 0 else w for i, w in enumerate(words)]
    program = lima.decode(b"".join(w.to_bytes(4, "little") for w in words))
    consumed = sum(len(instr.words) for instr in program.instructions)
    assert list(program.trailing_words) == words[consumed:]
    for instr in program.instructions:
        line = lima.mesa_line(instr)
        assert line.endswith(", stop") == instr.stop
        assert (", sync" in line) == instr.sync
    explained = list(lima.explain_lines(program))
    owed = sum(explained_ranges(instr) for instr in program.instructions) + len(program.trailing_words)
    assert len(explained) == owed
    # What `lima dis` prints keeps every bit, even of damaged instructions (short counts);
    # the words it could not decode are comments.
    assembled, _ = lima.assemble("\n".join(lima.listing_lines(program)))
    assert assembled == words[:consumed]
