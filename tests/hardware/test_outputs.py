"""make hardware: its error without KiCad, and the 4x5 shopping list's counts (no KiCad needed)."""

import os

from attila_tools import cli
from attila_tools.hardware import boards, cable, generate, shopping


def test_without_kicad_make_hardware_says_why(monkeypatch, capsys):
    monkeypatch.setattr(generate, "kicad_missing", lambda: "kicad-cli is not installed (KiCad 9)")
    assert cli.main(["hardware", "--committed"]) == 2
    assert capsys.readouterr().err == "make hardware: kicad-cli is not installed (KiCad 9)\n"


def test_the_longest_cable_span_comes_from_the_layouts_and_the_list_says_it():
    span, where = cable.longest_span()
    assert 150 < span < shopping.CABLE_MM and where.endswith(".json")
    # The layout named has two modules that far apart, OUT to the next one's IN.
    from attila.game import layoutfile
    from attila_tools.hardware import geometry

    _layout, modules, _ = layoutfile.load(os.path.join(generate.ROOT, "boards", where))
    chain = sorted(modules, key=lambda m: m.number)
    apart = []
    for m, n in zip(chain, chain[1:]):
        a = cable._on_board(m, geometry.connectors(m.kind)["OUT"])
        b = cable._on_board(n, geometry.connectors(n.kind)["IN"])
        apart.append(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
    assert max(apart) == span
    with open(os.path.join(generate.ROOT, "docs", "figures", "shopping-4x5.md")) as f:
        assert "over the shipped layouts is %.0f mm (%s)" % (span, where) in f.read()


def _by_what(items, words):
    found = [i for i in items if words in i.what]
    assert len(found) == 1, (words, [i.what for i in items])
    return found[0]


def test_shopping_list_counts_the_4x5_boards_parts_and_everything_around_them():
    items = shopping.items()
    parts = {i.part.split()[-1]: i.qty for i in items if i.group.endswith("parts")
             or i.group == "parts soldered by hand"}
    assert parts["WS2812B-B/W"] == 20 and parts["CT10-1530-G1"] == 20  # one of each per square
    assert parts["74HC165D,653"] == 4  # one register per module
    assert parts["61200821621"] == 9  # IN and OUT on four modules, one at the controller
    # pull-ups, SER pull-downs, SD pull-ups, the chain's data pull-up, the input FET's gate
    assert parts["RC0603FR-0710KL"] == 20 + 4 + 4 + 1 + 1
    # LOAD and CLOCK at the controller, each module's LED data-out
    assert parts["RC0603FR-0768RL"] == 2 + 4
    # four modules: four cables (controller -> 1 -> 2 -> 3 -> 4), two sockets each
    assert shopping.cables() == 4
    assert _by_what(items, "IDC socket").qty == 8
    assert abs(_by_what(items, "flat ribbon").qty - 4 * 0.3) < 1e-9
    magnets = _by_what(items, "magnet")
    assert magnets.qty == 60 + 6 + 14  # the trays, the six knights, the 14 tiles of 20 squares
    # a screw in every mounting hole of the layout's boards (each hole has its tray post)
    holes = sum(n * len([p for p in boards.BOARDS[b]() if p["ref"].startswith("H")])
                for b, n in shopping.board_counts().items())
    assert _by_what(items, "screw").qty == holes == 2 * 6 + 2 * 8 + 4
    pcbs = [i for i in items if i.group == "boards" and i.unit == "boards"]
    assert sorted(i.what.split()[0] for i in pcbs) == ["controller", "module-2x2", "module-2x3"]
    assert all(i.qty == shopping.FAB_MINIMUM for i in pcbs)
    assert any("supply" in i.what for i in items) and any("Pico" in i.what for i in items)


def test_the_total_adds_up_and_names_where_every_price_comes_from(tmp_path):
    items = shopping.items()
    shopping.write_md(items, str(tmp_path / "list.md"))
    text = (tmp_path / "list.md").read_text()
    assert "**%.2f**" % sum(i.qty * i.usd for i in items) in text
    for key in {i.price for i in items}:
        assert "- **%s**: " % key in text
    assert "leaves out shipping" in text


def test_the_order_page_shows_the_list_make_hardware_writes(tmp_path):
    shopping.write_md(shopping.items(), str(tmp_path / "list.md"))
    with open(os.path.join(generate.ROOT, "docs", "figures", "shopping-4x5.md")) as f:
        assert f.read() == (tmp_path / "list.md").read_text(), "run make hardware"


def test_make_hardware_writes_the_game_boards_alone(capsys):
    for extra in (["--pitch", "50"], ["--module", "2x4"]):
        assert cli.main(["hardware", "--committed"] + extra) == 2
        assert capsys.readouterr().err == ("attila hardware: --committed writes the game's "
                                           "boards: it takes no --pitch or --module\n")
