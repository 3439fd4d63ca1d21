"""Comparing two SPIR-V modules instruction by instruction, their ids matched by what
they are rather than by their numbers (`compare`), and the unified diff of it."""

from spvinspect.codec.diff.model import KINDS, Counts, ModuleDiff, Row, Summary, compare

__all__ = ["KINDS", "Counts", "ModuleDiff", "Row", "Summary", "compare"]
