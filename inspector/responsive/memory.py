"""Memory handed back to the system while editing a big module (glibc's malloc only;
elsewhere these do nothing).

Every edit of a big module makes buffers of megabytes (the new binary, its words, its
index arrays) on the job thread and frees the previous ones. glibc serves a large block
from the heap once a block of its size has been freed (its mmap threshold rises to it),
and a freed block inside a heap or a thread's arena goes back to the system only when it
is at the top: the process's resident size grew by the edits' buffers, edit after edit.
Each thread that allocates may also get an arena of its own (up to eight a core), each
keeping its free pages. `large_blocks_mapped` fixes the threshold, so each large block
is a mapping of its own, unmapped when freed, and caps the arenas (`ARENAS`); `trim`
gives back the free pages inside the heaps and arenas (what a big job leaves behind),
and is called after the editor's jobs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

LARGE_BLOCK = 1 << 20
"""Blocks from this size on get a mapping of their own (glibc's default starts at 128 KiB
and rises with what is freed, up to 32 MiB)."""
ARENAS = 2
"""Arenas at most: the UI thread's and one the worker threads share (their work holds
the GIL: they seldom allocate at once)."""
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
"""mallopt's parameter numbers (malloc.h)."""


@cache
def _glibc():
    """The C library when it is glibc (it has `malloc_trim`), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    except (OSError, AttributeError):
        return None
    return libc


def large_blocks_mapped() -> bool:
    """Serve blocks of `LARGE_BLOCK` bytes and more from mappings of their own, and use
    `ARENAS` arenas at most, for the whole process; True when set."""
    libc = _glibc()
    return bool(libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, LARGE_BLOCK) and libc.mallopt(_M_ARENA_MAX, ARENAS))


def trim() -> bool:
    """Give the free pages of every heap and arena back to the system (a call into the C
    library, without the GIL: other threads run meanwhile); True when some were."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(0))
