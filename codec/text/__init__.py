"""The text layer: friendly names, lines as segments, disassembly and the word-by-word
explanation."""

from spvinspect.codec.text.disassembler import Disassembler, DisassemblyOptions, disassemble
from spvinspect.codec.text.explain import explain, explain_text
from spvinspect.codec.text.listing import Listing, Role, Segment
from spvinspect.codec.text.names import NameMap, friendly_names, module_names

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
