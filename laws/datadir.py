"""The data directory's builds: one build at a time, the switch of `current`,
and what is kept.

    data/.build.lock                    held by the running build (flock)
    data/current -> builds/<stamp>      the build being served
    data/builds/<stamp>/                finished builds
    data/builds/.tmp-<stamp>/           a build being written

* One build at a time: a build holds an exclusive lock on `.build.lock` from
  start to end; a second build stops at once with a message naming the first
  (its process and start time).  The lock is the operating system's
  (flock), so a killed build releases it: there is no stale lock to remove.
* Leftovers: a build killed half-way leaves `builds/.tmp-*`.  The next build,
  holding the lock, knows no other build is writing, and removes them.
* Pruning keeps the build just switched in and the one served before it (a
  server may still be answering from it, and it is the one to go back to).
"""
from __future__ import annotations

import fcntl
import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

CURRENT = "current"
BUILDS = "builds"
LOCK = ".build.lock"
TMP_PREFIX = ".tmp-"


class BuildRunning(Exception):
    """Another build holds the lock."""


@contextmanager
def build_lock(data_dir: Path):
    """Hold the data directory's build lock, or raise BuildRunning at once."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
            who = (f"process {holder[0]}, since {holder[1]}" if len(holder) >= 2 else "another process")
            raise BuildRunning(f"another build is running ({who}) in {data_dir}: wait for it to finish, "
                               "then build again if the corpus changed since") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {time.strftime('%H:%M:%S')}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def remove_leftovers(data_dir: Path) -> None:
    """Remove what killed builds left behind.  Call only while holding the lock."""
    data_dir = Path(data_dir)
    builds = data_dir / BUILDS
    if builds.is_dir():
        for p in builds.glob(f"{TMP_PREFIX}*"):
            shutil.rmtree(p, ignore_errors=True)
    for p in data_dir.glob(f".{CURRENT}-*"):  # a link made but not yet renamed over `current`
        if p.is_symlink():
            p.unlink()


def served(data_dir: Path) -> str | None:
    """The name of the build `current` points at, if any."""
    link = Path(data_dir) / CURRENT
    return os.readlink(link).split("/")[-1] if link.is_symlink() else None


def switch(data_dir: Path, final: Path) -> None:
    """Point data/current at `final` in one atomic rename."""
    link = Path(data_dir) / CURRENT
    tmp_link = Path(data_dir) / f".{CURRENT}-{final.name}"
    tmp_link.symlink_to(Path(BUILDS) / final.name)
    os.replace(tmp_link, link)


def prune(data_dir: Path, keep: set[str | None]) -> None:
    """Remove finished builds other than those named in `keep`."""
    builds = Path(data_dir) / BUILDS
    for p in builds.iterdir():
        if not p.name.startswith(".") and p.name not in keep:
            shutil.rmtree(p, ignore_errors=True)
