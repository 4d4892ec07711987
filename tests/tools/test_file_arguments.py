"""Every file argument of every command, fed what people feed them by mistake.

A missing path, a folder, an empty file, binary garbage and a non-UTF-8 file
(and for outputs: a missing folder, a folder, someone else's file): one
line on stderr, nothing on stdout, exit status 2, never a traceback, and
the file as it was.
"""

import io
import os
import sys

import pytest

from attila_tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "pico.json")

KINDS = {
    "missing": None,
    "folder": "folder",
    "empty": b"",
    "garbage": bytes((k * 151 + 7) % 256 for k in range(700)) + b"\x00\x01\xff",
    "latin-1": "caf\xe9 cr\xe8me br\xfbl\xe9e\n@a1\n".encode("latin-1"),
}

# (command line with FILE where the argument goes, {kind: (exit, stderr
# start)} for the kinds that are not errors. "ok" is a one-line script.
INPUTS = [
    ("layout FILE", {}),
    ("layout LAYOUT --profile FILE", {}),
    ("sim --layout FILE --script OK", {}),
    ("sim --profile FILE --script OK", {}),
    ("sim --script FILE", {}),
    ("sim --replay FILE --script OK", {}),
    ("sim --save FILE --script OK", {"missing": 0}),
    ("games show FILE", {}),
    ("analyse FILE", {}),
    ("analyse OK --layout FILE", {}),
    ("flash --layout FILE --profile PROFILE --dry-run", {}),
    ("flash --profile FILE --dry-run", {}),
    ("flash --port FILE --dry-run", {}),
    ("layout LAYOUT --port FILE", {}),
    ("games --port FILE --list", {}),
]
PREFIX = {"layout": "attila: ", "sim": "attila sim: ", "games": "attila games: ",
          "flash": "attila flash: ", "analyse": "attila analyse: "}


def make(tmp_path, kind, name="arg"):
    path = tmp_path / name
    data = KINDS[kind]
    if data == "folder":
        path.mkdir()
    elif data is not None:
        path.write_bytes(data)
    return path


def run(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def words(line, tmp_path, path):
    ok = tmp_path / "ok.txt"
    ok.write_text("wait 10\n")
    return [str(path) if w == "FILE" else str(ok) if w == "OK" else LAYOUT if w == "LAYOUT"
            else PROFILE if w == "PROFILE" else w for w in line.split()]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("line, fine", INPUTS, ids=[i[0] for i in INPUTS])
def test_a_bad_input_file_is_one_line_and_status_2(tmp_path, capsys, line, fine, kind):
    path = make(tmp_path, kind)
    before = path.read_bytes() if path.is_file() else None
    code, out, err = run(words(line, tmp_path, path), capsys)
    if kind in fine:
        assert code == fine[kind], err
        return
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert err.startswith(PREFIX[line.split()[0]]), err
    assert str(path) in err, err
    if before is not None:
        assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["arg", "ok.txt"]) or \
        kind == "missing"


@pytest.mark.parametrize("kind", ["empty", "garbage", "latin-1"])
def test_a_bad_script_on_stdin_is_one_line(capsys, monkeypatch, kind):
    code, out, err = run(["sim", "--script", "-"], capsys, KINDS[kind], monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("attila sim: stdin: ") and err.count("\n") == 1, err


OUTPUTS = [
    ("layout LAYOUT --svg FILE", "svg"),
    ("layout LAYOUT --png FILE", "png"),
    ("sim --script OK --screenshot FILE", "png"),
]


@pytest.mark.parametrize("line, kind", OUTPUTS, ids=[o[0] for o in OUTPUTS])
def test_an_output_goes_only_where_it_harms_nothing(tmp_path, capsys, line, kind):
    prefix = PREFIX[line.split()[0]]
    good = tmp_path / ("out." + kind)
    # Into a folder that does not exist, onto a folder, over someone's file.
    cases = [
        (tmp_path / "none" / ("out." + kind), "no folder %s to write it into" % (tmp_path / "none")),
        (tmp_path / ("dir." + kind), "is a folder; give a file name"),
        (tmp_path / ("notes." + kind), "exists and is not a %s picture" % kind.upper()),
        (tmp_path / ("latin." + kind), "exists and is not a %s picture" % kind.upper()),
    ]
    (tmp_path / ("dir." + kind)).mkdir()
    (tmp_path / ("notes." + kind)).write_bytes(KINDS["garbage"])
    (tmp_path / ("latin." + kind)).write_bytes(KINDS["latin-1"])
    for path, why in cases:
        code, out, err = run(words(line, tmp_path, path), capsys)
        assert (code, out) == (2, ""), err
        assert err.startswith(prefix) and err.count("\n") == 1, err
        assert "%s: %s" % (path, why) in err, err
    assert (tmp_path / ("notes." + kind)).read_bytes() == KINDS["garbage"]
    # A new file, an empty one, and our own picture again: written.
    for _ in range(2):
        code, out, err = run(words(line, tmp_path, good), capsys)
        assert (code, err) == (0, "")
    empty = tmp_path / ("empty." + kind)
    empty.write_bytes(b"")
    assert run(words(line, tmp_path, empty), capsys)[0] == 0
    assert empty.stat().st_size > 0


def test_games_out_must_be_a_folder(tmp_path, capsys):
    path = make(tmp_path, "garbage")
    code, out, err = run(["games", "--out", str(path), "--port", "/dev/null"], capsys)
    assert (code, out) == (2, "")
    assert err == "attila games: %s: not a folder (--out names the folder the games go into)\n" \
        % path
