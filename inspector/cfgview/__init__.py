"""The CFG pane's drawings, Textual-free: a function's graph laid out in layers and drawn
with box-drawing characters, or listed one block a line, with a model of boxes and edge
routes beside the characters; per-function graphs and drawings of a module, cached."""

from spvinspect.cfgview.block_list import list_function
from spvinspect.cfgview.drawing import draw_function
from spvinspect.cfgview.graphs import FunctionGraphs
from spvinspect.cfgview.model import CfgDrawing, EdgeRoute, Rect

__all__ = ["CfgDrawing", "EdgeRoute", "FunctionGraphs", "Rect", "draw_function", "list_function"]
