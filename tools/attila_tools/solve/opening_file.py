"""The opening table's file (attila.opponent.opening), part by part: what
`attila card --opening` writes and attila_tools.solve.corrections reads back
while it finds the corrections.

    parts = opening_parts(tables, book)          # fold map, table, reply table
    data = opening_bytes(layout, parts, records) # the file, with the corrections
"""

from attila.opponent.card import BLOCK, DATA, seal, tag
from attila.opponent.opening import FIX, FIXES, MAP, RECORD, RECORDS
from attila.opponent.opening import head as opening_head


def fold_map(layout, perms):
    """(the fold map's entries by rank of the other side's knights, the canonical
    ranks in order): as attila.opponent.opening reads them."""
    from attila_tools.solve.retro_index import rank3, triples

    images = []
    for t in triples(layout.size):
        best, best_p = rank3(t), 0
        for p, perm in enumerate(perms, 1):
            r = rank3(sum(1 << perm[i] for i in range(layout.size) if t >> i & 1))
            if r < best:
                best, best_p = r, p
        images.append((best_p, best))
    canon = sorted({c for _p, c in images})
    number = {c: k for k, c in enumerate(canon)}
    return [p << 13 | number[c] for p, c in images], canon


def reply_bytes(records, size=RECORD, per=RECORDS):
    """The reply table's bytes (attila.opponent.opening): the records, `per` a
    block's data (the corrections': size FIX, per FIXES, a 4-byte key)."""
    out = bytearray()
    for at in range(0, len(records), per):
        part = bytearray(DATA)
        for i, (key, answer) in enumerate(records[at:at + per]):
            part[i * size:(i + 1) * size] = \
                key.to_bytes(size - 2, "big") + answer.to_bytes(2, "big")
        out += part
    return out


def opening_parts(tables, book=None):
    """What an opening table holds besides its corrections (attila.opponent.opening):
    (the symmetries besides the identity, the placements kept, the fold map's
    bytes, the table's bits, the reply table's records: with `book`, the
    layout's open setup book)."""
    from attila_tools.solve.symmetry import automorphisms

    layout = tables.layout
    perms = automorphisms(layout)[1:]
    entries, canon = fold_map(layout, perms)
    index = tables.index
    per = index.m + 1
    row_bytes = index.words * 8
    spots = [(0, 0)] + [((1 << j) >> 3, (1 << j) & 7) for j in range(index.m)]
    bits = bytearray((len(canon) * index.nrest * per + 7) // 8)
    data = tables.data
    x = 0
    for c in canon:
        base = c * index.nrest * row_bytes
        for j in range(index.nrest):
            at = base + j * row_bytes
            for byte, bit in spots:
                if data[at + byte] >> bit & 1:
                    bits[x >> 3] |= 1 << (x & 7)
                x += 1
    fold = bytearray()
    for e in entries:
        fold += bytes((e >> 8, e & 0xFF))
    records = []
    if book is not None:
        from attila_tools.solve.replies import reply_positions, reply_records

        records = reply_records(reply_positions(tables, book))
    return perms, len(canon), fold, bits, records


def opening_bytes(layout, parts, corrections=()):
    """The opening table's file (bytes) of opening_parts() and `corrections`
    (attila_tools.solve.corrections' records)."""
    perms, canon, fold, bits, records = parts
    corrections = list(corrections)
    t = tag(layout)
    blocks = [opening_head(layout, perms, canon, len(records), len(corrections))]
    number = 1
    for part, size in ((fold, MAP * 2), (bits, DATA), (reply_bytes(records), DATA),
                       (reply_bytes(corrections, FIX, FIXES), DATA)):
        for at in range(0, len(part), size):
            buf = bytearray(BLOCK)
            chunk = part[at:at + size]
            buf[:len(chunk)] = chunk
            seal(buf, number, t)
            blocks.append(bytes(buf))
            number += 1
    return b"".join(blocks)
