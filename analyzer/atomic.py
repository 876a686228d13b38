"""Outputs that replace earlier ones whole or not at all, and never a user's own files.

Every writer of bidlab goes through :func:`atomic_open` (a file) or :func:`atomic_dir` (a
folder of outputs): the data goes to a hidden temporary beside the target, named with the
writer's process id, and is moved into place only when the writing succeeded, so a reader
never sees half a file and a failed or interrupted run leaves the earlier output as it was.
Ctrl-C removes this process's temporaries (:func:`remove_in_flight`); a later run removes
what a killed writer left (:func:`remove_stale_temporaries`). The ``check_*`` functions
say before any work whether an output could be written: a folder that is missing or not
writable, a name too long for the temporary beside it, a folder of someone else's files or
a run store (its chunks are a run's only copy) to be replaced. Each replaced output is
reported to the callback set by :func:`on_replace` (the command line says
``bidlab: replaced PATH`` on stderr). Tables and their provenance are :mod:`analyzer.io`.

May import: the standard library and :mod:`analyzer.parsing` (which imports only the
standard library).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from .parsing import first_few

_on_replace: Callable[[str], None] | None = None


def require_own_file(p: Path, ours: Callable[[Path], bool]) -> None:
    """FileExistsError when a file at ``p`` is not one bidlab wrote (``ours(p)`` says):
    an output replaces only an earlier output, never a user's own file."""
    if os.path.lexists(p) and not (p.is_file() and ours(p)):
        raise FileExistsError(17, "holds a file bidlab did not write; move it, or give "
                              "the output another name", str(p))


def refuse_inside_run_store(path: Path, what: str) -> None:
    """FileExistsError for an output (``what``) inside a run store, a folder whose manifest
    says so: its chunks are the run's only copy, and its folder is the run's alone."""
    for folder in list(path.absolute().parents)[:3]:  # DIR/chunks/<chunk> at the deepest
        if _is_run_store(_manifest_of(folder)):
            raise FileExistsError(17, f"is inside the run store {folder} (its chunks are the "
                                  f"run); write the {what} elsewhere", str(path))


def _manifest_of(folder: Path) -> dict | None:
    """``folder``'s manifest.json as a dict; None when there is none or it is not one."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _is_run_store(manifest: dict | None) -> bool:
    return manifest is not None and str(manifest.get("format", "")).startswith(RUN_STORE_FORMAT)


def on_replace(notice: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Call ``notice(path)`` (the path as the writer was given it) whenever a write replaces
    an existing file or folder of outputs; None: say nothing (the default, for a library).
    The command line sets it once, so every writer says it alike; returns the one before."""
    global _on_replace
    earlier, _on_replace = _on_replace, notice
    return earlier


def _replaced(shown: str) -> None:
    if _on_replace is not None:
        _on_replace(shown)


