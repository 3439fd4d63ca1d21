"""The installed distribution is one package, `spvinspect`, and lives beside PyPI's
`lima`, `themes` and `inspector` distributions, whose import names it used to take."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "inspector" / "examples" / "example.spv"
BIN = Path(sys.executable).parent
CLASHING = ("lima", "themes", "inspector")
"""PyPI distributions whose import names are the repository's folder names."""


def pip(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True, text=True, cwd=cwd, check=False,
    )


def test_the_wheel_holds_spvinspect_and_its_metadata_only(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".oracle-cache"))
    built = pip("wheel", "--no-deps", "-w", str(tmp_path), str(source), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("spvinspect-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/", 1)[0] for name in names}
    assert top == {"spvinspect", next(t for t in top if t.endswith(".dist-info"))}
    for needed in ("spvinspect/__main__.py", "spvinspect/codec/grammar.py", "spvinspect/lima/mbs.py",
                   "spvinspect/themes/pygments_styles.py", "spvinspect/examples/example.spv", "spvinspect/app.tcss"):
        assert needed in names
    packages = {str(Path(name).parent).replace("/", ".") for name in names if name.endswith("/__init__.py")}
    roots = {"inspector": "spvinspect", "codec": "spvinspect.codec", "lima": "spvinspect.lima",
             "themes": "spvinspect.themes"}
    folders = {
        ".".join([package, *init.parent.relative_to(ROOT / root).parts])
        for root, package in roots.items()
        for init in (ROOT / root).rglob("__init__.py")
    }
    assert packages == folders, "every folder with an __init__.py is listed in pyproject's packages"


def test_pypi_lima_themes_and_inspector_beside_it_leave_every_command_working(tmp_path: Path) -> None:
    clash = tmp_path / "site"
    installed = pip("install", "--no-deps", "--target", str(clash), *CLASHING, cwd=tmp_path)
    if installed.returncode != 0:
        pytest.skip(f"PyPI's {', '.join(CLASHING)} could not be installed here: {installed.stderr[-300:]}")
    assert {"lima", "themes"} <= {p.name for p in clash.iterdir()} and (clash / "inspector.py").exists()
    env = {**os.environ, "PYTHONPATH": str(clash)}
    listing = subprocess.run([BIN / "spvinspect", "dis", EXAMPLE], capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert listing.returncode == 0, listing.stderr
    assert listing.stdout.startswith("; SPIR-V\n") and "OpFunctionEnd" in listing.stdout
    launched = subprocess.run([BIN / "spvinspect", EXAMPLE], capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert launched.returncode == 0 and launched.stdout == listing.stdout, launched.stderr
    module = subprocess.run([sys.executable, "-m", "spvinspect", "dis", EXAMPLE], capture_output=True, text=True,
                            env=env, cwd=tmp_path, check=False)
    assert module.stdout == listing.stdout, module.stderr
    coloured = subprocess.run([BIN / "pygmentize", "-l", "spirv", "-f", "raw"], input="OpCapability Shader\n",
                              capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert coloured.returncode == 0, coloured.stderr
    assert "Token.Keyword\t'OpCapability'" in coloured.stdout
    found = subprocess.run([sys.executable, "-c", "import importlib.util as u; print(*(u.find_spec(n).origin for n in ('lima', 'themes', 'inspector')))"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert all(origin.startswith(str(clash)) for origin in found.stdout.split()), "PyPI's own under those names"
