"""The status line on a serial port that may not take it (attila.console)."""

from attila.console import BUDGET, Console


class Port:
    """A serial port that takes `room` bytes, then none until the host reads."""

    def __init__(self, room=1000):
        self.room = room
        self.sent = bytearray()
        self.asked = 0

    def writable(self):
        self.asked += 1
        return self.room > 0

    def write(self, data):
        assert self.room >= len(data), "a write that would have waited"
        self.room -= len(data)
        self.sent += data
        return len(data)


def console(port):
    return Console(port, port.writable)


def test_a_line_goes_out_over_the_steps_a_budget_at_a_time():
    port = Port()
    c = console(port)
    c("x" * 40)
    c.drain()
    assert len(port.sent) == BUDGET == 32, len(port.sent)
    c.drain()
    assert bytes(port.sent) == b"x" * 40 + b"\r\n" and not c.pending()
    c.drain()  # nothing left: the port is not even asked
    assert len(port.sent) == 42


def test_a_port_that_takes_nothing_never_makes_it_wait():
    port = Port(room=0)
    c = console(port)
    c("Romans: place a knight")
    for _ in range(100):
        c.drain()
    assert port.sent == b"" and c.pending()
    port.room = 1000  # the host reads again: the line goes out
    c.drain()
    c.drain()
    # CR LF: a serial terminal starts the next line at its left edge.
    assert bytes(port.sent) == b"Romans: place a knight\r\n"


def test_the_newest_line_replaces_one_not_begun_and_a_begun_one_is_finished():
    port = Port(room=0)
    c = console(port)
    c("first")
    c("second")  # the first never went out: replaced
    port.room = 3
    c.drain()
    assert bytes(port.sent) == b"sec"
    c("third")
    c("fourth")  # waits behind the line under way; third is dropped
    port.room = 1000
    c.drain()
    assert bytes(port.sent) == b"second\r\nfourth\r\n", bytes(port.sent)
    assert c.dropped == 2


def test_the_default_console_is_the_interpreters_own_output():
    c = Console()
    c.drain()  # nothing pending: nothing written, nothing raised
    assert not c.pending()


def test_a_told_line_is_not_replaced_and_goes_before_the_newest_status():
    # The board's own action, said once as a whole (attila.board's tell),
    # then the status line that guides the hands: both reach the terminal,
    # in that order, even from a port that took nothing meanwhile.
    port = Port(room=0)
    c = console(port)
    c("The board plays the Huns: thinking...")
    c.tell("Huns: b3-d4,c4 (the knight on b3 to d4, then scorch c4)")  # the status not begun: gone
    c("The board plays the Huns: lift the knight on b3")
    c("The board plays the Huns: put the knight on d4")  # replaces the status, not the told line
    port.room = 1000
    for _ in range(10):
        c.drain()
    assert bytes(port.sent) == (b"Huns: b3-d4,c4 (the knight on b3 to d4, then scorch c4)\r\n"
                                b"The board plays the Huns: put the knight on d4\r\n"), port.sent
    assert c.dropped == 2 and not c.pending()


def test_a_line_told_while_another_goes_out_follows_it():
    port = Port(room=4)
    c = console(port)
    c("Romans: place a knight")
    c.drain()  # "Roma" sent: the line is under way
    c("Huns: thinking...")  # waits behind it
    c.tell("Huns: @c3 (a knight on c3)")  # the waiting status is older: dropped
    c("Huns: put a knight on c3")
    port.room = 1000
    for _ in range(10):
        c.drain()
    assert bytes(port.sent) == (b"Romans: place a knight\r\nHuns: @c3 (a knight on c3)\r\n"
                                b"Huns: put a knight on c3\r\n"), port.sent
    assert c.dropped == 1