def check_directory(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a new file could be moved into place there; OSError otherwise.
    Shared by every atomic writer (tables here, figures in :mod:`analyzer.plotting`): the
    target is no directory, its directory exists and is writable, and its name leaves room
    for the temporary name beside it (checked now, not after the work)."""
    p = checked_name(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise IsADirectoryError(21, "is a directory", str(p))
    if not parent.is_dir():
        raise FileNotFoundError(2, "directory does not exist", str(parent))
    _require_writable(parent)
    _require_room_for_temporary(p)
    return p


def checked_name(path: str | os.PathLike) -> Path:
    """``path`` as a Path; an empty name (``--out ''``) would mean the current folder."""
    if not str(path).strip():
        raise FileNotFoundError(2, "an empty name; give a file or folder name", repr(str(path)))
    if "\x00" in str(path):  # os.stat would raise ValueError, not OSError
        raise FileNotFoundError(2, "a name with a NUL byte", repr(str(path))[:80])
    return Path(path)


def _temporary_name(p: Path, kind: str = "tmp") -> Path:
    """A fresh name beside ``p`` for what is written before it is moved into place: hidden,
    with this process's id (so a later run can tell a dead writer's leftovers)."""
    return p.with_name(f".{p.name}.{os.getpid()}.{secrets.token_hex(4)}.{kind}")


_IN_FLIGHT: set[Path] = set()  # this process's temporaries, until moved into place
# held while a temporary is moved into place: Ctrl-C (or SIGTERM) removes the temporaries
# from the main thread while the command's thread may be swapping one in, and a folder
# emptied under a swap went in as a manifest alone (a test caught it, 1 run in ~20)
_SWAPPING = threading.Lock()


def remove_in_flight(ending: bool = False) -> None:
    """Remove the temporaries this process is writing: Ctrl-C ends the process at once
    (``os._exit``), and no ``finally`` runs to do it. A swap under way finishes first.
    ``ending`` (the process ends next): no swap starts after, since one that moved the old
    folder aside and then found its temporary gone would leave neither in place."""
    held = _SWAPPING.acquire(timeout=10)  # not forever: a hung disk must not hang Ctrl-C
    try:
        _remove_temporaries()
    finally:
        if held and not ending:
            _SWAPPING.release()


def _remove_temporaries() -> None:
    for tmp in list(_IN_FLIGHT):
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                tmp.unlink()
    _IN_FLIGHT.clear()


_TEMPORARY_EXTRA = len(".") + 20 + len(".") + 8 + len(".tmp") + 1  # pid up to 20 digits


def _require_room_for_temporary(p: Path) -> None:
    try:
        limit = os.pathconf(p.parent if str(p.parent) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(p.name)) + _TEMPORARY_EXTRA > limit:
        raise OSError(36, f"name too long: at most {limit - _TEMPORARY_EXTRA} bytes here",
                      str(p))


def remove_stale_temporaries(p: Path) -> None:
    """Remove what writers killed before they finished left beside ``p`` (SIGKILL leaves its
    temporary file or folder): only those whose process is gone."""
    for stale in p.parent.glob(f".{glob_escape(p.name)}.*.*"):
        parts = stale.name[len(p.name) + 2:].split(".")
        if len(parts) != 3 or not parts[0].isdigit() or parts[2] not in ("tmp", "old"):
            continue
        if _alive(int(parts[0])):
            continue
        with contextlib.suppress(OSError):
            if stale.is_dir() and not stale.is_symlink():
                shutil.rmtree(stale)
            else:
                stale.unlink()


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _require_writable(folder: Path) -> None:
    """PermissionError unless a file can be created in ``folder``: tried, not only asked
    of the permission bits (root passes ``os.access`` on a read-only mount or /proc, and
    the write failed only after the whole run)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(13, "directory is not writable", str(folder))
    probe = folder / f".bidlab-probe.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as e:
        raise PermissionError(e.errno or 13, "directory is not writable: creating a file there "
                              f"fails ({e.strerror})", str(folder)) from e
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_out_dir(path: str | os.PathLike) -> Path:
    """``path`` as a Path if a folder of outputs could be written there; OSError otherwise.

    The folder may not exist yet (writers create it): then its nearest existing ancestor
    must be a writable directory. An existing folder is replaced whole (:func:`atomic_dir`),
    so it must be empty or an earlier output of bidlab holding only the files its
    ``manifest.json`` lists: a folder of other files (a note, a scenario put beside the
    report) or a run store (its chunks are a run's only copy) is refused, never emptied.
    Nothing is created here, so a run that fails before writing leaves nothing behind.
    """
    p = checked_name(path)
    refuse_inside_run_store(p, "outputs")
    probe = p
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise NotADirectoryError(20, "not a directory", str(probe))
    _require_writable(probe)
    if p.is_dir():
        _require_writable(p.resolve().parent)
        if any(p.iterdir()):
            _require_output_set(p)
    _require_room_for_temporary(p.resolve())
    return p


RUN_STORE_FORMAT = "bidlab-run/"  # the start of a run store's manifest "format"


