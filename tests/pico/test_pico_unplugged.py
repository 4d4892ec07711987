"""A 74HC165 chain with its cable unplugged at the Pico, on the emulated Pico (review finding 2)."""

from conftest import LAYOUT  # noqa: F401  (the 4x5 board of `flashed`)
from test_pico_chain import WORDS, all_red


def test_an_unplugged_chain_reads_no_phantom_piece_and_names_module_1(flashed):
    """Nothing drives QH: it reads as its pad's pull. The firmware pulls it the way an
    empty square reads (up, the chain being active low): with no pull it read 0 on
    every input, 20 phantom pieces. Every byte then reads 0xFF, the one past the chain
    too, which a cabled chain's last SER pulls down: module 1 does not answer."""
    board = flashed("pico.json")
    board.pico.board["sensors"]["unplugged"] = True
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        since = board.pico.mark()
        board.pico.run_ms(1500)
        said = board.pico.output(since)
        assert "take every piece off" not in said and "take the piece off" not in said, said
        assert said.strip().split("\n")[-1].strip() == WORDS % 1, said
        board.pico.rest()  # the last step over, its LED frame latched
        assert all_red(board, board.pico.frames)
