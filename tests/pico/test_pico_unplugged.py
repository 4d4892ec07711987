"""A 74HC165 chain with its cable unplugged, on the emulated Pico (review finding 2)."""

from conftest import LAYOUT  # noqa: F401  (the 4x5 board of `flashed`)


def test_an_unplugged_chain_reads_empty_squares_not_phantom_pieces(flashed):
    """Nothing drives QH: it reads as its pad's pull. The firmware pulls it the way an
    empty square reads (up, the chain being active low), so the board shows the empty
    board's setup; with no pull it read 0 on every input: 20 phantom pieces."""
    board = flashed("pico.json")
    board.pico.board["sensors"]["unplugged"] = True
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        since = board.pico.mark()
        board.pico.run_ms(500)
        said = board.pico.output(since)
        assert "take every piece off" not in said and "take the piece off" not in said, said
        assert board.pico.serial.decode("utf-8", "replace").count(
            "Romans: place a knight on a lit square (knight 1 of 3)") >= 1
        board.pico.rest()  # the last step over, its LED frame latched
        blue = board.leds()[0]
        assert all(rgb == blue for rgb in board.leds()) and blue[2] > blue[0], board.leds()
