"""Which copper touches which on a board, read from its file (no KiCad needed).

The nets as the copper makes them, not as the pads' labels say: a pad is on
the piece of copper it touches (tracks, vias, other pads, the pour's filled
polygons), so a track left out or cut splits a net, and copper that joins
two labels shorts them.

    copper = connectivity.Copper(pcbfile.load(path))
    copper.net("U1", "2")      # 'CLOCK', or 'CLOCK (piece 2)' when cut off from it
    copper.problems            # ['net CLOCK is open: ...'], [] on a sound board
"""

import math

from attila_tools.hardware.shapes import bbox, pad_geo, touch

CELL = 4.0  # mm: the grid the pairs are looked up in


class Item:
    """One piece of copper: a pad, a track, a via or a zone's filled polygon."""

    def __init__(self, kind, net, layers, geo, ref=None, pin=None):
        self.kind, self.net, self.layers, self.geo = kind, net, layers, geo
        self.ref, self.pin = ref, pin
        self.box = bbox(geo)

    def where(self):
        if self.kind == "pad":
            return "%s.%s" % (self.ref, self.pin)
        return self.kind


def _cu(names):
    out = set()
    for n in names:
        if n in ("*.Cu", "F&B.Cu"):
            out |= {"F.Cu", "B.Cu"}
        elif n.endswith(".Cu"):
            out.add(n)
    return frozenset(out)


def items(board):
    """Every piece of copper of a pcbfile.Pcb as Items (pads first)."""
    out = []
    for fp in sorted(board.footprints.values(), key=lambda f: f.ref):
        for pad in fp.all_pads:
            layers = _cu(pad.layers)
            if layers and pad.kind != "np_thru_hole":
                out.append(Item("pad", pad.net, layers, pad_geo(pad), fp.ref, pad.number))
    for net, layer, width, a, b in board.tracks:
        out.append(Item("track", net, frozenset([layer]), ("seg", a, b, width / 2)))
    for net, xy, size, _drill in board.vias:
        out.append(Item("via", net, frozenset(["F.Cu", "B.Cu"]), ("disc", xy, size / 2)))
    for net, layer, pts in board.fills:
        out.append(Item("zone", net, frozenset([layer]), ("poly", pts)))
    return out


def links(its):
    """{index: set of indices} of the items whose copper meets."""
    adj = {i: set() for i in range(len(its))}
    grid = {}
    zones = []
    for i, it in enumerate(its):
        if it.kind == "zone":
            zones.append(i)
            continue
        x0, y0, x1, y1 = it.box
        for cx in range(int(math.floor(x0 / CELL)), int(math.floor(x1 / CELL)) + 1):
            for cy in range(int(math.floor(y0 / CELL)), int(math.floor(y1 / CELL)) + 1):
                grid.setdefault((cx, cy), []).append(i)
    for cell in grid.values():
        for n, i in enumerate(cell):
            for j in cell[n + 1:]:
                if j not in adj[i] and touch(its[i], its[j]):
                    adj[i].add(j)
                    adj[j].add(i)
    for z in zones:
        for i, it in enumerate(its):
            if it.kind != "zone" and touch(its[z], it):
                adj[z].add(i)
                adj[i].add(z)
    return adj


def pieces(adj, skip=()):
    """The connected pieces (lists of indices) of a link table, less `skip`."""
    seen, out = set(skip), []
    for start in sorted(adj):
        if start in seen:
            continue
        piece, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            piece.append(i)
            for j in adj[i]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        out.append(sorted(piece))
    return out


class Copper:
    """A board's nets as its copper makes them."""

    def __init__(self, board):
        self.board = board
        self.items = items(board)
        self.adj = links(self.items)
        self.pieces = pieces(self.adj)
        self.problems = []
        self.name = {}  # piece index -> name
        labels = {}
        for k, piece in enumerate(self.pieces):
            pads = [self.items[i] for i in piece if self.items[i].kind == "pad"]
            nets = sorted({it.net for it in (self.items[i] for i in piece) if it.net})
            if len(nets) > 1:
                self.problems.append("nets %s are shorted: %s" % (
                    " and ".join(nets), ", ".join(sorted(p.where() for p in pads)[:6])))
            for net in nets:
                if pads:
                    labels.setdefault(net, []).append(k)
            self.name[k] = "+".join(nets)
        for net, ks in sorted(labels.items()):
            if len(ks) < 2:
                continue
            ks.sort(key=lambda k: (-self._pads(k), self.pieces[k][0]))
            for n, k in enumerate(ks[1:], 2):
                if self.name[k] == net:
                    self.name[k] = "%s (piece %d)" % (net, n)
            self.problems.append("net %s is open: its pads fall into %d pieces: %s" % (
                net, len(ks), " | ".join(", ".join(self.pads_of_piece(k)) for k in ks)))
        self.piece_of = {}
        for k, piece in enumerate(self.pieces):
            for i in piece:
                self.piece_of[i] = k
        self._pad = {}
        for i, it in enumerate(self.items):
            if it.kind == "pad":
                self._pad.setdefault((it.ref, it.pin), i)

    def _pads(self, k):
        return sum(1 for i in self.pieces[k] if self.items[i].kind == "pad")

    def pads_of_piece(self, k):
        return sorted("%s.%s" % (self.items[i].ref, self.items[i].pin)
                      for i in self.pieces[k] if self.items[i].kind == "pad")

    def net(self, ref, pin):
        """The name of the copper a pad is on (None: no such pad)."""
        i = self._pad.get((ref, str(pin)))
        return None if i is None else self.name[self.piece_of[i]]

    def every(self, ref, pin):
        """The names of the copper under every pad of one number (a shell's several pads)."""
        return {self.name[self.piece_of[i]] for i, it in enumerate(self.items)
                if it.kind == "pad" and it.ref == ref and it.pin == str(pin)}

    def nets_of(self, ref):
        """{pad number: net} of one part."""
        return {pin: self.name[self.piece_of[i]] for (r, pin), i in self._pad.items() if r == ref}

    def pads(self, net):
        """[(ref, pin)] on a net, sorted."""
        return sorted(key for key, i in self._pad.items() if self.name[self.piece_of[i]] == net)
