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
        tick(now_ms) -> bool        the time: True when `frame` changed
        chain(module, now_ms)       a module of the sensor chain does not answer
                                    (0: every module answers again)
        cue                         a sound to play (attila.sound's cues): the Board
                                    plays it and sets it back to 0
        said, status()              `said` grows whenever the line status() gives
                                    may have changed; the Board prints it then
        decided, decision()         `decided` grows whenever the board decides its
                                    own action; the Board tells decision() once,
                                    before the status line
    """

    cue = 0
    said = 0
    decided = 0

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

    def status(self):
        return ""

    def decision(self):
        return ""
