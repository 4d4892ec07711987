"""The unix port's socket as MicroPython documents it, and as the Pico W's is.

MicroPython's docs: `s.setblocking(True)` is `s.settimeout(None)` (it waits
for ever), and so it is on the Pico W (lwIP). The unix port's keeps a
timeout set before, which would hide from tests/online a read that waits
for ever on a board. boardhost.py puts this module in sys.modules as
`socket` before the firmware imports it.
"""

import io
import select

import socket as _real

getaddrinfo = _real.getaddrinfo
_POLL = 3  # MicroPython's MP_STREAM_POLL
_CLOSE = 4  # MP_STREAM_CLOSE


class socket(io.IOBase):  # noqa: N801  (the module's own name for it)
    def __init__(self, *args):
        self._s = _real.socket(*args)
        self._poll = select.poll()
        self._poll.register(self._s, 0)

    def settimeout(self, t):
        self._s.settimeout(t)

    def setblocking(self, flag):
        self._s.settimeout(None if flag else 0)

    def connect(self, addr):
        self._s.connect(addr)

    def read(self, n=-1):
        return self._s.read(n) if n >= 0 else self._s.read()

    def readinto(self, buf, n=-1):
        return self._s.readinto(buf) if n < 0 else self._s.readinto(buf, n)

    def write(self, buf, n=-1):
        return self._s.write(buf) if n < 0 else self._s.write(buf, n)

    def close(self):
        self._s.close()

    def ioctl(self, request, arg):
        if request == _POLL:
            self._poll.modify(self._s, arg)
            ready = self._poll.poll(0)
            return ready[0][1] if ready else 0
        if request == _CLOSE:
            self._s.close()
            return 0
        return -1
