"""The board's setup book, made from a certificate (format: firmware/attila/opponent/book.py).

    attila book CERT [--out FILE] [--answers FILE]

The certificate's "book" section lists the placement played at every setup
position the board can meet; here the positions are folded by the layout's
symmetries (each answer moved into the orientation of its canonical image, which
must agree across images) and written as sorted 5-byte records (key,
answer, check byte). --answers
also writes the certificate's positions and answers as text lines (first
placer's squares, second's, answer) for the portable tests.
"""

import os
import sys

from attila.opponent.book import crc8, key
from attila_tools.errors import ToolError
from attila_tools.options import Parser
from attila_tools.solve.retro_cert import layout_of, read
from attila_tools.solve.retro_setup import canonical
from attila_tools.solve.symmetry import automorphisms

MAGIC = b"ATB2"
OLD_MAGICS = (b"ATB1",)  # books of earlier formats: ours to overwrite


class BookWriteError(ToolError):
    """A book that cannot be made; the message is the one line to show."""


def _mask(layout, text):
    m = 0
    for name in text.split():
        m |= 1 << layout.index(name)
    return m


def records(cert, path="certificate"):
    """(layout, perms, {key: (f, s, answer)}) in the canonical orientations."""
    layout = layout_of(cert, path)
    if layout.size > 20:
        raise BookWriteError("%s: books hold layouts of at most 20 squares" % path)
    perms = automorphisms(layout)
    out = {}
    for entry in cert["book"]:
        try:
            first, second, answer = entry
            f0 = _mask(layout, first)
            s0 = _mask(layout, second)
            a0 = layout.index(answer)
        except (ValueError, TypeError) as e:
            raise BookWriteError("%s: book entry %r: %s" % (path, entry, e))
        perm, f, s = canonical(perms, f0, s0)
        a = perm[a0]
        k = key(layout.size, f, s)
        if out.get(k, (f, s, a)) != (f, s, a):
            raise BookWriteError("%s: book entries %r disagree with a symmetric image"
                            % (path, entry))
        out[k] = (f, s, a)
    return layout, perms, out


def encode(layout, perms, recs):
    """The book file's bytes."""
    n = layout.size
    if len(recs) >= 1 << 16:
        raise BookWriteError("the book has %d records; at most 65535 fit" % len(recs))
    out = bytearray(MAGIC)
    out += bytes((n, len(perms) - 1, len(recs) >> 8, len(recs) & 255))
    out += bytes(layout.files) + bytes(layout.ranks)
    for perm in perms[1:]:
        out += bytes(perm)
    for k in sorted(recs):
        record = k.to_bytes(3, "big") + bytes((recs[k][2],))
        out += record + bytes((crc8(record, 4),))
    return bytes(out)


def answer_lines(cert):
    """The certificate's book as text lines, one position each: "a1,c2 b3 e4".

    First placer's squares, second placer's ("-" for none), the answer: what
    the board's reader must say at that position (tests/portable/test_book.py).
    """
    out = []
    for first, second, answer in cert["book"]:
        out.append("%s %s %s" % (",".join(first.split()) or "-",
                                 ",".join(second.split()) or "-", answer))
    return out


def ours(path):
    """True when the file at path is missing or a book (ours to overwrite)."""
    if not os.path.exists(path):
        return True
    with open(path, "rb") as f:
        return f.read(4) in (MAGIC,) + OLD_MAGICS


def write_book(cert, out, path="certificate"):
    """Make the book of a certificate and write it; returns (records, bytes)."""
    layout, perms, recs = records(cert, path)
    data = encode(layout, perms, recs)
    if not ours(out):
        raise BookWriteError("%s exists and is not a setup book: not overwritten" % out)
    tmp = out + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return len(recs), len(data)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    p = Parser(prog="attila book",
                                description="Make the board's setup book from a certificate.")
    p.add_argument("certificate", metavar="CERT")
    p.add_argument("--out", metavar="FILE", help="book file (default: CERT's name, .book)")
    p.add_argument("--answers", metavar="FILE", help="also write the records as text lines")
    args = p.parse_args(argv)
    cert = read(args.certificate)
    out = args.out or default_book_path(args.certificate)
    count, size = write_book(cert, out, args.certificate)
    if args.answers:
        with open(args.answers, "w") as f:
            f.write("\n".join(answer_lines(cert)) + "\n")
    print("%s: %d records, %d bytes" % (out, count, size))
    return 0


def default_book_path(cert_path):
    base = os.path.basename(cert_path)
    for tail in (".cert.json.gz", ".json.gz", ".gz"):
        if base.endswith(tail):
            base = base[: -len(tail)]
            break
    return os.path.join(os.path.dirname(cert_path), base + ".book")
