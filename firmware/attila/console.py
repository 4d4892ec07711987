"""The status line on the serial console, written without ever waiting for it.

Why it is built this way: docs/pages/inside/design.md (attila/console.py).
"""

from attila.compat import const

BUDGET = const(32)  # bytes a step at most (a 60-byte line: two 10 ms steps)


class Console:
    """A console(text) that never blocks; drain() once a loop step sends it.

    stream: the port's console (sys.stdout; its bytes go to stream.buffer
    where it has one); writable(): True when a byte goes out without waiting
    (default: select.poll on the stream). drain() allocates nothing.
    """

    def __init__(self, stream=None, writable=None, budget=BUDGET):
        if stream is None:
            import sys

            stream = sys.stdout
        self._write = getattr(stream, "buffer", stream).write
        self._writable = writable if writable is not None else _poller(stream)
        self._writable()  # (MicroPython's ipoll makes its tuple on the first call)
        self._budget = budget
        self._byte = bytearray(1)
        self._line = None  # the line being sent (bytes, with its CR LF)
        self._at = 0  # bytes of it sent
        self._kept = False  # the line being sent was told: a status line waits for it
        self._told = None  # a told line after it ...
        self._next = None  # ... and the newest status line after that
        self.dropped = 0  # lines replaced before they were sent

    def __call__(self, text):
        """The newest status line: it replaces one not begun (never a told one)."""
        line = (text + "\r\n").encode()
        if self._line is None or self._at == 0 and not self._kept:
            if self._line is not None:
                self.dropped += 1
            self._line = line
        else:
            if self._next is not None:
                self.dropped += 1
            self._next = line

    def tell(self, text):
        """A line said once that must go out: a status line not begun is
        dropped for it (the newer one comes after), a newer status waits."""
        line = (text + "\r\n").encode()
        if self._next is not None:  # older than what is told
            self.dropped += 1
            self._next = None
        if self._line is None or self._at == 0 and not self._kept:
            if self._line is not None:
                self.dropped += 1  # a status line not begun
            self._line = line
            self._kept = True
            return
        if self._told is not None:
            self.dropped += 1
        self._told = line

    def _after(self):
        """The line to send once one is finished: a told one, then the newest status."""
        line = self._told
        self._kept = line is not None
        if line is not None:
            self._told = None
            return line
        line = self._next
        self._next = None
        return line

    def pending(self):
        """True while some text waits to be sent."""
        return self._line is not None

    def drain(self):
        """Send what the port takes now, a byte at a time (BUDGET at most)."""
        line = self._line
        if line is None:
            return
        at = self._at
        end = len(line)
        left = self._budget
        byte = self._byte
        while left and self._writable():
            byte[0] = line[at]
            self._write(byte)
            at += 1
            left -= 1
            if at == end:
                line = self._after()
                at = 0
                if line is None:
                    break
                end = len(line)
        self._line = line
        self._at = at


def _poller(stream):
    """A function: True when `stream` takes a byte without waiting."""
    try:
        import select

        poll = select.poll()
        poll.register(stream, select.POLLOUT)
    except (ImportError, AttributeError, OSError, TypeError, ValueError):
        return _always  # a port without select.poll on its console: plain writes
    out = select.POLLOUT
    ipoll = getattr(poll, "ipoll", None)
    if ipoll is not None:  # MicroPython: ipoll allocates nothing

        def writable():
            for _stream, events in ipoll(0):
                return bool(events & out)
            return False

        return writable
    return lambda: any(events & out for _fd, events in poll.poll(0))


def _always():
    return True
