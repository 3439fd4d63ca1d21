"""The app's big, long-lived data kept out of the cyclic garbage collector, and full
collections moved to moments when the user is idle.

An opened module with its index, or an editing session, is millions of objects that live
as long as their screen; a full collection walks them all (long pauses on a large
module), which land on keys. `gc.freeze` puts everything tracked so far out of the
collector's reach and `gc.unfreeze` gives all of it back, for the whole process. The
index and the editor freeze at different times, so the collector gets the objects back
only when the last holder lets go (what they leave behind meanwhile is freed by
reference counting; only cycles wait).

Whatever is frozen is out of reach even once it is garbage, so each freeze after the
first collects first: the cycles made since the last freeze (drawn strips and their
caches, a replaced document's parts) would otherwise be kept for as long as the editor
is open, a few megabytes an edit on a large module. That collection walks only what is
not frozen yet, but it is a full one (tens of milliseconds under load), and the editor
asks for a freeze after every edit: while the app runs its idle collections, a freeze
asked for waits for the user to pause (`IdleCollections.freeze_if_due`). Nothing is
lost meanwhile: with the third threshold out of reach, what is not frozen yet is walked
by no collection of the collector's own either.

What is not frozen still grows between keys (decoded chunks, drawn strips, graphs): the
collector's own full collections over it paused whatever key came next. While
the app runs they are left to `collect_if_idle`, which its timer calls: young
generations are still collected as usual, and a full collection runs once the user has
paused and enough has piled up. That one takes in the frozen objects too (`collect_all`).
"""

from __future__ import annotations

import gc
from collections.abc import Hashable

_holders: set[Hashable] = set()
_deferred = False
"""True while an app's idle collections run: `keep_out` then leaves the freeze to them."""
_freeze_due = False
"""A freeze asked for that waits for an idle moment."""
_frozen = False
"""True when this module has frozen objects since it last unfroze them (`gc.get_freeze_count`
would tell, but it counts them one by one: milliseconds per million)."""

NEVER = 1 << 30
"""A third threshold no count reaches: no full collection but `collect_if_idle`'s."""
FULL_AFTER = 10
"""Middle-generation collections since the last full one that make a full one due (the
collector's own default rule, without its timing)."""


def keep_out(holder: Hashable) -> None:
    """Freeze what lives now, on behalf of `holder` (e.g. `(screen, "index")`), after
    collecting the garbage made since the last freeze: at the next idle moment while an
    app's idle collections run (any thread may ask), else at once."""
    global _freeze_due
    _holders.add(holder)
    if _deferred:
        _freeze_due = True
    else:
        _freeze()


def _freeze() -> None:
    global _freeze_due, _frozen
    _freeze_due = False
    if _frozen:
        gc.collect()
    gc.freeze()
    _frozen = True


def let_in(holder: Hashable) -> None:
    """`holder` no longer needs it; once no holder does, unfreeze."""
    global _freeze_due, _frozen
    _holders.discard(holder)
    if not _holders:
        _freeze_due = _frozen = False
        gc.unfreeze()


class IdleCollections:
    """Full collections only when asked, while the user is idle: from `start` to `stop`
    the collector's third threshold is out of reach."""

    def __init__(self) -> None:
        self._thresholds: tuple[int, int, int] | None = None
        self._middle_at_last_full = 0

    def start(self) -> None:
        global _deferred
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, NEVER)
            self._middle_at_last_full = _middle_collections()
            _deferred = True

    def stop(self) -> None:
        global _deferred
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
            _deferred = False
            if _freeze_due and _holders:
                _freeze()

    def freeze_if_due(self) -> bool:
        """Run the freeze `keep_out` left for an idle moment (for the caller: the user is
        idle), with its collection; True when it ran."""
        if not _freeze_due or not _holders:
            return False
        _freeze()
        return True

    def collect_if_idle(self) -> bool:
        """Run a full collection when one is due (for the caller: the user is idle);
        True when it ran."""
        if self._thresholds is None or _middle_collections() - self._middle_at_last_full < FULL_AFTER:
            return False
        collect_all()
        self._middle_at_last_full = _middle_collections()
        return True


def collect_all() -> None:
    """A full collection of everything, frozen or not, and what lives after it frozen again
    for whoever still holds it (a freeze that was due included): what was frozen alive and
    has become garbage since (a replaced document, strips evicted from a cache) is freed
    here, not kept until the editor closes. Cheap enough for an idle moment: the codec
    keeps a module in arrays, not objects, and the instructions it caches decoded are out
    of the collector's sight (`codec.binary.untracked`); what it walks is mostly Textual's
    (widgets, their styles, drawn strips) and the editor's tables. What it finds frozen and
    dead is Textual's too: strips that keep themselves in their own caches, the virtual
    nodes of component styles, replaced footer keys."""
    global _freeze_due, _frozen
    gc.unfreeze()
    _frozen = False
    gc.collect()
    if _holders:
        _freeze_due = False
        gc.freeze()
        _frozen = True


def _middle_collections() -> int:
    """How many times the middle generation has been collected (full ones included)."""
    stats = gc.get_stats()
    return stats[1]["collections"] + stats[2]["collections"]
