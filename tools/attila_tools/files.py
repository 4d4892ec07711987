"""The files a command is given: one clear line for whatever lies at a path.

Every `attila` command (and `attila sim`) reads layouts, profiles, scripts,
game logs and saves, and writes pictures. These helpers turn a missing path,
a folder, an unreadable, binary or non-UTF-8 file, or an output that would
land on someone else's file, into a FileError that names the file and says
what is wrong; the command prints it as one line and exits with status 2.
"""

import os

from attila.errors import AttilaError

# The first bytes of the pictures we write: a file that starts otherwise is
# not one of ours, and is never written over.
_MAGIC = {"png": (b"\x89PNG\r\n\x1a\n",), "svg": (b"<?xml", b"<svg")}


class FileError(AttilaError):
    """A file argument that cannot be used (the message names it)."""


def _why(e):
    return e.strerror or str(e)


def read_bytes(path, limit=-1):
    """The bytes of a file (its first `limit` bytes when limit >= 0); the
    errors read as the layouts' (attila.datafile): "PATH: cannot read (why)"."""
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError as e:
        raise FileError("%s: cannot read (%s)" % (path, _why(e)))


def text_of(data, source):
    """UTF-8 bytes as text; FileError for anything that is not text."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileError("%s: not UTF-8 text (byte %d is %#04x)"
                        % (source, e.start + 1, data[e.start]))
    if "\x00" in text:
        raise FileError("%s: binary data, not text" % source)
    return text


def read_text(path):
    """The text of a UTF-8 text file."""
    return text_of(read_bytes(path), path)


def check_output(path, kind):
    """Refuse an output path where `kind` ("png" or "svg") cannot be written
    without harm: no such folder, a folder, or a file that is not such a picture."""
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise FileError("%s: is a folder; give a file name, like %s"
                        % (path, os.path.join(path, "picture." + kind)))
    if not os.path.isdir(folder):
        raise FileError("%s: no folder %s to write it into" % (path, folder))
    if os.path.lexists(path):
        head = read_bytes(path, 16)
        if head and not head.lstrip().startswith(_MAGIC[kind]):
            raise FileError("%s: exists and is not a %s picture; not writing over it "
                            "(give another name)" % (path, kind.upper()))


def shown(path):
    """A path as a command shows it: relative to here when it lies below."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def size_text(nbytes):
    """A size in bytes as a person reads it: MB, GB, or a power of ten."""
    if nbytes >= 1e13:
        return "about 10^%d bytes" % (len(str(int(nbytes))) - 1)
    return "%.2f GB" % (nbytes / 1e9) if nbytes >= 1e8 else "%.1f MB" % (nbytes / 1e6)


def fail(prog, error):
    """Print an error as one line on stderr; the exit status 2."""
    import sys

    sys.stderr.write("%s: %s\n" % (prog, str(error).replace("\n", " ")))
    return 2


def open_card(path, layout):
    """The solved game of a card file on the host, open (attila.opponent.card.Card): `path`
    is the file or the folder that holds attila.tbl, as `attila card` writes it.
    CardError says why not (no file, another layout, damaged)."""
    from attila.opponent.card import FILE, Card, CardError

    if os.path.isdir(path):
        path = os.path.join(path, FILE)
    try:
        f = open(path, "rb")
    except OSError as e:
        raise CardError("%s: %s (write it with attila card LAYOUT FOLDER)"
                        % (path, e.strerror or e))
    try:
        return Card(f, layout, where=path)
    except BaseException:
        f.close()
        raise
