"""The panes of Lima mode: the single source for `--pane`, the number keys, the help
screen and the palette (Textual-free)."""

from spvinspect.formats.panes import PaneSpec, tour_pane, widget_factory


def _hex(screen):
    """The hex pane over the file's words (or the code stream's, when the code is not on
    a word of the file), the words diagnostics name marked."""
    from spvinspect.widgets.hex_view import HexView

    document = screen.document
    words, trailing = document.hex_words()
    tail = document.hex_word(document.decoded_words) if document.program.trailing_words else None
    marked = (
        cell
        for d in document.located_diagnostics
        if d.word_offset is not None and (cell := document.hex_word_of_file_word(d.word_offset)) is not None
    )
    hex_view = HexView(words, trailing_bytes=trailing, tail_offset=tail, marked=marked)
    hex_view.border_title = "Hex · file words" if document.hex_in_file else (
        f"Hex · code stream (DBIN at byte 0x{document.code_byte_offset:x}, not on a word)"
    )
    return hex_view


LIMA_PANES: tuple[PaneSpec, ...] = (
    PaneSpec(
        "header",
        "Header",
        "For an MBS file, the chunk tree: each chunk's identifier, byte offset and size, "
        "and its parsed values; for a raw stream, its length, instruction count and the "
        "units it uses. Choosing a line selects the byte it starts at.",
        key="1",
        short="Header",
        tooltip="Show and focus the header pane",
        factory=widget_factory("spvinspect.widgets.lima_header", "LimaHeader", of_document=True),
        column="main",
        place=0,
        starts_hidden=False,
    ),
    PaneSpec(
        "list",
        "Instruction list",
        "One PP instruction a line, in the seed-004 syntax or Mesa's, with its index and "
        "word offset in the gutter; branch targets are labelled (L3:), and the names of "
        "uniforms and varyings are shown beside the numbers they name.",
        key="2",
        short="List",
        tooltip="Show and focus the instruction list",
        stays_narrow=True,
        factory=widget_factory("spvinspect.widgets.lima_list", "LimaInstructionList", of_document=True),
        column="main",
        place=1,
        starts_hidden=False,
    ),
    PaneSpec(
        "diagnostics",
        "Diagnostics",
        "What could not be decoded, each problem with the file word it was found at; "
        "choosing one selects that word.",
        key="3",
        short="Diagnostics",
        tooltip="Show and focus the diagnostics",
        factory=widget_factory("spvinspect.widgets.diagnostics_panel", "DiagnosticsPanel"),
        column="side",
        place=1,
        starts_hidden=False,
    ),
    PaneSpec(
        "hex",
        "Hex",
        "The file's words: the selected instruction framed, and the hex digits holding the "
        "bits of the range chosen in the breakdown marked (softer when a digit holds only "
        "some of them); the status line names the exact bits.",
        key="4",
        short="Hex",
        tooltip="Show and focus the hex pane",
        factory=_hex,
        column="main",
        place=2,
        starts_hidden=False,
    ),
    PaneSpec(
        "breakdown",
        "Breakdown",
        "The selected instruction bit by bit: the control word, then every present field as "
        "its own strip, each range with its bit range, name, raw value and meaning; unknown "
        "bits are shown, never hidden. The cursor picks a strip or a range for the hex pane.",
        key="5",
        short="Breakdown",
        tooltip="Show and focus the breakdown",
        stays_narrow=True,
        factory=widget_factory("spvinspect.widgets.lima_breakdown", "LimaBreakdown"),
        column="side",
        place=0,
        starts_hidden=False,
    ),
    PaneSpec(
        "registers",
        "Registers",
        "The stepped fragment on the emulator: $0-$5 as vec4s, the pipeline registers and "
        "temporaries the last step wrote, a branch's condition and whether it was taken, the "
        "output colour as numbers and a swatch; what the last step changed is highlighted, "
        "b shows the fp16 bits. F11 or . steps, shift+F11 or , steps back, F5 runs, F4 runs "
        "to the selected instruction, F6 to the next taken branch, F9 sets a breakpoint.",
        key="6",
        short="Registers",
        tooltip="Show and focus the registers of the stepped fragment",
        factory=widget_factory("spvinspect.widgets.lima_registers", "LimaRegisters"),
        column="side",
        shows_run=True,
    ),
    PaneSpec(
        "inputs",
        "Inputs",
        "The varyings, uniforms and textures the run reads, a value per line (numbers "
        "separated by spaces; Enter applies them and starts the run again); a varying is a "
        "ramp given at three corners of the grid. Load and save them as JSON (the shape of "
        "lima run --inputs); an existing file is replaced only after asking.",
        key="7",
        short="Inputs",
        tooltip="Show and focus the run's inputs",
        factory=widget_factory("spvinspect.widgets.lima_inputs", "LimaInputs"),
        column="side",
    ),
    PaneSpec(
        "image",
        "Image",
        "What the program draws: every fragment of the grid run on the emulator (in the "
        "background, with progress), two pixels a character cell; discarded fragments are "
        "a grey checker. Arrows or hjkl move the cursor, Enter steps that pixel's fragment.",
        key="8",
        short="Image",
        tooltip="Show and focus the image the program draws",
        factory=widget_factory("spvinspect.widgets.lima_image", "LimaImage"),
        column="main",
    ),
    PaneSpec(
        "tour",
        "Guided tour",
        "A guided tour of the program, one step at a time: each step selects a place (a "
        "chunk of the MBS file, an instruction, a field of its breakdown), shows the pane "
        "that explains it and says what it is. t goes to the next step (the first opens the "
        "tour), T back, escape leaves it with the selection where it is. The bundled example "
        "(--lima-example) has a tour; --tour FILE opens one written for any program (see "
        "inspector/examples/lima-example.tour.toml).",
        factory=tour_pane,
        column="side",
    ),
)
"""The panes of Lima mode."""
