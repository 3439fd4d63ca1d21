"""SPIR-V codec: grammar, decoder, disassembler, assembler and control-flow analysis.

Nothing here knows about the terminal UI. The grammar loads on first use, so
importing the package is cheap.
"""
