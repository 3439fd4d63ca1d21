"""The app's big, long-lived data kept out of the cyclic garbage collector.

An opened module with its index, or an editing session, is millions of objects that live
as long as their screen; a full collection walks them all (0.1-0.4 s on the large
module), pauses that land on keys. `gc.freeze` puts everything tracked so far out of the
collector's reach and `gc.unfreeze` gives all of it back, for the whole process. The
index and the editor freeze at different times, so the collector gets the objects back
only when the last holder lets go (what they leave behind meanwhile is freed by
reference counting; only cycles wait).
"""

from __future__ import annotations

import gc
from collections.abc import Hashable

_holders: set[Hashable] = set()


def keep_out(holder: Hashable) -> None:
    """Freeze what lives now, on behalf of `holder` (e.g. `(screen, "index")`)."""
    gc.freeze()
    _holders.add(holder)


def let_in(holder: Hashable) -> None:
    """`holder` no longer needs it; once no holder does, unfreeze."""
    _holders.discard(holder)
    if not _holders:
        gc.unfreeze()
