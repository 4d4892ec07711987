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

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import pygame  # noqa: E402

from attila.palette import SIDE  # noqa: E402

from attila_sim.table import HUN, ROMAN, TILE, TableError  # noqa: E402

BACKGROUND = (24, 26, 31)
TABLE_TOP = (44, 40, 36)
PLATE = (70, 74, 82)
PLATE_EDGE = (196, 200, 208)
SQUARE_BASE = (30, 32, 36)
TEXT = (228, 230, 235)
DIM_TEXT = (150, 155, 165)
MISTAKE_TEXT = (240, 150, 110)  # a win thrown away, in the replay's analysis
BUTTON = (64, 70, 82)
BUTTON_DOWN = (110, 120, 140)
TILE_FACE = (58, 44, 36)
TILE_EDGE = (20, 14, 10)
TILE_MARK = (150, 70, 30)

PANEL_WIDTH = 340
MARGIN = 36
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


def _mix(a, b, t):
    return tuple(int(a[i] + (b[i] - a[i]) * t + 0.5) for i in range(3))


class Button:
    """An on-screen button: a rectangle, a label, and whether it is held."""

    def __init__(self, name, label, rect):
        self.name = name
        self.label = label
        self.rect = pygame.Rect(rect)
        self.down = False


class Window:
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
                    self._say("%s is taken" % rig.layout.names[sq])
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

    # -- drawing ----------------------------------------------------------------

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
            tuple(rig.details()),
            self.message,
            tuple(b.down for b in self.buttons + [self.clear_button]),
        )

    def draw(self):
        """Draw the whole window (call display.flip() after)."""
        self.draws += 1
        scr = self.screen
        scr.fill(BACKGROUND)
        self._draw_board()
        self._draw_reserve()
        self._draw_panel()
        held = self.rig.table.held()
        if held is not None:
            self._draw_piece(held.kind, self.pointer, lifted=True)

    def _draw_board(self):
        scr, rig, s = self.screen, self.rig, self.s
        layout = rig.layout
        scr.fill(TABLE_TOP, self.board_rect.inflate(2 * MARGIN - 8, 2 * MARGIN - 8))
        # Module plates with their outlines: an edge is drawn where the
        # neighbour square belongs to another module or to none.
        owner = {}
        for m in rig.modules:
            for p in m.places:
                owner[p] = m.number
        gap = 3  # half the gap between two modules, in pixels
        edges = []
        for m in rig.modules:
            for (f, r) in m.places:
                rect = self.square_rect(layout.at(f, r))
                top = owner.get((f, r + 1)) != m.number
                bottom = owner.get((f, r - 1)) != m.number
                left = owner.get((f - 1, r)) != m.number
                right = owner.get((f + 1, r)) != m.number
                x0 = rect.left + (gap if left else 0)
                x1 = rect.right - 1 - (gap if right else 0)
                y0 = rect.top + (gap if top else 0)
                y1 = rect.bottom - 1 - (gap if bottom else 0)
                for flag, a, b in ((top, (x0, y0), (x1, y0)), (bottom, (x0, y1), (x1, y1)),
                                   (left, (x0, y0), (x0, y1)), (right, (x1, y0), (x1, y1))):
                    if flag:
                        edges.append((a, b))
                scr.fill(PLATE, pygame.Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
        colours = rig.colours()
        for i in range(layout.size):
            self._draw_square(i, colours[i])
        for a, b in edges:
            pygame.draw.line(scr, PLATE_EDGE, a, b, 2)
        for m in rig.modules:
            # The module's place in the cable chain, by its local square 0.
            f, r = m.places[0]
            rect = self.square_rect(layout.at(f, r))
            label = self.small.render(str(m.number), True, DIM_TEXT)
            scr.blit(label, (rect.left + 6, rect.bottom - label.get_height() - 4))
        # File letters below, rank numbers on the left.
        for f in range(layout.width):
            t = self.small.render(chr(97 + f), True, DIM_TEXT)
            x = self.board_rect.x + f * s + s // 2 - t.get_width() // 2
            scr.blit(t, (x, self.board_rect.bottom + 8))
        for r in range(layout.height):
            t = self.small.render(str(r + 1), True, DIM_TEXT)
            y = self.board_rect.y + (layout.height - 1 - r) * s + s // 2 - t.get_height() // 2
            scr.blit(t, (self.board_rect.x - 8 - t.get_width(), y))
        # Pieces on the squares.
        for p in rig.table.pieces:
            if p.where >= 0:
                self._draw_piece(p.kind, self.square_center(p.where))

    def shown(self, colour):
        """An LED's colour on the screen: the strip's bytes with the frame's level
        (brightness and power cap, which dim every LED alike) undone, as the
        eye undoes it in a room: a white scorch square is white, not grey; a
        dim square (a lifted knight's own) stays dim beside the others."""
        level = self.rig.leds.level
        if not any(colour) or level <= 0 or level >= 255:
            return tuple(colour)
        return tuple(min(255, (c * 255 + level - 1) // level) for c in colour)

    def _draw_square(self, index, colour):
        """A square with its LED's light: the LED at the centre, a smooth glow
        fading to the square's edge, its name on a dark plate in the corner."""
        scr, s = self.screen, self.s
        rect = self.square_rect(index).inflate(-8, -8)
        scr.fill(SQUARE_BASE, rect)
        if any(colour):
            colour = self.shown(colour)
            # A round glow, one pixel of radius at a time (no visible bands),
            # from past the square's corners in to the LED, inside the square.
            led = int(s * 0.22)
            outer = int(rect.width * 0.7)
            scr.set_clip(rect)
            for r in range(outer, led, -1):
                t = (outer - r) / float(outer - led)
                pygame.draw.circle(scr, _mix(SQUARE_BASE, colour, 0.08 + 0.6 * t * t),
                                   rect.center, r)
            scr.set_clip(None)
            pygame.draw.circle(scr, colour, rect.center, led)
        name = self.small.render(self.rig.layout.names[index], True, DIM_TEXT)
        plate = name.get_rect(topright=(rect.right - 3, rect.top + 3)).inflate(6, 2)
        self.plates[index] = plate
        pygame.draw.rect(scr, SQUARE_BASE, plate, border_radius=3)
        scr.blit(name, name.get_rect(center=plate.center))

    def _draw_piece(self, kind, center, lifted=False, scale=1.0):
        """A knight (Roman: square shield; Hun: round shield) or a tile."""
        scr, s = self.screen, int(self.s * scale)
        cx, cy = center
        if lifted:
            shadow = pygame.Rect(0, 0, int(s * 0.7), int(s * 0.7))
            shadow.center = (cx + 6, cy + 8)
            pygame.draw.ellipse(scr, (10, 10, 12), shadow)
        if kind == TILE:
            rect = pygame.Rect(0, 0, int(s * 0.62), int(s * 0.62))
            rect.center = center
            pygame.draw.rect(scr, TILE_FACE, rect, border_radius=4)
            pygame.draw.rect(scr, TILE_EDGE, rect, 2, border_radius=4)
            # Charred marks: a few cracks.
            for a, b in (((0.2, 0.3), (0.5, 0.5)), ((0.5, 0.5), (0.8, 0.25)),
                         ((0.5, 0.5), (0.45, 0.85)), ((0.3, 0.7), (0.15, 0.8))):
                pygame.draw.line(scr, TILE_MARK,
                                 (rect.x + a[0] * rect.w, rect.y + a[1] * rect.h),
                                 (rect.x + b[0] * rect.w, rect.y + b[1] * rect.h), 3)
            return
        colour = self.colours[0 if kind == ROMAN else 1]
        r = int(s * 0.34)
        if kind == ROMAN:
            # A Roman scutum: an upright rounded rectangle.
            rect = pygame.Rect(0, 0, int(r * 1.6), int(r * 2))
            rect.center = center
            pygame.draw.rect(scr, colour, rect, border_radius=r // 3)
            pygame.draw.rect(scr, (245, 245, 245), rect, 3, border_radius=r // 3)
        elif kind == HUN:
            # A Hun round shield.
            pygame.draw.circle(scr, colour, center, r)
            pygame.draw.circle(scr, (20, 20, 20), center, r, 3)
        else:
            # A magnet from a sensor log: some piece, nobody knows which.
            pygame.draw.circle(scr, (128, 128, 128), center, r)
            q = self.big.render("?", True, (20, 20, 20))
            scr.blit(q, q.get_rect(center=center))
            return
        # The knight's head on the shield.
        head = [(-0.45, 0.75), (0.45, 0.75), (0.40, 0.30), (0.45, -0.15), (0.30, -0.50),
                (0.05, -0.70), (-0.05, -0.88), (-0.17, -0.62), (-0.45, -0.40),
                (-0.62, -0.05), (-0.50, 0.10), (-0.25, 0.02), (-0.10, 0.12), (-0.35, 0.45)]
        ink = (250, 250, 250) if kind == ROMAN else (25, 25, 25)
        pts = [(cx + x * r * 0.85, cy + y * r * 0.85) for x, y in head]
        pygame.draw.polygon(scr, ink, pts)

    def _draw_reserve(self):
        scr, rig = self.screen, self.rig
        title = self.font.render("Beside the board", True, TEXT)
        scr.blit(title, (self.panel.x, self.panel.y))
        for kind in (ROMAN, HUN):
            left = len(rig.table.reserve(kind))
            for i, rect in enumerate(self.slots[kind]):
                pygame.draw.rect(scr, (40, 43, 50), rect, border_radius=6)
                if i < left:
                    self._draw_piece(kind, rect.center, scale=0.6)
                else:
                    t = self.small.render(kind, True, (70, 74, 82))
                    scr.blit(t, t.get_rect(center=rect.center))
        rect = self.slots[TILE][0]
        pygame.draw.rect(scr, (40, 43, 50), rect, border_radius=6)
        left = len(rig.table.reserve(TILE))
        for k in range(min(left, 5)):
            at = (rect.centerx + 2 * k - 4, rect.centery - 10 - 3 * k)
            self._draw_piece(TILE, at, scale=0.6)
        t = self.font.render("x %d" % left, True, TEXT)
        scr.blit(t, (rect.centerx - t.get_width() // 2, rect.bottom - t.get_height() - 4))

    def _draw_panel(self):
        scr, rig = self.screen, self.rig
        for b in self.buttons + [self.clear_button]:
            pygame.draw.rect(scr, BUTTON_DOWN if b.down else BUTTON, b.rect, border_radius=6)
            t = self.font.render(b.label, True, TEXT)
            scr.blit(t, t.get_rect(center=b.rect.center))
        width = self.panel.width
        help_lines = [
            "Drag a piece onto a square, or click it",
            "then click where it goes. Right click:",
            "back beside the board.",
        ]
        footer = self.panel.bottom - len(help_lines) * self.small.get_linesize()
        # The words, most important first, down to the footer and no further:
        # what no longer fits is cut at a line, and the cut is shown.
        lines = [(line, self.big, TEXT, 0) for line in self._wrap(rig.status(), self.big, width)]
        gap = 8
        for text in rig.details():
            ink = MISTAKE_TEXT if text.startswith("Mistake:") else DIM_TEXT
            for line in self._wrap(text, self.font, width):
                lines.append((line, self.font, ink, gap))
                gap = 0
        gap = 8
        for line in self._wrap(self.message, self.font, width) if self.message else ():
            lines.append((line, self.font, (240, 200, 120), gap))
            gap = 0
        y = self.text_top
        for k, (line, font, colour, gap) in enumerate(lines):
            y += gap
            if y + font.get_linesize() > footer - 6:
                break
            last = k + 1 < len(lines) and y + font.get_linesize() + lines[k + 1][3] + \
                lines[k + 1][1].get_linesize() > footer - 6
            if last:
                line = self._cut(line + " ...", font, width)
            scr.blit(font.render(line, True, colour), (self.panel.x, y))
            y += font.get_linesize()
        self.text_bottom = y
        self.footer_top = footer
        y = footer
        for line in help_lines:
            scr.blit(self.small.render(line, True, DIM_TEXT), (self.panel.x, y))
            y += self.small.get_linesize()

    @staticmethod
    def _cut(text, font, width):
        """Text that ends in '...' cut short enough to fit the width."""
        while font.size(text)[0] > width and len(text) > 4:
            text = text[:-5].rstrip() + " ..."
        return text

    @staticmethod
    def _wrap(text, font, width):
        out = []
        for para in str(text).split("\n"):
            line = ""
            words = []
            for word in para.split(" "):
                # A word wider than the panel (a long position) is cut up.
                while font.size(word)[0] > width and len(word) > 1:
                    k = len(word) - 1
                    while k > 1 and font.size(word[:k])[0] > width:
                        k -= 1
                    words.append(word[:k])
                    word = word[k:]
                words.append(word)
            for word in words:
                trial = word if not line else line + " " + word
                if font.size(trial)[0] <= width or not line:
                    line = trial
                else:
                    out.append(line)
                    line = word
            out.append(line)
        return out

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
