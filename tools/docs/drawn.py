"""Write the docs' drawings, or (--check) name those that differ from the files.

Shared by schematics.py, ledpictures.py and architecture.py: each draws its
pictures as {path: SVG text}; this writes the changed ones and says so.
"""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def refresh(files, check, why):
    """Write every file of `files` ({path: text}) whose text changed, printing
    "drawn"; with `check` write nothing and print `why` for each. Returns the
    exit status: 1 when checking found a stale drawing, else 0."""
    stale = []
    for path, text in files.items():
        try:
            with open(path) as f:
                old = f.read()
        except OSError:
            old = None
        if old == text:
            continue
        stale.append(path)
        if not check:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    for path in stale:
        print("%s: %s" % (os.path.relpath(path, ROOT), why if check else "drawn"))
    return 1 if check and stale else 0
