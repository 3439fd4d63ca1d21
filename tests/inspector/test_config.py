"""The remembered theme: saved in the platform's config directory, and no file state —
missing, corrupt, unreadable, unwritable — makes it crash or lose a good file."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from spvinspect import config
from spvinspect.config import Config, config_dir, config_path, load_config, save_theme


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh XDG config home; returns the spvinspect config file path."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "spvinspect" / "config.json"


def test_platform_directories(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/somewhere/config")
    assert config_dir() == Path("/somewhere/config/spvinspect")
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/config")
    assert config_dir() == tmp_path / ".config" / "spvinspect", "a relative XDG_CONFIG_HOME is ignored"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert config_dir() == tmp_path / ".config" / "spvinspect"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert config_dir() == tmp_path / "Library" / "Application Support" / "spvinspect"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert config_dir() == tmp_path / "Roaming" / "spvinspect"


def test_missing_file_gives_defaults_and_a_save_creates_it(home) -> None:
    assert load_config() == Config()
    assert save_theme("spvinspect-light") is None
    assert config_path() == home
    assert json.loads(home.read_text()) == {"theme": "spvinspect-light"}
    assert load_config() == Config(theme="spvinspect-light")
    assert [p.name for p in home.parent.iterdir()] == ["config.json"], "no temporary file left"


def test_save_keeps_other_settings(home) -> None:
    home.parent.mkdir(parents=True)
    home.write_text('{"theme": "spvinspect-dark", "keymap": {"main.raw": "R"}}')
    assert save_theme("spvinspect-high-contrast") is None
    assert json.loads(home.read_text()) == {"theme": "spvinspect-high-contrast", "keymap": {"main.raw": "R"}}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"theme": "spvinspect-dark",\n  oops}', "config.json:2:3: not valid JSON"),
        ('["spvinspect-dark"]', "expected a JSON object of settings, found list"),
        ('{"theme": 7}', '"theme" should be a theme name, found 7'),
        (b"\xff\xfe{}", "cannot read"),
    ],
)
def test_unusable_file_is_reported_and_never_overwritten(home, content, problem) -> None:
    home.parent.mkdir(parents=True)
    data = content if isinstance(content, bytes) else content.encode()
    home.write_bytes(data)
    loaded = load_config()
    assert loaded.theme is None
    assert problem in loaded.problem
    if "theme" not in problem:
        message = save_theme("spvinspect-light")
        assert message.startswith("theme not saved: ") and problem in message
        assert home.read_bytes() == data


def test_a_directory_in_the_way_is_reported(home) -> None:
    home.mkdir(parents=True)
    assert "cannot read" in load_config().problem
    assert save_theme("spvinspect-light").startswith("theme not saved")


def test_failed_write_keeps_the_old_file(home, monkeypatch) -> None:
    home.parent.mkdir(parents=True)
    home.write_text('{"theme": "spvinspect-dark"}')

    def disk_full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(config.os, "replace", disk_full)
    assert save_theme("spvinspect-light") == (
        f"theme not saved: cannot write {home}: No space left on device"
    )
    assert home.read_text() == '{"theme": "spvinspect-dark"}'
    assert [p.name for p in home.parent.iterdir()] == ["config.json"], "the temporary file is removed"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_directory_is_reported(home) -> None:
    home.parent.mkdir(parents=True)
    home.write_text('{"theme": "spvinspect-dark"}')
    home.parent.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert save_theme("spvinspect-light").startswith("theme not saved: cannot write")
    finally:
        home.parent.chmod(stat.S_IRWXU)
    assert load_config().theme == "spvinspect-dark"


def test_symlinked_file_is_written_through_with_its_mode(home, tmp_path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "spvinspect.json"
    target.write_text("{}")
    target.chmod(0o640)
    home.parent.mkdir(parents=True)
    home.symlink_to(target)
    assert save_theme("spvinspect-light") is None
    assert home.is_symlink()
    assert json.loads(target.read_text()) == {"theme": "spvinspect-light"}
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_keys_table_is_read_and_its_bad_entries_reported(home) -> None:
    home.parent.mkdir(parents=True)
    home.write_text(
        json.dumps(
            {
                "theme": "spvinspect-dark",
                "keys": {"list.down": " down, j ,n", "main.raw": ["R", "ctrl+r"], "list.up": 3, "list.first": "", "list.last": [1]},
            }
        )
    )
    loaded = load_config()
    assert loaded.theme == "spvinspect-dark" and loaded.problem is None
    assert loaded.keys.bindings == (("list.down", "down,j,n"), ("main.raw", "R,ctrl+r"))
    problems = "\n".join(loaded.keys.problems)
    assert len(loaded.keys.problems) == 3
    assert '"list.up" should be keys ("j,down" or ["j", "down"]), found 3' in problems
    assert '"list.first" has no keys' in problems
    assert '"list.last" should be keys' in problems and str(home) in problems


def test_keys_that_are_not_a_table_are_reported_and_the_theme_kept(home) -> None:
    home.parent.mkdir(parents=True)
    home.write_text('{"theme": "spvinspect-light", "keys": ["j"]}')
    loaded = load_config()
    assert loaded.theme == "spvinspect-light"
    assert loaded.keys.bindings == ()
    assert loaded.keys.problems == (f'{home}: "keys" should be an object of binding id → keys, found ["j"]',)
