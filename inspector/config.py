"""The user's settings (the theme, and keys remapped), kept in the platform's config directory.

`config.json` lives in `$XDG_CONFIG_HOME/spvinspect` (else `~/.config/spvinspect`) on
Linux and other Unixes, `~/Library/Application Support/spvinspect` on macOS and
`%APPDATA%\\spvinspect` on Windows. Nothing here raises: a missing file means defaults,
a file we cannot read or parse is left as it is and reported, and a save replaces the
file atomically (a temporary file renamed over it), so a failed save never loses the
settings already there.

The keys table maps a binding id (shown in the help screen) to its new keys:
`"keys": {"list.down": "down,j,n", "main.raw": ["R"]}`. Its shape is checked here; whether
the ids and key names exist is checked by the app (`inspector.keymap`), which knows them.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "spvinspect"
CONFIG_FILE = "config.json"


KEYS = "keys"
"""The settings' table of remapped keys."""


@dataclass(frozen=True, slots=True)
class KeySettings:
    """The keys table: (binding id, its keys comma-separated) in the file's order, and
    the entries that could not be used, each a one-line reason."""

    bindings: tuple[tuple[str, str], ...] = ()
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Config:
    """The settings read at start-up; `problem` says why the file was not used, if so."""

    theme: str | None = None
    problem: str | None = None
    keys: KeySettings = KeySettings()


def config_dir() -> Path:
    """The directory holding spvinspect's settings on this platform."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_CONFIG_HOME", "")
        # The XDG spec says a relative path is invalid and must be ignored.
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config"
    return base / APP_NAME


def config_path() -> Path:
    """The settings file."""
    return config_dir() / CONFIG_FILE


def _read(path: Path) -> tuple[dict | None, str | None]:
    """The file's settings (None when absent), or None and why it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as error:
        return None, f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"{path}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
    if not isinstance(settings, dict):
        return None, f"{path}: expected a JSON object of settings, found {type(settings).__name__}"
    return settings, None


def load_config() -> Config:
    """The saved settings; defaults (and the reason) when the file is missing or unusable."""
    path = config_path()
    settings, problem = _read(path)
    if settings is None:
        return Config(problem=problem)
    keys = _key_settings(path, settings.get(KEYS))
    theme = settings.get("theme")
    if theme is not None and not isinstance(theme, str):
        return Config(problem=f"{path}: \"theme\" should be a theme name, found {json.dumps(theme)}", keys=keys)
    return Config(theme=theme, keys=keys)


def _key_settings(path: Path, table: object) -> KeySettings:
    """The usable entries of the keys table (a string "a,b" or a list of key strings
    each), and a reason for every other one."""
    if table is None:
        return KeySettings()
    where = f'{path}: "{KEYS}"'
    if not isinstance(table, dict):
        return KeySettings(problems=(f"{where} should be an object of binding id → keys, found {json.dumps(table)}",))
    bindings, problems = [], []
    for binding_id, keys in table.items():
        if isinstance(keys, list) and all(isinstance(key, str) for key in keys):
            keys = ",".join(keys)
        if not isinstance(keys, str):
            problems.append(f'{where}: "{binding_id}" should be keys ("j,down" or ["j", "down"]), found {json.dumps(keys)}')
        elif not (parts := [key.strip() for key in keys.split(",") if key.strip()]):
            problems.append(f'{where}: "{binding_id}" has no keys')
        else:
            bindings.append((binding_id, ",".join(parts)))
    return KeySettings(tuple(bindings), tuple(problems))


def save_theme(name: str) -> str | None:
    """Remembers the theme; None when saved, else a one-line reason it was not.

    Other settings in the file are kept. A file that cannot be parsed is not
    overwritten: it may be the user's own edit with a typo.
    """
    path = config_path()
    settings, problem = _read(path)
    if problem is not None:
        return f"theme not saved: {problem}"
    settings = settings or {}
    if settings.get("theme") == name:
        return None
    settings["theme"] = name
    try:
        _write_atomically(path, json.dumps(settings, indent=2) + "\n")
    except OSError as error:
        return f"theme not saved: cannot write {path}: {error.strerror or error}"
    return None


def _write_atomically(path: Path, text: str) -> None:
    """Writes a temporary file beside `path`, flushes it to disk and renames it over `path`.

    A symlinked settings file (dotfile managers do that) is written through to its target,
    keeping the link, and the file keeps its permission bits.
    """
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
