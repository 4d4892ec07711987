"""The window's panel of words: the buttons, what the board says (its own
action as a whole, then the status line), the replay's analysis and the
help, most important first, cut where the panel ends."""

from attila_sim.look import BUTTON, BUTTON_DOWN, DIM_TEXT, MISTAKE_TEXT, TEXT, pygame


class Panel:
    """The panel of a Window (a mixin: the Window has the screen, rig, fonts, buttons, panel)."""

    def draw_panel(self):
        """The buttons, then the words down to the help at the panel's foot."""
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
        # The board's own action, said once as a whole (in its side's colour)
        # above the status line that guides its steps, while they are done.
        told = rig.heard.telling(rig.controller)
        lines = [(line, self.font, self.colours[rig.controller.computer], 0)
                 for line in (wrap(told, self.font, width) if told else ())]
        lines += [(line, self.big, TEXT, 0) for line in wrap(rig.status(), self.big, width)]
        gap = 8
        for text in rig.details():
            ink = MISTAKE_TEXT if text.startswith("Mistake:") else DIM_TEXT
            for line in wrap(text, self.font, width):
                lines.append((line, self.font, ink, gap))
                gap = 0
        gap = 8
        for line in wrap(self.message, self.font, width) if self.message else ():
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
                line = cut(line + " ...", font, width)
            scr.blit(font.render(line, True, colour), (self.panel.x, y))
            y += font.get_linesize()
        self.text_bottom = y
        self.footer_top = footer
        y = footer
        for line in help_lines:
            scr.blit(self.small.render(line, True, DIM_TEXT), (self.panel.x, y))
            y += self.small.get_linesize()


def cut(text, font, width):
    """Text that ends in '...' cut short enough to fit the width."""
    while font.size(text)[0] > width and len(text) > 4:
        text = text[:-5].rstrip() + " ..."
    return text

def wrap(text, font, width):
    """Lines of text that fit the width in the font (a word too wide is cut up)."""
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
