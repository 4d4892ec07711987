"""`attila solve --from-setup`, `attila verify` and `attila book` from the command line."""

import json
import os

from attila_tools import cli
from attila_tools.solve import retro_cert

SMALL = {"name": "small", "custom": True, "rows": ["....", "....", "...."]}


def _layout_file(tmp_path, data=SMALL, name="small.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_solve_from_setup_writes_a_certificate_and_a_book(tmp_path, capsys):
    layout = _layout_file(tmp_path)
    out = tmp_path / "solved"
    assert cli.main(["solve", "--from-setup", layout, "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("small: 12 squares, 18,480 knight placements x 64 scorched sets; "
                              "table 0.1 MB, about ")
    assert text[1] == ("small: the first placer wins (Romans placing first: Romans win; "
                       "Huns placing first: Huns win)")
    assert text[2] == ("small: 7,120 legal completed setups; the side that moves first wins "
                       "6,006 of them, the other side 1,114")
    assert text[3].startswith("small: certificate %s (279 lines), book %s (280 records, "
                              % (out / "small.cert.json.gz", out / "small.book"))
    cert = retro_cert.read(str(out / "small.cert.json.gz"))
    assert cert["first_placer_wins"] is True
    assert cert["setups"] == {"legal": 7120, "won_by_first_mover": 6006}
    assert cli.main(["verify", str(out / "small.cert.json.gz"), "--quiet"]) == 0
    assert "279 of 279 completed setups re-solved by the search solver: all agree" in \
        capsys.readouterr().out


def test_layouts_out_of_reach_are_said_and_skipped(tmp_path, capsys):
    big = _layout_file(tmp_path, {"name": "big", "custom": True, "rows": ["......"] * 4},
                       "big.json")
    assert cli.main(["solve", "--from-setup", big, "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("big: 24 squares: out of reach of the retrograde solver (7 to 20 "
                          "squares; its table holds 2^(n-6) bits per knight placement, ")
    assert not os.path.exists(str(tmp_path / "big.cert.json.gz"))


def test_bad_layouts_and_options_get_one_line(tmp_path, capsys):
    missing = str(tmp_path / "none.json")
    assert cli.main(["solve", "--from-setup", missing, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.json" in err
    assert cli.main(["solve", "--from-setup", _layout_file(tmp_path), "--threads", "0"]) == 2
    assert capsys.readouterr().err == "attila solve: --threads must be 1 or more\n"
    short = _layout_file(tmp_path, dict(SMALL, tiles=3), "short.json")
    assert cli.main(["solve", "--from-setup", short, "--out", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().out == (
        "small: a supply of 3 tiles; the retrograde solver covers the default (6)\n")


def test_a_foreign_file_in_the_way_is_not_overwritten(tmp_path, capsys):
    out = tmp_path / "solved"
    out.mkdir()
    mine = out / "small.cert.json.gz"
    mine.write_text("my notes")
    assert cli.main(["solve", "--from-setup", _layout_file(tmp_path), "--out", str(out),
                     "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == "attila solve: %s exists and is not a certificate: not overwritten\n" % mine
    assert mine.read_text() == "my notes"


def test_verify_and_solve_from_setup_errors_say_which_command(tmp_path, capsys):
    """Every attila command starts its one error line with its name."""
    missing = str(tmp_path / "none.json")
    assert cli.main(["solve", "--from-setup", missing, "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "attila solve: %s: cannot read (No such file or directory)\n" % missing)
    assert cli.main(["solve", "--from-setup"]) == 2
    assert capsys.readouterr().err == ("attila solve: argument --from-setup: expected at "
                                       "least one argument (see attila solve --help)\n")
    cert = str(tmp_path / "none.cert.json.gz")
    assert cli.main(["verify", cert]) == 2
    assert capsys.readouterr().err == (
        "attila verify: %s: cannot read the certificate (No such file or directory)\n" % cert)
    assert cli.main(["verify"]) == 2
    assert capsys.readouterr().err == ("attila verify: the following arguments are required: "
                                       "CERT (see attila verify --help)\n")
