"""The simulator's hands on the emulated Pico: one script, two machines.

    board = PicoBoard.flashed(...); board.start(); board.boot()
    rig = Mirror(board)                      # an attila_sim Rig in lockstep with the chip
    rig.do(actions.parse("@a1"))             # the sim's hands: both boards see it

The simulator's own Rig (attila_sim.rig) carries out the actions; every
10 ms of its clock the emulated Pico runs 10 ms too, with the reed switches
and buttons as the Rig's table and buttons are. Input changes reach the
chip's pins while its core sleeps between two loop steps, so a step never
reads half old, half new inputs. `inputs` lists them: (ns, squares, buttons).
"""

from attila_sim.rig import Rig


class Mirror(Rig):
    """A Rig whose clock and hands also drive an emulated PicoBoard."""

    def __init__(self, pico_board, **kw):
        self.pico_board = pico_board
        self.inputs = []  # (ns, squares, buttons) as applied to the chip
        self._applied = None
        self.written_at = 0  # the simulator's clock at its last strip write
        b = pico_board
        super().__init__(b.layout, b.modules, b.tiles, profile=b.prof, **kw)
        write = self.strip.write

        def spy(data=None):
            write(data)
            self.written_at = self.now

        self.strip.write = spy

    def advance_to(self, now_ms):
        step = 10
        while self.now + step <= now_ms:
            self._sync()
            self.pico_board.run_ms(step)
            super().advance_to(self.now + step)
        self._sync()

    def _sync(self):
        want = (self.table.occupied(), self.buttons.held)
        if want == self._applied:
            return
        b = self.pico_board
        b.pico.run_to_idle(5000)  # (pico.json's watchdog: a longer step resets the board)
        b.set_squares(want[0])
        b.held = want[1]
        b.pico.set_buttons(want[1])
        self._applied = want
        self.inputs.append((b.pico.ns, want[0], want[1]))
