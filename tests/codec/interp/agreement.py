"""Comparing the interpreter's outputs with a driver's, component by component: exact
for integers, float32 rounding (4 ulp) for arithmetic, GLSL's stated precision (2^-11,
as for sin and cos) as the loosest tier; undefined components are not counted."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

ROUNDING = 4 * 2.0**-23
PRECISION = 2.0**-11


@dataclass
class Agreement:
    exact: int = 0
    """Components equal, or within float32 rounding."""
    close: int = 0
    """Floats within GLSL's precision but not rounding."""
    missed: int = 0
    undefined: int = 0
    misses: list = field(default_factory=list)

    @property
    def compared(self) -> int:
        return self.exact + self.close + self.missed

    @property
    def ratio(self) -> float:
        return (self.exact + self.close) / self.compared if self.compared else 1.0

    def add(self, other: Agreement) -> None:
        self.exact += other.exact
        self.close += other.close
        self.missed += other.missed
        self.undefined += other.undefined
        self.misses.extend(other.misses[:20])


def _number(v):
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v)
    return v


def compare(ours, ref, where: str = "", agreement: Agreement | None = None) -> Agreement:
    a = agreement or Agreement()
    if isinstance(ref, dict):
        for k, v in ref.items():
            compare(ours.get(k) if isinstance(ours, dict) else None, v, f"{where}.{k}", a)
        return a
    if isinstance(ref, list):
        ours_list = ours if isinstance(ours, list) else []
        for i, v in enumerate(ref):
            compare(ours_list[i] if i < len(ours_list) else None, v, f"{where}[{i}]", a)
        return a
    if ours == "undef":
        a.undefined += 1
        return a
    x, y = _number(ours), _number(ref)
    if x is None or y is None or isinstance(x, bool) != isinstance(y, bool):
        a.missed += 1
        a.misses.append((where, ours, ref))
        return a
    if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool):
        if x == y:
            a.exact += 1
        else:
            a.missed += 1
            a.misses.append((where, ours, ref))
        return a
    x, y = float(x), float(y)
    if x == y or (math.isnan(x) and math.isnan(y)):
        a.exact += 1
    elif math.isinf(x) or math.isinf(y) or math.isnan(x) or math.isnan(y):
        a.missed += 1
        a.misses.append((where, ours, ref))
    else:
        scale = max(abs(x), abs(y))
        diff = abs(x - y)
        if diff <= ROUNDING * scale or diff <= 1e-37:
            a.exact += 1
        elif diff <= PRECISION * max(scale, 1.0):
            a.close += 1
        else:
            a.missed += 1
            a.misses.append((where, ours, ref))
    return a
