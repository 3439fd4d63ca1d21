"""The panes of a SPIR-V module: the single source for `--pane`, the number keys, the
help screen and the palette (Textual-free; a built pane's widget is imported when the
screen builds it)."""

from spvinspect.formats.panes import PaneSpec, tour_pane, widget_factory


def _list(screen):
    from textual.content import Content

    from spvinspect.widgets.instruction_list import InstructionList

    listing = InstructionList(screen.document)
    listing.raw = screen.view.raw
    listing.border_title = Content(f"Instructions · {screen.document.name}")
    return listing


def _hex(screen):
    """The hex pane with the word detail under it: they zoom together."""
    from spvinspect.screens.panes import PaneGroup
    from spvinspect.screens.spirv_view import module_hex_view
    from spvinspect.widgets.word_detail import WordDetailPanel

    return PaneGroup(module_hex_view(screen.document.module, id="hex"), WordDetailPanel(id="word"), id="hex-group")


def _cfg(screen):
    """The CFG pane in a box that folds to its one-line message outside every function
    (folded until it first follows the selection into one)."""
    from spvinspect.screens.view import Column
    from spvinspect.widgets.cfg_view import CfgView

    return Column(CfgView(screen.view.function_graphs(), id="cfg"), id="cfg-box", classes="-idle")


