"""The assembler: SPIR-V assembly text to words, as `spirv-as` makes them."""

from spvinspect.codec.asm.assembler import AssemblyResult, assemble

__all__ = ["AssemblyResult", "assemble"]
