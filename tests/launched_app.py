"""The app the command line opens, caught before it runs, for the tests that start it as a
user does (`spvinspect FILE OPTIONS…`) and then drive it with `run_test`."""

from __future__ import annotations

from spvinspect import launch
from spvinspect.app import InspectorApp


def launched_app(monkeypatch, tmp_path, args: list[str]) -> InspectorApp:
    """The app `spvinspect ARGS…` opens on a terminal, run from `tmp_path` (so file names
    show as typed, and its own config lives there), before it runs."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    opened: list[InspectorApp] = []
    with monkeypatch.context() as patched:  # only while launching: the tests run the app
        patched.setattr(launch, "on_terminal", lambda: True)
        patched.setattr(InspectorApp, "run", lambda self, *args, **kwargs: opened.append(self))
        assert launch.main(args) == 0
    (app,) = opened
    return app
