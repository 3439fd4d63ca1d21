"""What each colour of a SPIR-V module's hex pane and instruction list means: the words
of the legend (Textual-free). The colours themselves come from the theme at run time:
the hex pane's cell styles and the listing's role styles."""

from __future__ import annotations

from spvinspect.codec.text.listing import Role

HEX_MEANINGS: tuple[tuple[str, str, str, str], ...] = (
    ("header", "07230203", "header", "one of the five header words (magic, version, generator, bound, schema)"),
    ("opcode", "0004003e", "count|opcode", "word 0 of the selected instruction: word count (high 16 bits) | opcode (low 16)"),
    ("type-id", "00000006", "result-type", "the selected instruction's Result Type <id>"),
    ("result-id", "0000000a", "result-id", "the <id> the selected instruction defines (Result <id>)"),
    ("id", "0000000c", "id-read", "an <id> the selected instruction reads"),
    ("literal", "00000020", "literal", "a literal number (a 64-bit one takes two words, low word first)"),
    ("string", "6e69616d", "string", "a string's UTF-8 bytes, four a word, nul-terminated and padded"),
    ("enum", "00000002", "enumerant", "an enumerant or a mask of bits (StorageClass, MemoryAccess...)"),
    ("raw", "0000270f", "raw-word", "a word of the instruction that does not fit the grammar"),
    ("selected", "00000000", "selected", "the background of the selected instruction's words"),
    ("cursor", "0000000a", "cursor", "the word under the cursor"),
    ("diagnostic", "deadbeef", "diagnostic", "a word a diagnostic names (what is wrong with the module)"),
    ("tail", "00280000", "tail", "a word after the point where decoding stopped for good"),
    ("trailing", "abcd", "trailing", "bytes past the last whole word"),
)
"""(hex pane cell style, a sample, a short name of one word, what it means), in the order the legend lists them."""

LIST_MEANINGS: tuple[tuple[Role, str, str, str], ...] = (
    (Role.RESULT_ID, "%main", "defined-id", "the <id> an instruction defines, before ="),
    (Role.OPCODE, "OpStore", "opcode", "the opcode's name"),
    (Role.TYPE_ID, "%float", "result-type", "the instruction's result type"),
    (Role.ID, "%x", "id-read", "an <id> the instruction reads"),
    (Role.LITERAL, "42", "literal", "a literal number"),
    (Role.STRING, '"main"', "string", "a literal string"),
    (Role.ENUM, "Function", "enumerant", "an enumerant or mask (Volatile|Aligned), an extended instruction's name"),
    (Role.RAW, "!0x0000270f", "raw-word", "a word that does not fit the grammar"),
    (Role.COMMENT, "; Version: 1.6", "comment", "a comment (the reading aids' sections)"),
)
"""(listing role, a sample, a short name of one word, what it means), in the order the legend lists them."""
