"""Reading the board's JSON data files (layouts, profiles): errors name the file.

`error` is the AttilaError class of the caller, so a bad file of any kind
ends as one clear line, never a traceback.
"""

import json


def read_text(path, error):
    """The text of a data file."""
    try:
        with open(path) as f:
            return f.read()
    except UnicodeError:
        raise error("%s: not UTF-8 text" % path)
    except OSError as e:
        # CPython names the reason; MicroPython gives only the errno.
        why = getattr(e, "strerror", None) or "OSError %s" % (e.args[0] if e.args else "")
        raise error("%s: cannot read (%s)" % (path, why))


def decode(text, source, error):
    """Decoded JSON of a data file's text."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise error("%s: not valid JSON (%s)" % (source, e))
