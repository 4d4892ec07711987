"""A TCP proxy between a board and the broker that fails as networks do.

    proxy = Proxy(broker.port)          # listens on a free loopback port
    proxy.cut()                         # the next message to the board: half of it, then nothing
    proxy.wait_cut()                    # it happened (deadline in real time)
    proxy.mute()                        # new connections: taken, never answered
    proxy.heal()                        # new connections forwarded again
    proxy.drop()                        # every connection closed now

Each connection is forwarded packet by packet from the broker (the MQTT
framing read, so a cut falls inside a message), byte by byte towards it.
After a cut the connection is held open with nothing forwarded either way
(what the board sends is read and dropped), as a broker whose network
died mid-message; a muted connection is accepted and never answered, as
a broker that is there and says nothing.
"""

import socket
import threading
import time

DEADLINE_S = 30


class Proxy:
    def __init__(self, broker_port):
        self.broker_port = broker_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.armed = False  # the next PUBLISH to the board is cut
        self.cuts = 0
        self.muted = False
        self.connections = 0
        self._closing = False
        self._sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self):
        self.armed = True

    def wait_cut(self, n=1):
        end = time.monotonic() + DEADLINE_S
        while self.cuts < n:
            if time.monotonic() > end:
                raise AssertionError("no message to the board to cut within %d s" % DEADLINE_S)
            time.sleep(0.01)

    def mute(self):
        self.muted = True

    def heal(self):
        self.muted = False
        self.armed = False

    def drop(self):
        sockets, self._sockets = self._sockets, []
        for s in sockets:
            _close(s)

    def close(self):
        self._closing = True
        _close(self.server)
        self.drop()

    def _accept(self):
        while not self._closing:
            try:
                board, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            self._sockets.append(board)
            if self.muted:
                threading.Thread(target=_drain, args=(board,), daemon=True).start()
                continue
            broker = socket.create_connection(("127.0.0.1", self.broker_port))
            self._sockets.append(broker)
            link = {"stalled": False}
            threading.Thread(target=self._up, args=(board, broker, link), daemon=True).start()
            threading.Thread(target=self._down, args=(broker, board, link),
                             daemon=True).start()

    def _up(self, board, broker, link):
        """The board's bytes to the broker (dropped once the link stalled)."""
        try:
            while True:
                data = board.recv(4096)
                if not data:
                    break
                if not link["stalled"]:
                    broker.sendall(data)
        except OSError:
            pass
        if not link["stalled"]:
            _close(broker)

    def _down(self, broker, board, link):
        """The broker's packets to the board, whole, until one is cut."""
        buf = b""
        try:
            while True:
                data = broker.recv(4096)
                if not data:
                    break
                buf += data
                while True:
                    size = _packet_size(buf)
                    if size is None or len(buf) < size:
                        break
                    packet, buf = buf[:size], buf[size:]
                    if self.armed and packet[0] & 0xF0 == 0x30:
                        self.armed = False
                        link["stalled"] = True
                        board.sendall(packet[:size // 2])
                        self.cuts += 1
                        _drain(broker)
                        return
                    board.sendall(packet)
        except OSError:
            pass
        _close(board)


def _packet_size(buf):
    """The whole length of the MQTT packet at buf's start, or None (not all there)."""
    size = shift = 0
    for i in range(1, min(len(buf), 5)):
        b = buf[i]
        size |= (b & 0x7F) << shift
        if not b & 0x80:
            return i + 1 + size
        shift += 7
    return None


def _drain(sock):
    """Read and drop: a connection that answers nothing."""
    try:
        while sock.recv(4096):
            pass
    except OSError:
        pass


def _close(sock):
    """Closed now, the other end told (a thread reading it is woken)."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
