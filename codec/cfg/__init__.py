"""Control-flow analysis: blocks, edges, dominators and structure, and DOT output."""

from spvinspect.codec.cfg.graph import Block, Edge, FunctionCFG, ModuleCFG, build_cfg

__all__ = ["Block", "Edge", "FunctionCFG", "ModuleCFG", "build_cfg"]
