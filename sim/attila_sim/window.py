"""The pygame window: the board, its LEDs, the pieces, the hand and the buttons.

What is drawn comes from the rig: the squares' LED colours are decoded from
the bytes in the virtual strip (the very bytes the firmware sends), the
pieces from the table, the words from the controller. The mouse does what
hands do and nothing more: lifting a piece off a square or putting one down
changes what the reed switches read, and the controller decides what it means.

Mouse: press on a piece to pick it up, release over a square to put it down
(release where it was picked to keep holding it, then click where it goes).
Release beside the board puts it back in the reserve. Right button: put the
held piece back in the reserve.
Keys: U undo, M menu (held as long as the key), C clear the table, T self-test
(on a board: MENU held at power-on), Space / Right next replay step, S
screenshot, +/- clock speed, Q / Esc quit.
"""

import os
import sys

from attila.leds.palette import SIDE

from attila_sim.drawing import Drawing
from attila_sim.look import MARGIN, PANEL_WIDTH, pygame
from attila_sim.panel import Panel
from attila_sim.table import HUN, ROMAN, TILE, TableError

CLICK_SLOP = 5  # pixels: a release this close to the press is a click


# Video drivers that show nothing: SDL falls back to them when the display
# does not answer; a window there is invisible (and still burns a core).
_HEADLESS = ("offscreen", "dummy")


def open_display():
    """Start SDL's video on the display the environment names; RuntimeError says
    why no window can be seen there.

    Unless SDL_VIDEODRIVER says otherwise, SDL is asked for X11 when DISPLAY
    is set (else Wayland when WAYLAND_DISPLAY is), so a display that does not
    answer fails here instead of falling back to an invisible window (and
    probing Wayland with its XDG_RUNTIME_DIR warnings).
    """
    env = os.environ
    asked = env.get("SDL_VIDEODRIVER")
    if not asked and sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        if env.get("DISPLAY"):
            env["SDL_VIDEODRIVER"] = "x11"
        elif env.get("WAYLAND_DISPLAY"):
            name = env["WAYLAND_DISPLAY"]
            folder = env.get("XDG_RUNTIME_DIR")
            if not folder and not name.startswith("/"):
                raise RuntimeError("the Wayland display %s cannot be reached "
                                   "(XDG_RUNTIME_DIR is not set)" % name)
            socket = os.path.join(folder or "", name)
            if not os.path.exists(socket):
                raise RuntimeError("the Wayland display %s does not answer (no socket %s)"
                                   % (name, socket))
            env["SDL_VIDEODRIVER"] = "wayland"
    try:
        pygame.display.init()
    except pygame.error as e:
        raise RuntimeError("the display %s does not answer (SDL: %s)"
                           % (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or "", e))
    finally:
        if not asked:
            env.pop("SDL_VIDEODRIVER", None)
    driver = pygame.display.get_driver()
    if driver in _HEADLESS and not asked:
        pygame.display.quit()
        raise RuntimeError("no display answers (SDL's %s driver would show nothing)" % driver)
    return driver


_EXPOSED = tuple(getattr(pygame, name) for name in ("VIDEOEXPOSE", "WINDOWEXPOSED")
                 if hasattr(pygame, name))


class Button:
    """An on-screen button: a rectangle, a label, and whether it is held."""

    def __init__(self, name, label, rect):
        self.name = name
        self.label = label
        self.rect = pygame.Rect(rect)
        self.down = False


