"""What the side-by-side view compares, made from files or opened documents
(Textual-free): a function that builds the comparison on a worker thread, with progress."""

from __future__ import annotations

from collections.abc import Callable

from spvinspect.formats.comparison import Comparison

Progress = Callable[[str, int, int], None]


def comparing(a, b, lima: bool, names: tuple[str, str] | None = None) -> Callable[[Progress], Comparison]:
    """How to compare `a` with `b`: each an opened document, or (bytes, name) of a file
    still to open. `lima`: both are Lima PP programs. `names`: what to call the two
    sides (else their file names)."""

    def make(progress: Progress) -> Comparison:
        comparison = _make(progress)
        if names is not None:
            comparison.names = names
        return comparison

    def _make(progress: Progress) -> Comparison:
        if lima:
            from spvinspect.formats.diff_lima import LimaComparison
            from spvinspect.lima_document import LimaDocument

            progress("decoding", 0, 1)
            docs = [LimaDocument(*side) if isinstance(side, tuple) else side for side in (a, b)]
            progress("aligning", 0, 1)
            return LimaComparison(*docs)
        from spvinspect.document import Document, looks_like_spirv
        from spvinspect.formats.diff_spirv import SpirvComparison

        docs = []
        for side in (a, b):
            if isinstance(side, tuple):
                data, name = side
                if not looks_like_spirv(data):
                    raise ValueError(f"{name}: not a SPIR-V module (its first word is not the magic number)")
                progress(f"opening {name}", 0, 1)
                side = Document(data, name)
            if side.module.header is None:
                raise ValueError(f"{side.name}: the header is incomplete ({len(side.data)} bytes)")
            docs.append(side)
        return SpirvComparison(docs[0], docs[1], progress)

    return make
