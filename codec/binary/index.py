"""Where each instruction starts: word counts followed from the header on, in steps.

The index knows no grammar beyond the first word of an instruction. It stops for good
at a word count of 0 or one running past the end, with a diagnostic; the words from
there on are the module's undecodable tail. It is built as far as asked
(`extend(upto)`), so the first screen of a large module needs only its first lines.
"""

from __future__ import annotations

from array import array
from itertools import repeat

from spvinspect.codec.diagnostics import Diagnostic, Severity


class InstructionIndex:
    """Word offsets of the instructions of `words`, from word `start` on."""

    __slots__ = ("words", "offsets", "next_offset", "done", "stop", "first_function", "_op_function")

    def __init__(self, words: array, start: int, op_function: int, scan: bool = True) -> None:
        self.words = words
        self.offsets = array("I")
        """Word offset of each instruction found so far."""
        self.next_offset = start
        """Where scanning resumes; once `done`, the tail offset."""
        self.done = not scan or start >= len(words)
        """True once every instruction is indexed (at once when `scan` is False: a module
        whose header says it is not SPIR-V has no instructions)."""
        self.stop: Diagnostic | None = None
        """Why scanning stopped before the end of the words, once it has."""
        self.first_function: int | None = None
        """Index of the first OpFunction, once the scan has passed it."""
        self._op_function = op_function

    def extend(self, upto: int | None = None) -> None:
        """Scan until instruction `upto` is indexed (every instruction when None)."""
        if self.done or (upto is not None and upto < len(self.offsets)):
            return
        words = self.words
        n = len(words)
        offsets = self.offsets
        append = offsets.append
        offset = self.next_offset
        before = len(offsets)
        # How many instructions to index at most (a module has fewer than it has words).
        wanted = n if upto is None else upto + 1 - before
        if self.first_function is None:
            # Until the first OpFunction is found every opcode is looked at; after it,
            # only word counts.
            op_function = self._op_function
            for _ in repeat(None, wanted):
                if offset >= n:
                    break
                first = words[offset]
                count = first >> 16
                if not count:
                    break
                append(offset)
                offset += count
                if first & 0xFFFF == op_function:
                    self.first_function = len(offsets) - 1
                    break
        for _ in repeat(None, wanted - (len(offsets) - before)):
            if offset >= n:
                break
            count = words[offset] >> 16
            if not count:
                break
            append(offset)
            offset += count
        if offset > n:
            # The last instruction found runs past the end: it is where the tail starts.
            offset = offsets.pop()
            if self.first_function == len(offsets):
                self.first_function = None
        self.next_offset = offset
        if offset >= n or len(offsets) - before < wanted:
            self._finish(offset)

    @classmethod
    def spliced(
        cls, old: InstructionIndex, words: array, i0: int, i1: int, start: int, new_end: int
    ) -> InstructionIndex | None:
        """The complete index of `words`, the words `old` indexed with its instructions
        [i0, i1) replaced by those in words [start, new_end) (found here), the rest
        shifted; None when those words do not end on an instruction at `new_end` or the
        words do not end where the shifted index does."""
        middle = array("I")
        offset = start
        while offset < new_end:
            size = words[offset] >> 16
            if not size:
                return None
            middle.append(offset)
            offset += size
        if offset != new_end:
            return None
        old_offsets = old.offsets
        old_end = old_offsets[i1] if i1 < len(old_offsets) else old.next_offset
        shift = new_end - old_end
        tail = old_offsets[i1:]
        if shift:
            import numpy as np  # here: opening a module never loads numpy

            moved = np.frombuffer(old_offsets, dtype=np.uint32)[i1:].astype(np.int64) + shift
            tail = array("I", moved.astype(np.uint32).tobytes())
        index = cls(words, start, old._op_function, scan=False)
        index.offsets = old_offsets[:i0] + middle + tail
        index.next_offset = old.next_offset + shift
        if len(words) != index.next_offset:
            return None
        index.done = True
        index.first_function = old._first_function_after(words, index.offsets, i0, i1, len(middle))
        return index

    def _first_function_after(self, words: array, offsets: array, i0: int, i1: int, added: int) -> int | None:
        """The first OpFunction's index in `offsets`, this index with [i0, i1) replaced
        by `added` instructions."""
        first = self.first_function
        if first is not None and first < i0:
            return first
        if first is not None and first >= i1:
            last = i0 + added  # before the old first function's new place, only the edit can hold one
            shifted = first - (i1 - i0) + added
        else:
            last = shifted = len(offsets)
        for k in range(i0, last):
            if words[offsets[k]] & 0xFFFF == self._op_function:
                return k
        return shifted if shifted < len(offsets) else None

    def _finish(self, offset: int) -> None:
        self.done = True
        n = len(self.words)
        if offset >= n:
            return
        first = self.words[offset]
        count = first >> 16
        if not count:
            message = (
                f"instruction at word {offset} has word count 0 (opcode {first & 0xFFFF}); "
                "decoding stops here"
            )
        else:
            message = (
                f"instruction at word {offset} claims {count} words but the binary "
                f"ends at word {n}; decoding stops here"
            )
        self.stop = Diagnostic(message, Severity.ERROR, word_offset=offset)
