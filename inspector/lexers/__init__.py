"""Pygments lexers for SPIR-V assembly and Lima (Mali-200/400 PP) assembly.

Textual-free: they are registered as Pygments plugins (`pygmentize -l spirv`) and shared
by the app's instruction list and editor. The token types they emit, and which listing
role each stands for, are in `themes.tokens` (the theme layer colours them).
"""

from spvinspect.lexers.lima import LimaLexer
from spvinspect.lexers.spirv import SpirvLexer

__all__ = ["LimaLexer", "SpirvLexer"]
