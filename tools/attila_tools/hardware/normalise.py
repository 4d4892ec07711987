"""Make the files KiCad saves depend on the design only, so that regenerating
a board gives the same bytes (tests/hardware/test_kicad.py holds the
committed boards to the generator's output).
"""

import re
import uuid

from attila_tools.hardware import pcbfile

NS = uuid.UUID("6d1c1f0e-29a7-4c8e-9a41-a77117a00029")


def board(path, name):
    """Make a saved .kicad_pcb depend on the design only: KiCad orders items by their
    random UUIDs, so sort each kind of item by what it is (footprints by
    reference, tracks by place), then replace every UUID but the footprints'
    paths by one made from the board's name and its order."""
    with open(path) as f:
        text = f.read()
    spans = pcbfile.blocks(text)
    order, groups = [], {}
    for a, b in spans:
        chunk = text[a:b]
        kind = chunk[1:].split(None, 1)[0]
        if kind not in groups:
            order.append(kind)
            groups[kind] = []
        if kind == "footprint":
            ref = re.search(r'\(property "Reference" "([^"]*)"', chunk).group(1)
            key = (re.sub(r"\d+", "", ref), int(re.sub(r"\D", "", ref) or 0))
            chunk = _sorted_texts(chunk)
        else:
            key = re.sub(r'\(uuid "[^"]*"\)', "", chunk)
        groups[kind].append((key, chunk))
    body = "\n\t".join(c for k in order for _, c in sorted(groups[k]))
    text = text[:spans[0][0]] + body + text[spans[-1][1]:]
    seen = {}

    def sub(m):
        u = m.group(1)
        if u not in seen:
            seen[u] = str(uuid.uuid5(NS, "%s#%d" % (name, len(seen))))
        return '(uuid "%s")' % seen[u]

    text = re.sub(r'\(uuid "([0-9a-f-]+)"\)', sub, text)
    with open(path, "w") as f:
        f.write(text)


def _sorted_texts(chunk):
    """A footprint's own texts in the order of what they say (KiCad: by UUID),
    less its groups (a drawing aid of the library, listed by random UUIDs)."""
    groups = [(a, b) for a, b in pcbfile.blocks(chunk) if chunk.startswith("(group", a)]
    for a, b in reversed(groups):
        while chunk[a - 1] in "\t\n":
            a -= 1
        chunk = chunk[:a] + chunk[b:]
    spans = [(a, b) for a, b in pcbfile.blocks(chunk) if chunk.startswith("(fp_text", a)]
    if len(spans) < 2:
        return chunk
    texts = sorted(chunk[a:b] for a, b in spans)
    out, last = [], 0
    for (a, b), t in zip(spans, texts):
        out += [chunk[last:a], t]
        last = b
    return "".join(out) + chunk[last:]
