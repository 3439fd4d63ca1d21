"""Lima (Mali-200/400) PP fragment-shader codec: decode, explain, disassemble, assemble.

Knows nothing of the UI. Entry points never raise on bad input; they return diagnostics.
"""

from lima.assembler import assemble
from lima.disasm_mesa import mesa_line
from lima.disasm_seed import seed_lines
from lima.encoder import encode_instruction, encode_words
from lima.explain import chunk_lines, explain_lines
from lima.listing import STYLES, listing_lines
from lima.decoder import decode_words
from lima.model import BitRange, Chunk, ChunkField, Field, Instruction, LimaProgram
from lima.program import decode

__all__ = [
    "BitRange",
    "Chunk",
    "ChunkField",
    "Field",
    "Instruction",
    "LimaProgram",
    "STYLES",
    "assemble",
    "chunk_lines",
    "decode",
    "decode_words",
    "encode_instruction",
    "encode_words",
    "explain_lines",
    "listing_lines",
    "mesa_line",
    "seed_lines",
]
