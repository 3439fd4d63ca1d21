"""The panes of Lima mode: the single source for `--pane`, the number keys, the help
screen and the palette (Textual-free)."""

from spvinspect.formats.panes import PaneSpec

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
    ),
    PaneSpec(
        "diagnostics",
        "Diagnostics",
        "What could not be decoded, each problem with the file word it was found at; "
        "choosing one selects that word.",
        key="3",
        short="Diagnostics",
        tooltip="Show and focus the diagnostics",
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
    ),
)
"""The panes of Lima mode."""