class Window(Drawing, Panel):
    """Draws the rig and turns mouse and keys into hand movements and presses."""

    def __init__(self, rig, square=None, title="Attila board simulator"):
        self.rig = rig
        layout = rig.layout
        if square is None:
            # Fit the board in about 640x560 pixels, squares 56..104 px.
            square = min(104, max(56, min(640 // layout.width, 560 // layout.height)))
        self.s = square
        self.board_rect = pygame.Rect(
            MARGIN, MARGIN, layout.width * square, layout.height * square
        )
        height = max(self.board_rect.bottom + MARGIN, 680)
        self.size = (self.board_rect.right + MARGIN + PANEL_WIDTH, height)
        open_display()
        pygame.font.init()
        self.screen = pygame.display.set_mode(self.size)
        pygame.display.set_caption("%s: %s" % (title, layout.name or "custom layout"))
        self.font = pygame.font.Font(None, 24)
        self.small = pygame.font.Font(None, 18)
        self.big = pygame.font.Font(None, 32)
        # Knights in their side's LED colour, so a person sees which knights
        # the board's light speaks about.
        self.colours = SIDE
        px = self.board_rect.right + MARGIN
        self.panel = pygame.Rect(px, MARGIN, PANEL_WIDTH - MARGIN, height - 2 * MARGIN)
        # Reserve slots: three Roman knights, three Hun knights, the tile stack.
        k = 54
        self.slots = {
            ROMAN: [pygame.Rect(px + i * (k + 8), MARGIN + 28, k, k) for i in range(3)],
            HUN: [pygame.Rect(px + i * (k + 8), MARGIN + 28 + k + 12, k, k) for i in range(3)],
            TILE: [pygame.Rect(px + 3 * (k + 8) + 4, MARGIN + 28, k + 24, 2 * k + 12)],
        }
        by = MARGIN + 2 * k + 64
        self.buttons = [
            Button("undo", "UNDO (U)", (px, by, 120, 40)),
            Button("menu", "MENU (M)", (px + 132, by, 120, 40)),
        ]
        self.clear_button = Button("clear", "Clear table (C)", (px, by + 50, 252, 30))
        self.text_top = by + 96
        self.pointer = (0, 0)
        self.pressed_at = None  # pointer position of the press that lifted a piece
        self.message = ""
        self.running = True
        self.text_bottom = self.footer_top = 0  # where the panel's words ended, its footer
        self.plates = {}  # square -> the rectangle its name is drawn on
        self.draws = 0  # whole-window redraws so far
        self._shown = None  # what the screen shows now (scene())

    # -- geometry -------------------------------------------------------------

    def square_rect(self, index):
        """Screen rectangle of a square."""
        layout = self.rig.layout
        f, r = layout.files[index], layout.ranks[index]
        x = self.board_rect.x + f * self.s
        y = self.board_rect.y + (layout.height - 1 - r) * self.s
        return pygame.Rect(x, y, self.s, self.s)

    def square_center(self, index):
        return self.square_rect(index).center

    def square_at(self, pos):
        """Square index under a screen position, or -1."""
        x, y = pos
        if not self.board_rect.collidepoint(x, y):
            return -1
        layout = self.rig.layout
        f = (x - self.board_rect.x) // self.s
        r = layout.height - 1 - (y - self.board_rect.y) // self.s
        return layout.at(f, r)

    def slot_at(self, pos):
        """(kind, slot index) of the reserve slot under a position, or None."""
        for kind, rects in self.slots.items():
            for i, rect in enumerate(rects):
                if rect.collidepoint(pos):
                    return kind, i
        return None

    def button_at(self, pos):
        for b in self.buttons + [self.clear_button]:
            if b.rect.collidepoint(pos):
                return b
        return None

    # -- input ------------------------------------------------------------------

    def handle(self, event):
        """One pygame event: hand movements, presses, keys."""
        rig = self.rig
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.pointer = event.pos
            if event.button == 3:
                self._drop()
            elif event.button == 1:
                self._mouse_down(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.pointer = event.pos
            if event.button == 1:
                self._mouse_up(event.pos)
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_q, pygame.K_ESCAPE):
                self.running = False
            elif event.key == pygame.K_u:
                rig.button_down("undo")
            elif event.key == pygame.K_m:
                rig.button_down("menu")
            elif event.key == pygame.K_c:
                rig.clear_table()
            elif event.key == pygame.K_t:
                rig.self_test()
            elif event.key in (pygame.K_SPACE, pygame.K_RIGHT):
                self._say(rig.replay_step())
            elif event.key == pygame.K_s:
                self._say(self.screenshot())
            elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                rig.set_speed(rig.speed * 2)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                rig.set_speed(rig.speed / 2)
        elif event.type == pygame.KEYUP:
            if event.key == pygame.K_u:
                rig.button_up("undo")
            elif event.key == pygame.K_m:
                rig.button_up("menu")

    def _say(self, text):
        if text:
            self.message = text

    def _mouse_down(self, pos):
        rig = self.rig
        self.message = ""
        held = rig.table.held()
        if held is not None:
            # Holding a piece: this click puts it down where the pointer is.
            self._put(pos)
            self.pressed_at = None
            return
        b = self.button_at(pos)
        if b is not None:
            b.down = True
            if b.name == "clear":
                rig.clear_table()
            else:
                rig.button_down(b.name)
            return
        sq = self.square_at(pos)
        try:
            if sq >= 0 and rig.table.on(sq) is not None:
                rig.lift(sq)
                self.pressed_at = pos
                return
            slot = self.slot_at(pos)
            if slot is not None:
                rig.take(slot[0])
                self.pressed_at = pos
        except TableError as e:
            self._say(str(e))

    def _mouse_up(self, pos):
        for b in self.buttons + [self.clear_button]:
            if b.down:
                b.down = False
                if b.name != "clear":
                    self.rig.button_up(b.name)
        if self.rig.table.held() is None or self.pressed_at is None:
            return
        px, py = self.pressed_at
        self.pressed_at = None
        if abs(pos[0] - px) <= CLICK_SLOP and abs(pos[1] - py) <= CLICK_SLOP:
            return  # a click: keep holding; the next click puts it down
        self._put(pos)

    def _put(self, pos):
        rig = self.rig
        sq = self.square_at(pos)
        try:
            if sq >= 0:
                if rig.table.on(sq) is not None:
                    self._say(rig.blocked(sq))
                    return  # keep holding
                rig.put(sq)
            else:
                rig.drop()
        except TableError as e:
            self._say(str(e))

    def _drop(self):
        if self.rig.table.held() is not None:
            self.rig.drop()
        self.pressed_at = None

    # -- what is shown ----------------------------------------------------------

    def scene(self):
        """Everything the window draws, as a value: equal scenes look the same."""
        rig = self.rig
        table = rig.table
        held = table.held()
        return (
            rig.strip.sent,
            tuple((p.kind, p.where) for p in table.pieces),
            tuple(p.kind for p in table.hand),
            self.pointer if held is not None else None,
            rig.status(),
            rig.heard.telling(rig.controller),
            tuple(rig.details()),
            self.message,
            tuple(b.down for b in self.buttons + [self.clear_button]),
        )

    # -- running ------------------------------------------------------------------

    def screenshot(self, folder="."):
        """S: the window into attila-screenshot-<date>-<time>.png (a name no file
        has yet; the pattern is in .gitignore); what happened, in words."""
        import time

        stem = os.path.join(folder, time.strftime("attila-screenshot-%Y%m%d-%H%M%S"))
        path = stem + ".png"
        k = 1
        while os.path.lexists(path):
            k += 1
            path = "%s-%d.png" % (stem, k)
        try:
            self.save(path)
        except OSError as e:
            return "screenshot not saved: %s" % e
        return "saved " + os.path.abspath(path)

    def save(self, path):
        """Write the window as it is now to a PNG file (OSError when it cannot)."""
        self.draw()
        try:
            pygame.image.save(self.screen, path)
        except pygame.error as e:
            raise OSError("%s: cannot write (%s)" % (path, e))

    def pump(self, now_ms):
        """Handle queued events, advance the board to now, draw what changed; False to stop.

        An idle window draws nothing: the screen is redrawn only when the
        scene (LEDs, pieces, hand, words) differs from what it shows, or when
        the window system lost it (an expose event).
        """
        for event in pygame.event.get():
            if event.type in _EXPOSED:
                self._shown = None
            self.handle(event)
        self.rig.advance_to(now_ms)
        scene = self.scene()
        if scene != self._shown:
            self.draw()
            pygame.display.flip()
            self._shown = scene
        return self.running

    def run(self, exit_after_ms=None):
        """The interactive loop, until the window closes."""
        clock = pygame.time.Clock()
        start = pygame.time.get_ticks()
        base = self.rig.now
        last = start
        clock_ms = base
        try:
            while True:
                ticks = pygame.time.get_ticks()
                clock_ms += (ticks - last) * self.rig.speed
                last = ticks
                if not self.pump(int(clock_ms)):
                    break
                if exit_after_ms is not None and ticks - start >= exit_after_ms:
                    break
                clock.tick(60)
        except KeyboardInterrupt:
            pass
        pygame.quit()
        return 0
