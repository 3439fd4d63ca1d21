"""The text layer: friendly names, lines as segments, disassembly and the word-by-word
explanation."""

from codec.text.disassembler import Disassembler, DisassemblyOptions, disassemble
from codec.text.explain import explain, explain_text
from codec.text.listing import Listing, Role, Segment
from codec.text.names import NameMap, friendly_names, module_names

__all__ = [
    "Disassembler",
    "DisassemblyOptions",
    "Listing",
    "NameMap",
    "Role",
    "Segment",
    "disassemble",
    "explain",
    "explain_text",
    "friendly_names",
    "module_names",
]
