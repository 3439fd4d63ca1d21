"""Saving an edited Lima program: into its MBS container or as a raw stream, by the name
it is saved under (see `save_lima`); writing goes through `saving` like every save."""

from __future__ import annotations

from pathlib import Path

from spvinspect.editing.saving import KEPT, NotAssembled, SavedFile, SaveError, same_path
from spvinspect.lima import assemble as assemble_lima
from spvinspect.lima.mbs import ContainerError, is_mbs, mbs_with_code, raw_stream


def save_lima(session, file: SavedFile, path=None, *, overwrite: bool = False) -> Path:
    """Assemble a Lima session's text and save it: over the opened file as it was (the MBS
    container with the new code, or a raw stream), or to `path`: an `.mbs` name gets the
    opened MBS container with the new code, any other name the raw stream. Never a raw
    stream under an `.mbs` name: a raw program saved as `.mbs` is refused in words.
    NotAssembled on errors."""
    words, diagnostics = assemble_lima(session.text, "auto")
    if words is None:
        raise NotAssembled(diagnostics)
    target = Path(path) if path is not None else file.path
    original = session.original
    own = path is None or same_path(target, file.path)
    mbs_name = target.suffix.lower() == ".mbs"
    if (own or mbs_name) if is_mbs(original) else (mbs_name and not own):
        if not is_mbs(original):
            raise SaveError(
                f"not saved: {target.name} is an MBS name, but the opened program is a raw stream with no MBS "
                f"container to put the code in; save it under another name (.bin) for the raw stream; {KEPT}"
            )
        try:
            data = mbs_with_code(original, words)
        except ContainerError as error:
            raise SaveError(f"not saved: {error}, so the code cannot be put back into it; "
                            f"save it under another name (.bin) for the raw stream; {KEPT}") from error
    else:
        data = raw_stream(words)
    written = file.write(data, target, overwrite=overwrite)
    if own:
        session.mark_saved()
    return written
