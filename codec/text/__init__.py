"""The text layer: friendly names, disassembly and the word-by-word explanation."""

from codec.text.disassembler import Disassembler, DisassemblyOptions, disassemble
from codec.text.explain import explain, explain_text
from codec.text.names import friendly_names

__all__ = ["Disassembler", "DisassemblyOptions", "disassemble", "explain", "explain_text", "friendly_names"]
