"""Steps and results as text (and a step as JSON), for `run --trace` and the outputs."""

from __future__ import annotations

import json

from spvinspect.codec.interp.memory import Pointer
from spvinspect.codec.interp.types import to_json


def value_json(shader, result_id: int, value):
    if isinstance(value, Pointer):
        return "&" + value.describe()
    return to_json(shader.id_types.get(result_id), value)


def undefined_paths(value, path: str = "") -> list[str]:
    """Where a JSON result holds an undefined value ("undef"): `outputs.color[0]`,
    `buffers.0.1.data[2].x`, in order."""
    if value == "undef":
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in undefined_paths(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in undefined_paths(v, f"{path}[{i}]")]
    return []


def format_record(shader, rec, names: dict[int, str], as_json: bool = False):
    """One step: `offset  OpName  %id = value` and the stores it made."""
    value = value_json(shader, rec.result_id, rec.value) if rec.result_id and rec.value is not None else None
    stores = [(where, to_json(None, v) if not isinstance(v, Pointer) else "&" + v.describe()) for where, v in rec.stores]
    if as_json:
        out = {"offset": rec.offset, "opcode": rec.opname}
        if value is not None:
            out["id"] = rec.result_id
            out["value"] = value
        if stores:
            out["stores"] = [{"to": w, "value": v} for w, v in stores]
        if rec.note:
            out["note"] = rec.note
        return out
    text = f"{rec.offset:6d}  {rec.opname}"
    if value is not None:
        name = names.get(rec.result_id)
        text += f"  %{name or rec.result_id} = {json.dumps(value)}"
    for where, v in stores:
        text += f"  {where} <- {json.dumps(v)}"
    if rec.note:
        text += f"  ({rec.note})"
    return text


def format_result(result: dict) -> str:
    lines = [f"entry {result['entry']} ({result['stage']}), {result['steps']} steps"]
    if result.get("killed"):
        lines.append("the invocation was killed (discard)")
    if result.get("stopped"):
        lines.append(f"stopped: {result['stopped']}")
    for name, value in result.get("outputs", {}).items():
        lines.append(f"output {name} = {json.dumps(value)}")
    for key, value in result.get("buffers", {}).items():
        lines.append(f"buffer {key} = {json.dumps(value)}")
    for key, value in result.get("images", {}).items():
        lines.append(f"image {key} = {json.dumps(value)}")
    if result.get("undefined"):
        lines.append(f"undefined (the specification gives no value): {', '.join(result['undefined'])}")
    if "grid" in result:
        g = result["grid"]
        lines.append(f"grid {g['width']}x{g['height']}: {json.dumps(g['pixels'])}")
    return "\n".join(lines)
