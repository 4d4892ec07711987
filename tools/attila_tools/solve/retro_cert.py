"""The certificate of a solved layout (gzip JSON) and the choices it records.

    {"format": "attila-certificate/1",
     "layout": {"name": "4x5", "rows": [".....", ...]},
     "first_placer_wins": false,
     "setups": {"legal": 702120, "won_by_first_mover": 574196},
     "strategy": ["@a1 @b3 @c1 @e4 @a4 @d1 loss", ...],
     "book": [["a1", "", "b3"], ["a1 c1", "b3", "e4"], ...]}

strategy: the winner's strategy over the placements as the lines of its
tree, Romans placing first: one placement at the winner's turns, every
legal placement at the other side's, down to the completed setup (or a side
left without a legal placement); the last word is the value for the side to
act there ("win"/"loss", the first placer moving first).
book: the placement the board plays at each setup position it can meet
(it plays either side, follows these answers, the player places anywhere):
[first placer's squares, second placer's squares, answer]. At a won
position the answer wins; at a lost one it leaves the player the fewest
winning replies. Both are chosen by `choose`, in the orientation of the
position's canonical symmetric image, so symmetric positions get
symmetric answers (the board's book folds them).
"""

import gzip
import json

from attila.game.geometry import from_rows
from attila_tools.errors import ToolError
from attila_tools.squares import bits
from attila_tools.solve.retro_setup import canonical

FORMAT = "attila-certificate/1"


class CertificateError(ToolError):
    """A certificate that cannot be read; the message is the one line to show."""


def choose(sv, first, second):
    """The placement played at a setup position (square index), or -1 if there is none.

    Won: the winning placement that leaves the other side the fewest legal
    replies (a smaller tree to certify). Lost: the placement after which the
    other side has the fewest winning replies. Ties: the lowest square, in
    the canonical orientation.
    """
    perm, f, s = canonical(sv.all_perms, first, second)
    legal = bits(sv.legal(f, s))
    if not legal:
        return -1
    winning = sv.winning(f, s)
    if winning:
        best = min(winning, key=lambda c: (bin(sv.legal(*sv.after(f, s, c))).count("1"), c))
    else:
        best = min(legal, key=lambda c: (sv.replies_won(f, s, c), c))
    return perm.index(best)


def strategy(sv):
    """(first placer wins?, lines of the winner's strategy tree)."""
    names = sv.layout.names
    first_wins = sv.wins(0, 0)
    lines = []

    def walk(first, second, path):
        if sv.complete(first, second):
            lines.append(" ".join(path + ["win" if sv.tables.won(first, second, 0) else "loss"]))
            return
        legal = bits(sv.legal(first, second))
        if not legal:
            lines.append(" ".join(path + ["loss"]))
            return
        if sv.first_to_place(first, second) == first_wins:
            legal = [choose(sv, first, second)]
        for c in legal:
            f1, s1 = sv.after(first, second, c)
            walk(f1, s1, path + ["@" + names[c]])

    walk(0, 0, [])
    return first_wins, lines


def book_positions(sv):
    """{(first, second): answer} for every setup position the board can meet, on either side."""
    out = {}
    seen = set()

    def walk(first, second, board_first):
        if (first, second, board_first) in seen or sv.complete(first, second):
            return
        seen.add((first, second, board_first))
        if sv.first_to_place(first, second) == board_first:
            c = choose(sv, first, second)
            if c < 0:
                return
            out[(first, second)] = c
            walk(*sv.after(first, second, c), board_first)
        else:
            for c in bits(sv.legal(first, second)):
                walk(*sv.after(first, second, c), board_first)

    walk(0, 0, True)
    walk(0, 0, False)
    return out


def build(sv):
    """The certificate of a layout as a dict (see the module docstring)."""
    layout = sv.layout
    names = layout.names
    first_wins, lines = strategy(sv)
    legal, won = sv.counts()

    def squares(mask):
        return " ".join(names[i] for i in bits(mask))

    book = [[squares(f), squares(s), names[c]]
            for (f, s), c in sorted(book_positions(sv).items(),
                                    key=lambda kv: (bin(kv[0][0] | kv[0][1]).count("1"), kv[0]))]
    return {
        "format": FORMAT,
        "layout": {"name": layout.name, "rows": layout.rows()},
        "first_placer_wins": first_wins,
        "setups": {"legal": legal, "won_by_first_mover": won},
        "strategy": lines,
        "book": book,
    }


def write(cert, path):
    """Write a certificate as gzip JSON (byte for byte the same for the same content)."""
    text = json.dumps(cert, indent=0, separators=(",", ":")).encode()
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(text)


def read(path):
    """A certificate dict; CertificateError with one line when the file is not one."""
    try:
        with gzip.open(path, "rb") as f:
            cert = json.loads(f.read().decode())
    except gzip.BadGzipFile as e:
        raise CertificateError("%s: not a certificate (gzip JSON): %s" % (path, e))
    except OSError as e:
        raise CertificateError("%s: cannot read the certificate (%s)" % (path, e.strerror or e))
    except (ValueError, EOFError) as e:
        raise CertificateError("%s: not a certificate (gzip JSON): %s" % (path, e))
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise CertificateError("%s: not a certificate: format must be %r" % (path, FORMAT))
    for key, kind in (("layout", dict), ("first_placer_wins", bool), ("setups", dict),
                      ("strategy", list), ("book", list)):
        if not isinstance(cert.get(key), kind):
            raise CertificateError("%s: certificate field %r is missing or not a %s"
                                   % (path, key, kind.__name__))
    return cert


def layout_of(cert, path="certificate"):
    """The Layout a certificate is about."""
    from attila.errors import LayoutError

    lay = cert["layout"]
    try:
        return from_rows(lay["rows"], lay.get("name", ""))
    except (LayoutError, KeyError, TypeError) as e:
        raise CertificateError("%s: layout: %s" % (path, e))
