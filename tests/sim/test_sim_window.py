"""The window, headless (SDL dummy driver): games played with real mouse events."""

import os

import pytest

pygame = pytest.importorskip("pygame")

from attila.leds import palette  # noqa: E402
from attila.play.modes import GAME_OVER, MODE_NAMES
from attila.game.notation import log  # noqa: E402
from attila.game.rules import SETUP  # noqa: E402

from attila_sim import actions  # noqa: E402
from attila_sim.rig import Rig  # noqa: E402
from attila_sim.window import Window  # noqa: E402

import simkit  # noqa: E402


def window_for(path=simkit.LAYOUT_4X5, **kw):
    layout, modules, tiles = simkit.load(path)
    rig = Rig(layout, modules, tiles, **kw)
    window = Window(rig)
    return rig, window, simkit.Mouse(window)


def pixel(window, pos):
    return tuple(window.screen.get_at(pos))[:3]


def test_setup_squares_glow_in_the_led_colour(tmp_path):
    rig, window, mouse = window_for()
    mouse.pump(20)
    path = str(tmp_path / "setup.png")
    window.save(path)
    shot = pygame.image.load(path)
    layout = rig.layout
    # Every square is a legal first placement: each LED shows Roman blue at
    # the level the power cap allows (20 LEDs lit); the window undoes that
    # level, which dims every LED alike, and shows the blue itself.
    level = rig.leds.level
    assert 0 < level < 255
    capped = tuple(c * level // 255 for c in palette.ROMAN)
    for i in range(layout.size):
        centre = window.square_center(i)
        assert rig.colours()[i] == capped
        shown = tuple(shot.get_at(centre))[:3]
        assert shown == window.shown(capped)
        assert all(abs(a - b) <= 1 for a, b in zip(shown, palette.ROMAN)), shown


def test_lifting_a_piece_empties_its_square_and_lights_its_moves(tmp_path):
    rig, window, mouse = window_for()
    for item in ("@a1", "@e4", "@b1", "@e3", "@c4", "@a3"):
        mouse.play(item, rig.controller.game.side)
    assert rig.controller.game.phase != SETUP
    b1 = mouse.square("b1")
    mouse.post("down", b1)
    mouse.pump(60)
    layout = rig.layout
    # The hand holds the knight: the switch under b1 reads empty.
    assert not rig.board.inputs.occupied >> layout.index("b1") & 1
    assert rig.table.held().kind == "R"
    # Its destinations glow blue, at full brightness (few LEDs lit).
    for name in ("d2", "c3"):
        assert pixel(window, mouse.square(name)) == palette.ROMAN
    assert "put the knight on d2 or c3" in rig.status()
    # The held knight follows the pointer.
    spot = (window.size[0] // 2, window.size[1] - 40)
    from attila_sim.look import BACKGROUND

    assert pixel(window, spot) == BACKGROUND
    mouse.post("motion", spot)
    mouse.pump(10)
    # The Roman shield under the pointer (its left part; the head is white).
    assert pixel(window, (spot[0] - int(window.s * 0.21), spot[1])) == palette.ROMAN
    assert pixel(window, spot) == (250, 250, 250)
    mouse.post("motion", mouse.square("d2"))
    mouse.post("up", mouse.square("d2"))
    mouse.pump(60)
    assert rig.controller.game.phase == 2  # SCORCH: the move was taken
    # Scorch squares light white: power-capped on the strip, white on the
    # screen (they used to look grey). The tile goes on b1.
    capped = rig.colours()[layout.index("b1")]
    assert capped[0] == capped[1] == capped[2] < 255
    assert pixel(window, mouse.square("b1")) == (255, 255, 255)
    mouse.drag(mouse.reserve("x"), mouse.square("b1"))
    assert log(rig.controller.game).endswith("b1-d2,b1")
    window.save(str(tmp_path / "after.png"))


def test_click_to_pick_then_click_to_put():
    rig, window, mouse = window_for()
    mouse.click(mouse.reserve("R"))
    assert rig.table.held() is not None
    mouse.click(mouse.square("c2"))
    assert rig.table.held() is None
    assert rig.controller.game.knights[0] == 1 << rig.layout.index("c2")


def test_a_knight_put_on_a_scorched_square_is_told_it_is_scorched():
    rig, window, mouse = window_for()
    for item in "@a1 @e4 @b1 @e3 @c4 @a3 b1-d2,b1 e3-c2,e3".split():
        rig.do(actions.turn(rig.layout, item))
    mouse.drag(mouse.square("d2"), mouse.square("b1"))
    assert window.message == "b1 is scorched: a knight cannot land there"
    assert rig.table.held().kind == "R"  # kept in the hand


def test_right_click_and_release_beside_the_board_return_the_piece():
    rig, window, mouse = window_for()
    mouse.click(mouse.reserve("H"))
    mouse.post("down", mouse.square("c2"), button=3)
    mouse.pump(60)
    assert rig.table.held() is None
    assert len(rig.table.reserve("H")) == 3
    mouse.drag(mouse.reserve("R"), (window.size[0] - 5, window.size[1] - 5))
    assert len(rig.table.reserve("R")) == 3
    assert rig.controller.game.history == []


def test_buttons_on_screen_and_keys_undo():
    rig, window, mouse = window_for()
    for item in ("@a1", "@e4"):
        mouse.play(item, rig.controller.game.side)
    assert len(rig.controller.game.history) == 2
    undo = [b for b in window.buttons if b.name == "undo"][0]
    mouse.click(undo.rect.center)
    assert len(rig.controller.game.history) == 1
    # The board asks for the Hun knight on e4 to come off.
    assert "e4" in rig.status()
    mouse.drag(mouse.square("e4"), mouse.reserve("H"))
    assert MODE_NAMES[rig.controller.mode] == "play"
    mouse.key(pygame.K_u)
    assert rig.controller.game.history == []


def play_whole_game(path, tmp_path=None):
    layout, modules, tiles = simkit.load(path)
    items, final = simkit.legal_game(layout, tiles=tiles)
    rig, window, mouse = window_for(path)
    for item in items:
        side = rig.controller.game.side
        mouse.play(item, side)
        assert MODE_NAMES[rig.controller.mode] in ("play", "over"), (item, rig.status())
    assert rig.controller.mode == GAME_OVER
    assert rig.controller.game.winner == final.winner
    assert log(rig.controller.game) == log(final)
    if tmp_path is not None:
        window.save(str(tmp_path / "over.png"))
    return rig, window


def test_a_whole_game_with_the_mouse_on_4x5(tmp_path):
    rig, window = play_whole_game(simkit.LAYOUT_4X5, tmp_path)
    # Game over: the winner's colour breathes over every square.
    winner = palette.SIDE[rig.controller.game.winner]
    for i in range(rig.layout.size):
        c = rig.colours()[i]
        assert c != (0, 0, 0)
        # Same hue as the winner's colour: zero where it is zero.
        assert all((c[k] == 0) == (winner[k] == 0) for k in range(3))
    assert "Game over" in rig.status()


@pytest.mark.parametrize("path", simkit.LAYOUTS, ids=lambda p: os.path.basename(p))
def test_a_whole_game_with_the_mouse_on_every_layout(path):
    play_whole_game(path)


def test_modules_are_outlined():
    rig, window, mouse = window_for()
    mouse.pump(10)
    # Between a1 (module 1) and a3 (module 2) runs a module edge; inside
    # module 1 (between a1 and a2) the plate is plain.
    r1 = window.square_rect(rig.layout.index("a2"))
    edge = pixel(window, (r1.centerx, r1.top + 3))
    inner = pixel(window, (r1.centerx, r1.bottom - 1))
    from attila_sim.look import PLATE, PLATE_EDGE

    assert edge == PLATE_EDGE
    assert inner == PLATE


def test_the_readme_screenshot_script_still_shows_six_jumps(tmp_path):
    from attila_sim import app

    png = tmp_path / "shot.png"
    script = os.path.join(simkit.ROOT, "sim", "screenshot.txt")
    assert app.main(["--script", script, "--screenshot", str(png)]) == 0
    shot = pygame.image.load(str(png))
    rig, window, _ = window_for()
    for name in ("b1", "d1", "a2", "e2", "a4", "e4"):
        centre = window.square_center(rig.layout.index(name))
        assert tuple(shot.get_at(centre))[:3] == palette.ROMAN


def test_an_idle_window_draws_nothing_and_a_change_draws_once():
    # Counted, not timed: the window redraws when the scene changes.
    rig, window, mouse = window_for()
    mouse.pump(10)
    drawn = window.draws
    assert drawn == 1
    for _ in range(200):  # two seconds of the board's clock, nothing happening
        mouse.pump(10)
    assert window.draws == drawn
    mouse.post("motion", (5, 5))  # the pointer moves with nothing in the hand
    mouse.pump(10)
    assert window.draws == drawn
    mouse.post("down", mouse.reserve("R"))  # a knight picked up: drawn in the hand
    mouse.pump(10)
    assert window.draws == drawn + 1
    mouse.post("motion", (300, 300))  # ... and follows the pointer
    mouse.pump(10)
    assert window.draws == drawn + 2
    mouse.post("up", mouse.square("c3"))
    mouse.pump(100)
    assert rig.controller.game.history and window.draws <= drawn + 5


def test_a_blinking_board_redraws_only_when_the_leds_change():
    rig, window, mouse = window_for()
    mouse.play("@a1", 0)
    mouse.key(pygame.K_u)  # UNDO: a1 blinks red until the knight is taken off
    assert rig.mode_name() == "correct"
    mouse.pump(10)
    drawn, writes = window.draws, rig.strip.writes
    for _ in range(200):
        mouse.pump(10)
    assert rig.strip.writes - writes >= 8  # the fast blink: 2.5 Hz, on and off
    assert window.draws - drawn == rig.strip.writes - writes
    pygame.event.post(pygame.event.Event(pygame.VIDEOEXPOSE))
    before = window.draws
    mouse.pump(0)
    assert window.draws == before + 1  # the window system lost the picture


def scorch_window():
    rig, window, mouse = window_for()
    for item in ("@a1", "@e4", "@b1", "@e3", "@c4", "@a3", "b1-d2"):
        mouse.play(item, rig.controller.game.side)
    assert rig.controller.game.phase == 2  # SCORCH: every free square lit white
    mouse.pump(10)
    return rig, window, mouse


def test_a_white_square_keeps_its_name_readable_and_its_glow_smooth():
    from attila_sim.look import DIM_TEXT, SQUARE_BASE

    rig, window, mouse = scorch_window()
    window.draw()
    b1 = rig.layout.index("b1")
    plate = window.plates[b1]
    inside = {pixel(window, (x, y)) for x in range(plate.left + 1, plate.right - 1)
              for y in range(plate.top + 1, plate.bottom - 1)}
    # The name is drawn in its own colour on the square's dark base.
    assert SQUARE_BASE in inside and DIM_TEXT in inside
    # From the square's edge in to the LED the glow brightens in small steps
    # (it used to be six rings: banding).
    rect = window.square_rect(b1).inflate(-8, -8)
    cx, cy = rect.center
    led = int(window.s * 0.22)
    ramp = [pixel(window, (x, cy)) for x in range(rect.left + 1, cx - led)]
    steps = [ramp[k + 1][0] - ramp[k][0] for k in range(len(ramp) - 1)]
    assert all(0 <= d <= 6 for d in steps), steps
    assert len(set(ramp)) >= 20, len(set(ramp))


def test_the_side_panel_never_writes_into_its_footer(monkeypatch):
    rig, window, mouse = window_for()
    long = "a knight on c2 would trap the knight on a1: take the piece off c2; " * 6
    monkeypatch.setattr(rig, "status", lambda: long)
    monkeypatch.setattr(rig, "details", lambda: ["Log: " + "@a1 @e4 " * 40] * 4)
    window.message = "saved /a/rather/long/path/to/a/screenshot.png"
    window.draw()
    assert 0 < window.text_bottom <= window.footer_top - 6
    # Between the words and the footer, only the background.
    for y in range(window.text_bottom + 1, window.footer_top - 1):
        for x in range(window.panel.x, window.panel.right, 7):
            assert pixel(window, (x, y)) == window_background(), (x, y)


def window_background():
    from attila_sim.look import BACKGROUND

    return BACKGROUND


def test_s_saves_a_screenshot_under_a_new_ignored_name(tmp_path, monkeypatch):
    import fnmatch

    monkeypatch.chdir(tmp_path)
    rig, window, mouse = window_for()
    said = []
    for _ in range(2):
        mouse.key(pygame.K_s)
        said.append(window.message)
    shots = sorted(p.name for p in tmp_path.iterdir())
    assert len(shots) == 2, shots  # the second did not write over the first
    assert sorted(said) == sorted("saved %s" % (tmp_path / name) for name in shots)
    for name in shots:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with open(os.path.join(simkit.ROOT, ".gitignore")) as f:
        patterns = [line.strip() for line in f if line.strip()]
    for name in shots:
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name


def test_the_panel_says_setup_during_setup():
    # "Mode: setup" while the knights are placed, not "Mode: play".
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles)
    assert rig.details()[0] == "Mode: setup"
    for item in "@a1 @e4 @b1 @e3 @c4 @a3".split():
        rig.do(actions.turn(layout, item))
    assert rig.details()[0] == "Mode: play"


class _Written:
    """A font that notes what is written with it (pygame's own cannot be patched)."""

    def __init__(self, font, said):
        self.font, self.said = font, said

    def render(self, text, *args):
        self.said.append(text)
        return self.font.render(text, *args)

    def __getattr__(self, name):
        return getattr(self.font, name)


def test_the_panel_says_the_boards_action_as_a_whole_while_its_steps_are_done():
    rig, window, mouse = window_for(computer=1)
    said = []
    window.font = _Written(window.font, said)
    mouse.drag(mouse.reserve("R"), mouse.square("a1"))
    rig.think()
    mouse.now = rig.now
    window.draw()
    assert "Huns: @c3 (a knight on c3)" in said
    assert rig.status() == "The board plays the Huns: put a knight on c3"
    mouse.drag(mouse.reserve("H"), mouse.square("c3"))  # done: the Romans' turn
    del said[:]
    window.draw()
    assert not [x for x in said if x.startswith("Huns: ")]
