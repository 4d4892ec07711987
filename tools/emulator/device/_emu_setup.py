# Device side of the emulated board: runs first in every fresh interpreter.
#
# - OSError numbers: the WebAssembly port reports WASI errno values (ENOENT is
#   44 there); a board reports MicroPython's (ENOENT 2), and mpremote parses
#   them. `open` and the `os` module are wrapped to translate.
# - `time`: sleep*/ticks* also poll the host's Ctrl-C (KeyboardInterrupt) and
#   keep the serial line and the file system flowing while main.py runs.
# - `os.listdir("/")` hides the port's own directories (tmp, dev, ...), and
#   os.stat("") is the current directory, as on a board's flash file system.
import sys
import builtins
import _emu_js

# WASI errno -> MicroPython errno (py/mperrno.h)
_ERRNO = {
    63: 1,  # EPERM
    44: 2,  # ENOENT
    71: 3,  # ESRCH
    27: 4,  # EINTR
    29: 5,  # EIO
    60: 6,  # ENXIO
    1: 7,  # E2BIG
    45: 8,  # ENOEXEC
    8: 9,  # EBADF
    12: 10,  # ECHILD
    6: 11,  # EAGAIN
    48: 12,  # ENOMEM
    2: 13,  # EACCES
    21: 14,  # EFAULT
    10: 16,  # EBUSY
    20: 17,  # EEXIST
    75: 18,  # EXDEV
    43: 19,  # ENODEV
    54: 20,  # ENOTDIR
    31: 21,  # EISDIR
    28: 22,  # EINVAL
    41: 23,  # ENFILE
    33: 24,  # EMFILE
    59: 25,  # ENOTTY
    74: 26,  # ETXTBSY
    22: 27,  # EFBIG
    51: 28,  # ENOSPC
    70: 29,  # ESPIPE
    69: 30,  # EROFS
    34: 31,  # EMLINK
    64: 32,  # EPIPE
    18: 33,  # EDOM
    68: 34,  # ERANGE
    37: 36,  # ENAMETOOLONG
    55: 39,  # ENOTEMPTY
    58: 95,  # EOPNOTSUPP
    73: 110,  # ETIMEDOUT
}
_HIDDEN = ("tmp", "home", "dev", "proc")


def _mapped(fn):
    def call(*args, **kw):
        try:
            return fn(*args, **kw)
        except OSError as e:
            n = _ERRNO.get(e.errno)
            if n is None:
                raise
            raise OSError(n)

    return call


import os as _os  # noqa: E402  (the port's own os, before it is replaced)


class _Os:
    pass


_osw = _Os()
for _name in dir(_os):
    if not _name.startswith("__"):
        _v = getattr(_os, _name)
        setattr(_osw, _name, _mapped(_v) if callable(_v) and _name != "VfsPosix" else _v)
_osw.__name__ = "os"


def _is_root(path):
    if path in ("/", "//"):
        return True
    return path in ("", ".") and _os.getcwd() == "/"


def _listdir(path=""):
    names = _mapped(_os.listdir)(path or ".")
    if _is_root(path):
        names = [n for n in names if n not in _HIDDEN]
    return names


def _ilistdir(path=""):
    # (name, type, inode, size) like a board's file system (the port gives 3)
    base = path or "."
    hide = _is_root(path)
    result = []
    for e in _mapped(_os.ilistdir)(base):
        if hide and e[0] in _HIDDEN:
            continue
        size = 0
        if e[1] == 0x8000:
            try:
                size = _os.stat(base.rstrip("/") + "/" + e[0])[6]
            except OSError:
                pass
        result.append((e[0], e[1], 0, size))
    return iter(result)


def _stat(path):
    return _mapped(_os.stat)(path or _os.getcwd())


_osw.listdir = _listdir
_osw.ilistdir = _ilistdir
_osw.stat = _stat
sys.modules["os"] = _osw
sys.modules["uos"] = _osw
builtins.open = _mapped(builtins.open)

import _emu_time  # noqa: E402

sys.modules["time"] = _emu_time
sys.modules["utime"] = _emu_time


def run_boot():
    """What a board does after a reset: run boot.py, then main.py."""
    for name in ("boot.py", "main.py"):
        try:
            _os.stat(name)
        except OSError:
            continue
        try:
            with open(name) as f:
                source = f.read()
            exec(source, {"__name__": "__main__", "__file__": name})
        except SystemExit:
            break
        except BaseException as e:  # noqa: B036  (a board prints every error)
            sys.print_exception(e)
            break
