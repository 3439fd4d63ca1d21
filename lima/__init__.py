"""Lima (Mali-200/400) PP fragment-shader codec: decode, explain, disassemble, assemble.

Knows nothing of the UI. Entry points never raise on bad input; they return diagnostics.
"""

from spvinspect.lima.assembler import STYLES as ASSEMBLER_STYLES
from spvinspect.lima.assembler import assemble
from spvinspect.lima.disasm_mesa import mesa_line
from spvinspect.lima.disasm_seed import seed_lines
from spvinspect.lima.encoder import encode_instruction, encode_words
from spvinspect.lima.explain import chunk_lines, explain_lines
from spvinspect.lima.listing import STYLES, listing_lines
from spvinspect.lima.decoder import decode_words
from spvinspect.lima.model import BitRange, Chunk, ChunkField, Field, Instruction, LimaProgram
from spvinspect.lima.program import decode

__all__ = [
    "ASSEMBLER_STYLES",
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
