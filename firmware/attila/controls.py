"""What a Board (attila.board) drives: the controller's protocol, with no-op defaults.

attila.play.controller.Controller keeps all of it; a smaller controller (a
test's, a benchmark's) inherits what it has no use for. The board itself
never imports this module: on a board it would only take RAM.
"""


class Controls:
    """What a Board drives, with no-op defaults (attila.play.controller.Controller
    is one; a smaller one, a test's, inherits what it has no use for):

        frame                       bytearray, 3 bytes a square: what the LEDs show
        sense(mask, now_ms)         a new debounced occupancy, in square order
        press(button, now_ms)       a button went down (0 UNDO, 1 MENU) ...
        release(button, now_ms)     ... and came up again
        tick(now_ms) -> bool        the time: True when `frame` changed since
                                    the last tick (the only time it changes)
        chain(module, now_ms)       a module of the sensor chain does not answer
                                    (0: every module answers again)
        cue, take_cue()             a sound to play (attila.play.modes CUE_*): the
                                    Board takes it and plays it once
        status_count, status()      `status_count` grows whenever the line
                                    status() gives may have changed
        decided, decision()         `decided` grows whenever the board decides its
                                    own action; the Board tells decision() once,
                                    before the status line
        searching                   a search was under way at the last tick: the
                                    port's loop steps again at once
        trouble(text), self_test(now_ms), resume()
                                    what a port asks at power-up (attila.board.Board)
    """

    cue = 0
    status_count = 0
    decided = 0
    searching = False

    def sense(self, mask, now_ms):
        pass

    def press(self, button, now_ms):
        pass

    def release(self, button, now_ms):
        pass

    def tick(self, now_ms):
        return False

    def chain(self, module, now_ms):
        pass

    def take_cue(self):
        cue = self.cue
        self.cue = 0
        return cue

    def status(self):
        return ""

    def decision(self):
        return ""

    def trouble(self, text):
        pass

    def self_test(self, now_ms):
        pass

    def resume(self):
        pass
