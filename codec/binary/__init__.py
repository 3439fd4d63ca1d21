"""The binary layer: bytes to words, words to a decoded `Module`, eagerly or on demand."""

from codec.binary.decoder import decode
from codec.binary.lazy import FunctionSpan, LazyModule, open_module
from codec.binary.model import Header, Instruction, Module, Operand

__all__ = [
    "FunctionSpan",
    "Header",
    "Instruction",
    "LazyModule",
    "Module",
    "Operand",
    "decode",
    "open_module",
]
