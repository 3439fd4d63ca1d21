"""Uniform and varying names of an MBS fragment program, beside the loads that read them.

The names come from the `VUNI` / `VVAR` symbol chunks that `lima.mbs` parses into the
chunk tree (a `STRI` child and the symbol's values); nothing here reads bytes. A
symbol's `offset` is taken as a component (scalar) address, the unit of a scalar load
index, and a symbol spans `dst_stride` components per array entry. Temporaries have no
symbol table in MBS files, so temporary loads and stores stay unnamed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spvinspect.lima.meanings import COMPONENTS
from spvinspect.lima.model import Chunk, Field, Instruction

_TABLES = {"SUNI": "uniform", "SVAR": "varying"}
_VECTOR_ALIGNMENT = 2


@dataclass(frozen=True, slots=True)
class Symbol:
    """One named uniform or varying of the fragment program."""

    name: str
    table: str
    """`uniform` or `varying`."""
    offset: int
    """First component (scalar address) the symbol occupies."""
    component_count: int
    entry_count: int
    stride: int
    """Components from one array entry to the next."""
    byte_offset: int
    """Where its symbol chunk starts in the file."""

    @property
    def span(self) -> int:
        """Components from the first to one past the last the symbol occupies."""
        entries = max(self.entry_count, 1)
        return self.stride * (entries - 1) + max(self.component_count, 1)

    def name_at(self, component: int, count: int) -> str:
        """`u_tint.x`, `v_uv.xy`, `u_lights[2].w`: the symbol's part at `component`
        (relative to its offset), `count` components wide."""
        element, within = divmod(component, self.stride) if self.entry_count > 1 else (0, component)
        text = f"{self.name}[{element}]" if self.entry_count > 1 else self.name
        if count < max(self.component_count, 1) and within + count <= 4:
            text += "." + COMPONENTS[within : within + count]
        return text


@dataclass(frozen=True, slots=True)
class SymbolTable:
    """The uniforms and varyings of the first fragment program, by component address."""

    uniforms: tuple[Symbol, ...] = ()
    varyings: tuple[Symbol, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.uniforms or self.varyings)

    def lookup(self, table: str, alignment: int, index: int) -> str | None:
        """The name a load with this alignment and index reads, or None."""
        width = {0: 1, 1: 2}.get(alignment, 4)
        address = index * width
        symbols = self.uniforms if table == "uniform" else self.varyings
        for symbol in symbols:
            if symbol.offset <= address < symbol.offset + symbol.span:
                return symbol.name_at(address - symbol.offset, width)
        return None


def _values(chunk: Chunk) -> dict[str, int | str]:
    return {f.name: f.value for f in chunk.fields}


def _symbol(chunk: Chunk, table: str) -> Symbol | None:
    values = _values(chunk)
    names = [c for c in chunk.children if c.ident == "STRI"]
    if not names or "offset" not in values:
        return None
    name = _values(names[0]).get("string", "")
    count = int(values.get("component_count", 1))
    return Symbol(
        name=str(name),
        table=table,
        offset=int(values["offset"]),
        component_count=count,
        entry_count=int(values.get("entry_count", 1)),
        stride=int(values.get("dst_stride") or max(count, 1)),
        byte_offset=chunk.byte_offset,
    )


def _fragment(chunks: Iterable[Chunk]) -> Chunk | None:
    for chunk in chunks:
        if chunk.ident == "CFRA":
            return chunk
        found = _fragment(chunk.children) if chunk.ident == "MBS1" else None
        if found is not None:
            return found
    return None


def symbol_table(chunks: Iterable[Chunk]) -> SymbolTable:
    """The symbols of the first `CFRA` chunk; empty for a raw stream or a file without one."""
    fragment = _fragment(chunks)
    if fragment is None:
        return SymbolTable()
    tables: dict[str, list[Symbol]] = {"uniform": [], "varying": []}
    for child in fragment.children:
        table = _TABLES.get(child.ident)
        if table is None:
            continue
        for entry in child.children:
            symbol = _symbol(entry, table)
            if symbol is not None:
                tables[table].append(symbol)
    return SymbolTable(tuple(tables["uniform"]), tuple(tables["varying"]))


def _field_name(f: Field, table: SymbolTable) -> str | None:
    if f.name == "uniform" and f.layout == "load" and f["source"] == 0:
        return table.lookup("uniform", f["alignment"], f["index"])
    if f.name == "varying" and f.layout == "index" and f["source_type"] == 0:
        return table.lookup("varying", f["alignment"], f["index"])
    return None


def instruction_names(instruction: Instruction, table: SymbolTable) -> list[str]:
    """The uniform and varying names the instruction's loads read, in field order."""
    if not table:
        return []
    return [name for f in instruction.fields if (name := _field_name(f, table)) is not None]
