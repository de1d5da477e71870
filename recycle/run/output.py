"""Safe writing into an output folder (--out of `recycle run` and `recycle stats`).

Every file is reached through a descriptor of the folder and one plain name (never a path with a
separator, `.` or `..`), opened with O_NOFOLLOW: a write never follows a symlink and never leaves
the folder.  A name that is a symlink is refused, not replaced through.  Whole files are written to
a temporary file in the same folder and moved into place with os.replace (atomic: a reader, or a
run killed at any moment, sees the old file or the new one, never a part).  Tables that grow game
by game are appended to and truncated back to a recorded size on resume (recycle.run.tables).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from ..errors import UsageError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
TEMP_MARK = ".tmp-recycle-"  # temporary files are named .<name>.tmp-recycle-<pid>
STAGING = ".tmp-recycle-staging-"  # a private folder where whole-batch files are drawn before they are moved in


class OutputError(UsageError):
    """The output folder cannot be written safely (a symlink, a file in the way, a system error)."""


def check_name(name: str) -> str:
    """A plain file name inside the folder: one component, not `.` or `..`, no NUL."""
    if not name or name in (".", "..") or "/" in name or "\0" in name or (os.sep != "/" and os.sep in name):
        raise OutputError(f"refusing to write {name!r}: not a plain file name inside the output folder")
    return name


class OutFolder:
    """An output folder opened once; files are created, replaced, appended and removed inside it only."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd = fd

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: Path, create: bool = True) -> OutFolder:
        """Open (and with `create`, make) the folder `path`; the folder itself may be reached through a
        symlink the user named, nothing inside it is."""
        if str(path) == "":
            raise UsageError("--out '': give a folder name (use --out . for the current folder)")
        if path.exists() and not path.is_dir():
            raise UsageError(f"--out {path}: exists and is not a directory")
        if create:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise UsageError(f"--out {path}: cannot create the folder ({e.strerror or e})") from None
        try:
            fd = os.open(path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except OSError as e:
            raise UsageError(f"--out {path}: cannot open the folder ({e.strerror or e})") from None
        return cls(path, fd)

    def subfolder(self, name: str, create: bool = True) -> OutFolder:
        """A folder inside this one (e.g. transcripts/), itself never a symlink."""
        check_name(name)
        st = self.lstat(name)
        if st is None:
            if not create:
                raise OutputError(f"{self.path / name}: no such folder")
            os.mkdir(name, 0o777, dir_fd=self.fd)
        elif stat.S_ISLNK(st.st_mode):
            raise OutputError(f"{self.path / name} is a symlink: refusing to write through it")
        elif not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{self.path / name}: exists and is not a directory")
        fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        return OutFolder(self.path / name, fd)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> OutFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ looking

    def lstat(self, name: str) -> os.stat_result | None:
        try:
            return os.stat(check_name(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def exists(self, name: str) -> bool:
        return self.lstat(name) is not None

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd))

    def _refuse_link(self, name: str) -> os.stat_result | None:
        st = self.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise OutputError(f"{self.path / name} is a symlink: refusing to write through it")
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{self.path / name}: is a directory, expected a file")
        return st

    # ------------------------------------------------------------------ reading

    def read_bytes(self, name: str) -> bytes:
        self._refuse_link(name)
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        with os.fdopen(fd, "rb") as f:
            return f.read()

    def open_read(self, name: str) -> BinaryIO:
        """A file of this folder opened for reading (binary, buffered): for files too big to read whole."""
        self._refuse_link(name)
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        return os.fdopen(fd, "rb")

    # ------------------------------------------------------------------ writing

    def write_atomic(self, name: str, data: bytes | str | Iterable[bytes], sync: bool = False) -> None:
        """Write a whole file: a temporary file in this folder, then os.replace onto `name`.
        `data` may come in parts (an iterable of bytes), for a file too big to hold at once."""
        self._refuse_link(name)
        if isinstance(data, str):
            data = data.encode("utf-8")
        tmp = f".{name}{TEMP_MARK}{os.getpid()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=self.fd)
        try:
            with os.fdopen(fd, "wb") as f:
                if isinstance(data, bytes):
                    f.write(data)
                else:
                    f.writelines(data)
                if sync:
                    f.flush()
                    os.fsync(f.fileno())
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self.fd)
            raise

    def write_new(self, name: str, data: bytes | str) -> None:
        """Write a whole file in place (created or truncated, no temporary file): for files a journal
        names only once they are complete (the transcripts of a batch, recycle.run.tables)."""
        self._refuse_link(name)
        if isinstance(data, str):
            data = data.encode("utf-8")
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=self.fd)
        try:
            view = memoryview(data)
            while view:
                k = os.write(fd, view)
                view = view[k:]
        finally:
            os.close(fd)

    def append(self, name: str, data: bytes, sync: bool = False) -> int:
        """Append to `name` (created if missing); returns the file's size afterwards."""
        self._refuse_link(name)
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=self.fd)
        try:
            view = memoryview(data)
            while view:
                k = os.write(fd, view)
                view = view[k:]
            if sync:
                os.fsync(fd)
            return os.fstat(fd).st_size
        finally:
            os.close(fd)

    def truncate(self, name: str, size: int) -> None:
        """Cut `name` back to `size` bytes (the size recorded when the games it holds were committed)."""
        st = self._refuse_link(name)
        if st is None or st.st_size < size:
            raise OutputError(f"{self.path / name}: shorter than recorded ({st.st_size if st else 'missing'}, "
                              f"expected at least {size} bytes); the folder was changed since the run stopped")
        fd = os.open(name, os.O_WRONLY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        finally:
            os.close(fd)

    def rename(self, name: str, new: str) -> None:
        """Rename the file `name` to `new`, both in this folder (a symlink in the way is refused)."""
        self._refuse_link(name)
        self._refuse_link(new)
        os.replace(name, check_name(new), src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def remove(self, name: str) -> bool:
        """Remove the entry `name` (a symlink itself, never what it points to); True when there was one."""
        try:
            os.unlink(check_name(name), dir_fd=self.fd)
            return True
        except FileNotFoundError:
            return False

    def remove_temporary(self, name: str) -> bool:
        """Remove a temporary file or staging folder of ours (a folder with what it holds, no symlink followed)."""
        if TEMP_MARK not in name:
            raise OutputError(f"{self.path / name}: not a temporary file of recycle")
        st = self.lstat(name)
        if st is not None and stat.S_ISDIR(st.st_mode):
            shutil.rmtree(name, dir_fd=self.fd)
            return True
        return self.remove(name)

    def remove_dir_if_empty(self, name: str) -> None:
        with contextlib.suppress(OSError):
            os.rmdir(check_name(name), dir_fd=self.fd)

    def sync(self) -> None:
        """fsync the folder itself (its names), after renames."""
        with contextlib.suppress(OSError):
            os.fsync(self.fd)

    def fsync_file(self, name: str) -> None:
        fd = os.open(check_name(name), os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def publish(self, staging: Path, name: str) -> None:
        """Move the file `staging` (written by a library that takes paths, in a private staging folder
        inside this one) onto `name` here, refusing a symlink in the way."""
        self._refuse_link(name)
        os.replace(staging, name, dst_dir_fd=self.fd)
