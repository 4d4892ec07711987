"""The window's pictures: the board and its module plates, the LEDs' light, the pieces, the reserve.

What is drawn comes from the rig: the squares' LED colours are decoded from
the bytes in the virtual strip (the very bytes the firmware sends), the
pieces from the table.
"""

from attila_sim.look import (BACKGROUND, DIM_TEXT, MARGIN, PLATE, PLATE_EDGE, SQUARE_BASE,
                             TABLE_TOP, TEXT, TILE_EDGE, TILE_FACE, TILE_MARK, mix, pygame)
from attila_sim.table import HUN, ROMAN, TILE


class Drawing:
    """Draws a Window (a mixin: the Window has the screen, rig, fonts, geometry)."""

    def draw(self):
        """Draw the whole window (call display.flip() after)."""
        self.draws += 1
        scr = self.screen
        scr.fill(BACKGROUND)
        self._draw_board()
        self._draw_reserve()
        self.draw_panel()
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
                pygame.draw.circle(scr, mix(SQUARE_BASE, colour, 0.08 + 0.6 * t * t),
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
