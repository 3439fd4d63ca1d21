"""Live editing, without Textual: the session (text, last good binary, re-assembly jobs),
incremental re-assembly, changed words, validation and saving."""
