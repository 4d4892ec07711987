"""The 74HC165 chain read by the RP2040's PIO, held to the chip's datasheet.

The state machine runs on the emulated clock (tools/pico/pio.mjs); the chain
(tools/pico/wires.mjs) gives QH its propagation delay and reports pulses
shorter than a 74HC165 allows (NXP data sheet, 2.0 V, -40..85 degC: 100 ns
pulses, 125 ns from SH/LD to CLK, QH valid 205 ns after CLK). The
firmware's program (hardware.PioChain) reads every register right at the
profile's rate and at the fastest rate a profile may ask for; the same
program clocked far faster is caught, and reads the wrong bits as a real
chain would.
"""

SCRIPT = """
import hardware
from attila.sensing.scanners import ShiftScanner
for baudrate in (1000000, 2000000, 10000000):
    chain = hardware.PioChain(0, 13, 10, 12, 5, baudrate)  # (+ the byte past the chain)
    print(baudrate, ShiftScanner(None, None, None, (4, 4, 6, 6), reader=chain).scan())
"""


def test_the_pio_program_reads_the_chain_within_the_datasheet(flashed):
    board = flashed("pico.json", extra={"maintenance": b""})
    with board:
        board.pico.wait_for(b">>> ", 20000, since=0)
        mask = sum(1 << board.layout.index(s) for s in ("a1", "b4", "c4", "e1"))
        board.set_squares(mask)
        assert board.wiring.registers == (4, 4, 6, 6)
        out = board.pico.exec(SCRIPT)
        raw = board.wiring.chain(mask)
        got = dict(line.split() for line in out.split("\n") if line)
        assert int(got["1000000"]) == raw
        assert int(got["2000000"]) == raw
        assert int(got["10000000"]) != raw  # QH read before it moved: the old bits
        assert [e["text"] for e in board.pico.events] == [
            "74HC165 timing on GP13/GP12: SH/LD low for 50 ns (at least 100)",
            "74HC165 timing on GP13/GP12: CLK rose 100 ns after SH/LD (at least 125)",
            "74HC165 timing on GP13/GP12: CLK high for 50 ns (at least 100)",
        ]