def _require_output_set(folder: Path) -> None:
    """FileExistsError unless ``folder`` is an earlier output of bidlab (a manifest with
    its version) that holds only the files the manifest lists, and not a run store."""
    manifest = _manifest_of(folder)
    if manifest is None or "bidlab_version" not in manifest:
        raise FileExistsError(17, "holds files bidlab did not write (no bidlab "
                              "manifest.json); give a new or empty folder", str(folder))
    if _is_run_store(manifest):
        raise FileExistsError(17, "is a run store (its chunks are the run; `bidlab resume` "
                              "reads them); give the outputs another folder", str(folder))
    listed = manifest.get("files")
    known = {"manifest.json", *(listed if isinstance(listed, (list, dict)) else ())}
    strays = sorted(str(f.relative_to(folder)) for f in folder.rglob("*")
                    if f.is_file() and str(f.relative_to(folder)) not in known)
    if strays:
        raise FileExistsError(17, f"holds files bidlab did not write ({first_few(strays)}), which "
                              "replacing it would delete; move them or give another "
                              "folder", str(folder))


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike) -> Iterator[Path]:
    """A folder of outputs that replaces ``path`` whole, only when the ``with`` block
    succeeds: the files go into a hidden temporary folder beside it, which is then swapped
    in (in one step where the system can exchange two names, Linux's renameat2; else the
    old folder is moved aside first). A failed or interrupted run leaves the earlier
    folder as it was, or no folder where there was none: never half old, half new.

    >>> with atomic_dir("chart") as out:
    ...     n = (out / "manifest.json").write_text('{"bidlab_version": "0"}')
    >>> sorted(p.name for p in Path("chart").iterdir())
    ['manifest.json']
    """
    shown = str(path)
    p = checked_name(path).absolute()
    p.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(p)
    tmp = _temporary_name(p)
    try:
        tmp.mkdir()
    except OSError as e:  # name the user's folder, not the hidden temporary one
        raise OSError(e.errno, e.strerror, shown) from e
    _IN_FLIGHT.add(tmp)
    try:
        yield tmp
        _fsync_folder(tmp)
        with _SWAPPING:
            existed = p.is_dir()
            held = existed and any(p.iterdir())  # an empty folder is filled, not replaced
            if held:  # what the folder became while the run played
                _require_output_set(p)
            if existed and _exchange(tmp, p):
                shutil.rmtree(tmp)  # the old folder, now under the temporary name
            else:
                if p.is_dir():
                    old = _temporary_name(p, "old")
                    os.rename(p, old)
                    try:
                        os.rename(tmp, p)
                    except BaseException:
                        os.rename(old, p)  # the earlier set back in place, not aside
                        raise
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    os.rename(tmp, p)
        _fsync_folder(p.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        _IN_FLIGHT.discard(tmp)
    if held:
        _replaced(shown)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two names in one step (renameat2 RENAME_EXCHANGE); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return rc == 0


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, say: bool = True,
                shown: str | None = None) -> Iterator[BinaryIO]:
    """A binary file that replaces ``path`` only when the ``with`` block succeeds.

    The data goes to a temporary file beside ``path`` and is moved into place
    with ``os.replace``; on any error the temporary file is removed and an
    existing file at ``path`` is left as it was. A file replaced is reported
    (:func:`on_replace`) as ``shown`` (default ``path``), unless ``say`` is False (a
    table's sidecar: the table is reported).

    >>> with atomic_open("out.bin") as f:
    ...     n = f.write(b"data")
    """
    p = checked_name(path)
    remove_stale_temporaries(p)
    # O_EXCL on a random name, mode 0o666 less the umask: the file ends up with the
    # permissions an ordinary open() would give it (mkstemp would force 0o600)
    tmp = _temporary_name(p)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:  # name the user's path, not the hidden temporary one
        raise OSError(e.errno, e.strerror, str(p)) from e
    _IN_FLIGHT.add(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        with _SWAPPING:
            existed = os.path.lexists(p)
            os.replace(tmp, p)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if e.filename is None:  # a full disk says ENOSPC without naming the file
            raise OSError(e.errno, e.strerror, str(p)) from e
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        _IN_FLIGHT.discard(tmp)
    if existed and say:
        _replaced(str(path) if shown is None else shown)
