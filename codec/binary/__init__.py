"""The binary layer: bytes to words, words to a decoded `Module`."""

from codec.binary.decoder import decode
from codec.binary.model import Header, Instruction, Module, Operand

__all__ = ["Header", "Instruction", "Module", "Operand", "decode"]
