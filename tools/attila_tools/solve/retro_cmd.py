"""`attila solve --from-setup LAYOUT...`: who wins a whole layout, setup included.

For each layout file: solve every play position with the retrograde kernel
(progress bar on stderr, time and memory estimate up front), then minimax
over the setup placements. Prints who wins from the empty board, how many
completed setups each side wins, and writes the certificate (gzip JSON,
attila_tools.solve.retro_cert) and the board's setup book next to each other,
by default boards/solved/<layout>.cert.json.gz and .book. Layouts of more
than MAX_SQUARES squares are out of the method's reach: said, and skipped.
At the end a Markdown table of the results (for the README).
"""

import os
import resource
import sys
import time

from attila_tools.errors import UsageError
from attila_tools.files import shown, size_text
from attila_tools.options import Parser
from attila_tools.solve import bookmaker, retro, retro_cert
from attila_tools.solve.retro_setup import SetupValues

MAX_SQUARES = 20  # the table is 2^(n-6) bits per knight placement: 1.6 GB at 20
SOLVED = os.path.join(retro.ROOT, "boards", "solved")


def build_parser():
    p = Parser(
        prog="attila solve --from-setup",
        description="Solve whole layouts from the empty board (setup included) "
        "with the retrograde solver; write certificates and setup books.")
    p.add_argument("--from-setup", dest="layouts", nargs="+", metavar="LAYOUT", required=True,
                   help="layout files, e.g. boards/4x5.json")
    p.add_argument("--out", metavar="DIR", default=SOLVED,
                   help="folder for the certificates and books (default: boards/solved)")
    p.add_argument("--threads", type=int, default=2, metavar="N",
                   help="threads of the kernel (default 2)")
    p.add_argument("--keep-tables", action="store_true",
                   help="also keep the play tables in build/retro/ (1.6 GB for 20 squares) "
                   "for attila_tools.solve.retro.Tables.load")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _name(path, layout):
    return layout.name or os.path.splitext(os.path.basename(path))[0]


def solve_layout(path, args, out):
    """Solve one layout file; returns its table row (dict) or None when out of reach."""
    from attila.game.layoutfile import load

    layout, _modules, tiles = load(path)
    name = _name(path, layout)
    n = layout.size
    if tiles is not None and tiles != n - 6:
        out.write("%s: a supply of %d tiles; the retrograde solver covers the default (%d)\n"
                  % (name, tiles, n - 6))
        return None
    if n > MAX_SQUARES or n < 7:
        out.write("%s: %d squares: out of reach of the retrograde solver (7 to %d squares; "
                  "its table holds 2^(n-6) bits per knight placement, %s here)\n"
                  % (name, n, MAX_SQUARES, _table_size(n)))
        return {"name": name, "squares": n, "reach": False}
    seconds, nbytes = retro.estimate(layout, args.threads)
    ix = retro.Index(layout)
    out.write("%s: %d squares, %s knight placements x %s scorched sets; table %s, "
              "about %d s on %d threads (estimate)\n"
              % (name, n, format(ix.rows, ","), format(1 << ix.m, ","), size_text(nbytes),
                 seconds, args.threads))
    out.flush()
    t0 = time.perf_counter()
    c0 = _cpu()
    progress = None if args.quiet else retro.Progress(1, label=name)
    tables = retro.solve(layout, args.threads, progress)
    solve_s = time.perf_counter() - t0
    sv = SetupValues(tables)
    cert = retro_cert.build(sv)
    wall = time.perf_counter() - t0
    cpu = _cpu() - c0
    os.makedirs(args.out, exist_ok=True)
    cert_path = os.path.join(args.out, name + ".cert.json.gz")
    book_path = os.path.join(args.out, name + ".book")
    _write_certificate(cert, cert_path)
    count, size = bookmaker.write_book(cert, book_path, cert_path)
    if args.keep_tables:
        out.write("tables kept in %s\n" % tables.save())
    tables.close()  # 1.6 GB: free before the next layout
    legal = cert["setups"]["legal"]
    won = cert["setups"]["won_by_first_mover"]
    first = cert["first_placer_wins"]
    out.write("%s: the %s placer wins (Romans placing first: %s win; Huns placing first: "
              "%s win)\n" % (name, "first" if first else "second",
                             "Romans" if first else "Huns", "Huns" if first else "Romans"))
    out.write("%s: %s legal completed setups; the side that moves first wins %s of them, "
              "the other side %s\n" % (name, format(legal, ","), format(won, ","),
                                        format(legal - won, ",")))
    out.write("%s: certificate %s (%s lines), book %s (%s records, %s bytes)\n"
              % (name, shown(cert_path), format(len(cert["strategy"]), ","),
                 shown(book_path), format(count, ","), format(size, ",")))
    out.write("%s: %.0f s (play tables %.0f s), %.0f s CPU, peak memory %s\n"
              % (name, wall, solve_s, cpu, size_text(_peak_rss())))
    out.flush()
    return {"name": name, "squares": n, "reach": True, "first_wins": first,
            "legal": legal, "won": won, "seconds": wall, "cpu": cpu}


def _table_size(n):
    from math import comb

    try:
        return size_text(comb(n, 3) * comb(n - 3, 3) * (1 << (n - 6)) // 8)
    except ValueError:
        return "nothing"


def _write_certificate(cert, path):
    if os.path.exists(path):
        try:
            retro_cert.read(path)
        except retro_cert.CertificateError:
            raise retro_cert.CertificateError(
                "%s exists and is not a certificate: not overwritten" % path)
    tmp = path + ".part"
    retro_cert.write(cert, tmp)
    os.replace(tmp, path)


def _cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime


def _peak_rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def table(rows):
    """The README table of the results."""
    lines = ["| layout | squares | who wins | completed setups won by the first mover | time |",
             "|---|---|---|---|---|"]
    for r in rows:
        if not r["reach"]:
            lines.append("| %s | %d | not solved: out of reach (the method stops at %d squares)"
                         " | | |" % (r["name"], r["squares"], MAX_SQUARES))
            continue
        lines.append("| %s | %d | %s placer | %s of %s (%.0f%%) | %.0f s, %.0f s CPU |" % (
            r["name"], r["squares"], "first" if r["first_wins"] else "second",
            format(r["won"], ","), format(r["legal"], ","), 100.0 * r["won"] / r["legal"],
            r["seconds"], r["cpu"]))
    return lines


def _usage(message):
    raise UsageError("%s (see attila solve --help)" % message, "attila solve")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    parser.error = _usage  # type: ignore[method-assign]  # one line, as every attila command
    args = parser.parse_args(argv)
    if args.threads < 1:
        raise UsageError("--threads must be 1 or more", "attila solve")
    rows = []
    out = sys.stdout
    for path in args.layouts:
        row = solve_layout(path, args, out)
        if row is not None:
            rows.append(row)
    if len(rows) > 1:
        out.write("\n" + "\n".join(table(rows)) + "\n")
    return 0
