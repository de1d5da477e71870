"""Running the `recycle` command as an attacker would meet it: a subprocess under time, memory and
file-size limits, in a folder of its own, with a record of every file it wrote.

    res = run_cli(["replay", "t.jsonl"], cwd=case)
    res.assert_refused(2, "not a path inside")      # one clear message, the status, no traceback
    assert res.written == []                         # nothing written anywhere under the case folder

Output goes to files (never to memory) and each of them is capped by RLIMIT_FSIZE, so a flood of
messages ends the process instead of the test; `out` and `err` keep the first MAX_KEPT bytes.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import attrs

from . import REPO

TIME_LIMIT = 120             # seconds of wall time per command
MEMORY_LIMIT = 3 * 1024 ** 3  # bytes of address space (numpy and matplotlib reserve much more than they use)
FILE_LIMIT = 64 * 1024 ** 2   # bytes per file written, stdout and stderr included
MAX_KEPT = 1024 ** 2


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and link under root (not followed): relative path -> (size, mtime in ns)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return out


@attrs.frozen
class Result:
    argv: list
    code: int
    out: str
    err: str
    out_bytes: int
    err_bytes: int
    written: list  # files under the watched folder that are new or changed, outside the allowed ones

    def assert_refused(self, code: int, *words: str, max_lines: int = 1) -> None:
        """A clear refusal: the status, one `error:` line (or max_lines) naming the problem, no trace."""
        what = f"{self.argv}: status {self.code}\nstdout: {self.out[:2000]}\nstderr: {self.err[:2000]}"
        assert self.code == code, what
        assert "Traceback" not in self.err and "internal error" not in self.err, what
        lines = self.err.strip().splitlines()
        assert 1 <= len(lines) <= max_lines, what
        for w in words:
            assert w in self.err, f"{w!r} missing; {what}"
        assert self.out_bytes + self.err_bytes < 64 * 1024, what


def run_cli(argv: list, cwd: Path, *, watch: Path | None = None, allowed: tuple[Path, ...] = (),
            stdout=None, timeout: float = TIME_LIMIT) -> Result:
    """`python -m recycle ARGV` in cwd under the limits; files written under `watch` (default cwd) outside
    `allowed` folders are reported in `written`.  `stdout` may be given (a pipe's end) instead of a file."""
    watch = watch or cwd
    cwd.mkdir(parents=True, exist_ok=True)
    private = cwd / ".sandbox"
    for d in ("home", "tmp", "mpl"):
        (private / d).mkdir(parents=True, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(private / "home"),
           "TMPDIR": str(private / "tmp"), "MPLCONFIGDIR": str(private / "mpl"), "LANG": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "COLUMNS": "100"}
    before = snapshot(watch)
    out_path, err_path = private / "stdout", private / "stderr"
    with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
        try:
            proc = subprocess.run([sys.executable, "-m", "recycle", *map(str, argv)], cwd=cwd, env=env,
                                  stdin=subprocess.DEVNULL, stdout=fo if stdout is None else stdout, stderr=fe,
                                  preexec_fn=_limits, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{argv}: no answer within {timeout} s") from None
    after = snapshot(watch)
    skip = (private, *allowed)
    written = sorted(p for p, v in after.items() if before.get(p) != v
                     and not any((watch / p).is_relative_to(a) for a in skip))

    def kept(path: Path) -> tuple[str, int]:
        with open(path, "rb") as f:
            data = f.read(MAX_KEPT)
        return data.decode("utf-8", "replace"), path.stat().st_size

    out, n_out = kept(out_path)
    err, n_err = kept(err_path)
    return Result(list(argv), proc.returncode, out, err, n_out, n_err, written)