SPIRV_PANES: tuple[PaneSpec, ...] = (
    PaneSpec(
        "header",
        "Header",
        "The module's five header words, each with its word offset and hex value: magic and "
        "byte order, version, generator (vendor, tool and its version), id bound and schema; "
        "then counts of instructions, functions and ids used, and of diagnostics.",
        key="1",
        short="Header",
        tooltip="Show and focus the header pane",
        factory=widget_factory("spvinspect.widgets.header_pane", "HeaderPane", of_document=True),
        column="side",
        place=0,
        starts_hidden=False,
    ),
    PaneSpec(
        "list",
        "Instruction list",
        "The disassembly exactly as `spvinspect dis` prints it, friendly names or raw ids, "
        "with each instruction's byte offset in the gutter. The cursor selects an "
        "instruction and an operand in it; every other pane follows that selection. f folds "
        "the function (on its OpFunction) or the block at the cursor into one line, and "
        "opens it again.",
        key="2",
        short="List",
        tooltip="Show and focus the instruction list",
        stays_narrow=True,
        factory=_list,
        column="main",
        place=0,
        starts_hidden=False,
    ),
    PaneSpec(
        "hex",
        "Hex and word detail",
        "The module's words (or, with b, its bytes and ASCII) with byte offsets, in the "
        "module's byte order. The selected instruction's words are framed and coloured by "
        "what they are (opcode word, type, result, ids, literals, strings, enumerants, raw "
        "words); words that diagnostics name are marked, the undecodable tail and trailing "
        "bytes shown as such. Under it, the word under the cursor in every reading (hex, "
        "unsigned, signed, float, characters) and what it is: header field, word count and "
        "opcode, or which operand of which instruction, its value and where an id is defined. "
        "c opens the grammar's card for the instruction or operand.",
        key="4",
        short="Hex",
        tooltip="Show and focus the hex pane and the word detail",
        factory=_hex,
        column="side",
        place=1,
        starts_hidden=False,
    ),
    PaneSpec(
        "cfg",
        "CFG",
        "The control-flow graph of the function holding the selection, laid out in layers: "
        "blocks with their name, size and role (loop header, merge block, continue target), "
        "branch conditions and switch cases on the edges, back, merge and continue edges "
        "drawn apart, unreachable blocks marked. Moving along edges selects the block's OpLabel; "
        "a function too big to draw at once shows the blocks near the selection first.",
        key="5",
        short="CFG",
        tooltip="Show and focus the CFG of the selected function",
        factory=_cfg,
        column="main",
        place=2,
        starts_hidden=False,
    ),
    PaneSpec(
        "diagnostics",
        "Diagnostics",
        "What is wrong with a broken module, each problem with the word it was found at; "
        "choosing one moves the selection to that word.",
        key="3",
        short="Diagnostics",
        tooltip="Show and focus the diagnostics",
        factory=widget_factory("spvinspect.widgets.diagnostics_panel", "DiagnosticsPanel"),
        column="main",
        place=1,
        starts_hidden=False,
    ),
    PaneSpec(
        "words",
        "Word table",
        "Every word of the selected instruction on its own row, as the specification lays "
        "it out: its index in the instruction, file offset and bytes, and what it is: word 0 "
        "split into word count and opcode (with their bits), the result type and id, each "
        "operand's words with the operand's name and kind in the specification's numbering, "
        "parameter words tied to the enumerant or mask bit that brought them, OpPhi's "
        "\"value from block\" pairs, the halves of 64-bit literals and the bytes of string "
        "words. The title gives the grammar's word-count rule (\"3 + variable\"). In the "
        "header, the five header words (the version as its bytes 0 | major | minor | 0). The "
        "row of the selected word is highlighted; moving in the table selects its word.",
        key="6",
        short="Words",
        tooltip="Show and focus the word table of the selected instruction",
        factory=widget_factory("spvinspect.widgets.word_table_pane", "WordTablePane"),
        column="main",
    ),
    PaneSpec(
        "legend",
        "Colour legend",
        "What each colour of the hex pane and of the instruction list means, drawn in the "
        "theme's own colours. L shows or hides it.",
        factory=widget_factory("spvinspect.widgets.colour_legend", "ColourLegend"),
        column="side",
    ),
    PaneSpec(
        "tour",
        "Guided tour",
        "A guided tour of the module, one step at a time: each step selects a place (the "
        "magic number, the version, a string, a type, a function, a block...), shows the "
        "pane that explains it and says what it is. t goes to the next step (the first "
        "opens the tour), T back, escape leaves it with the selection where it is. The "
        "bundled example has a tour; spvinspect --tour FILE MODULE opens a tour written for "
        "any module (see inspector/examples/example.tour.toml).",
        factory=tour_pane,
        column="main",
    ),
    PaneSpec(
        "source",
        "Source",
        "The source text the module carries (OpSource and OpSourceContinued, as glslang's -g "
        "embeds it, or NonSemantic.Shader.DebugInfo.100's DebugSource), coloured, with the "
        "line of the selected instruction (from OpLine or DebugLine) highlighted; lines tied "
        "to instructions are marked. enter selects the first instruction of the line under the "
        "cursor, n and N the line's next and previous one, f shows the next source file.",
        key="7",
        short="Source",
        tooltip="Show and focus the source text",
        factory=widget_factory("spvinspect.widgets.source_pane", "SourcePane", of_document=True),
        column="main",
    ),
    PaneSpec(
        "values",
        "Values",
        "The stepped invocation's values: the next instruction's operands, the last step's "
        "result and stores, the current function's live ids, and every variable (inputs, "
        "outputs, uniforms, buffers, private, workgroup and function variables) laid out "
        "member by member. Values are the interpreter's own: float32 as it reads back, "
        "integers signed as their type says, NaN, Inf and undef as such; values the last move "
        "changed are highlighted and b shows every value's bits in hex. The stepping keys "
        "(. step, , back, > over, < out, F5 run, F4 run to the cursor, * breakpoint) work "
        "from any pane.",
        key="8",
        short="Values",
        tooltip="Show and focus the values of the stepped invocation",
        factory=widget_factory("spvinspect.widgets.values_pane", "ValuesPane", of_document=True),
        column="side",
        shows_run=True,
    ),
    PaneSpec(
        "image",
        "Image",
        "A fragment shader's entry point run over a grid of pixels (32×32, in a worker, with "
        "its progress), its colour output drawn two pixels a cell in truecolour (discarded "
        "pixels as a grey checker). Arrows or hjkl move the pixel cursor (its FragCoord pixel "
        "and value on the first line); enter makes that pixel's fragment the stepped "
        "invocation, and the run starts again from it. A compute shader's buffers are in the "
        "values pane.",
        key="9",
        short="Image",
        tooltip="Show and focus the image of the fragment shader over a grid",
        factory=widget_factory("spvinspect.widgets.spirv_image", "SpirvImage"),
        column="side",
    ),
)
"""The panes of a SPIR-V module, in the order the help lists them."""
