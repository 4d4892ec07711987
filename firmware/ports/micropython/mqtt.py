"""umqtt.simple's client with no call that waits on the network.

Client keeps umqtt's constructor, will and callback, and moves the bytes
itself, a little each loop step, so the board's loop goes on whatever the
broker does. Errors are OSError (the connection is lost) or umqtt's
MQTTException (the broker refused us).

Why it is built this way: docs/pages/inside/design.md (ports/micropython/mqtt.py).
"""

import errno
import select
import socket  # type: ignore[import-not-found]  # (the Pico's stubs: no network)
import struct
import time

from micropython import const
from umqtt.simple import MQTTClient, MQTTException

WRITE_MS = const(100)  # a write's longest wait for room in the socket's buffer
BUFFER = const(512)  # one packet at a time: ours are under 300 bytes
_OPENING = const(1)  # the TCP connect under way
_SECURING = const(2)  # TLS's handshake, then CONNECT written
_GREETING = const(3)  # CONNECT written, the CONNACK awaited
_READY = const(4)


class Client(MQTTClient):
    """An MQTT 3.1.1 client for the loop: open(), then step() every loop step."""

    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0,
                 ssl=None):
        super().__init__(client_id, server, port, user, password, keepalive, ssl)
        self._buf = bytearray(BUFFER)
        self._n = 0  # bytes in the buffer
        self._skip = 0  # bytes still to pass over (a packet longer than the buffer)
        self._state = 0
        self._poll = select.poll()
        self._addr = None
        self._hello = b""  # the CONNECT packet, written once TLS (if any) lets it
        self.ready = False
        self.partial = -1  # when the packet now in the buffer began to arrive (-1: none)
        self.unacked = 0  # our QoS 1 messages the broker has not acknowledged
        self.heard = 0  # when the broker last sent something (ticks_ms)

    # -- the connection ---------------------------------------------------------

    def open(self, addr, now):
        """Start the TCP connect to `addr` (socket.getaddrinfo's); never waits."""
        self.close()
        s = socket.socket()
        s.setblocking(False)
        self.sock = s
        self._addr = addr
        self._state = _OPENING
        self._n = self._skip = self.unacked = 0
        self.partial = -1
        self.heard = now
        try:
            s.connect(addr)
        except OSError as e:
            if e.args[0] not in (errno.EINPROGRESS, errno.EAGAIN):
                raise
        self._poll.register(s, select.POLLOUT)

    def close(self):
        s = self.sock
        self.sock = None
        self.ready = False
        self._state = 0
        if s is not None:
            try:
                self._poll.unregister(s)
            except (OSError, KeyError, ValueError):
                pass
            try:
                s.close()
            except OSError:
                pass

    def wait(self, ms):
        """Wait up to `ms` for the socket (bytes to read; the TCP connect
        done); False when nothing came."""
        return self.sock is not None and len(self._poll.poll(ms)) > 0

    def step(self, now, most=8):
        """Carry the connection on, and handle what arrived (`most` packets
        at most); True when it became ready just now."""
        s = self.sock
        state = self._state
        if s is None:
            return False
        if state == _OPENING:
            events = self._poll.poll(0)
            if not events:
                return False
            if events[0][1] & (select.POLLERR | select.POLLHUP):
                _failed(s, self._addr)
            self._poll.unregister(s)
            if self.ssl:
                s = self.ssl.wrap_socket(s, server_hostname=self.server,
                                         do_handshake_on_connect=False)
                self.sock = s
            self._poll.register(s, select.POLLIN)
            self._hello = self._greeting()
            self._state = state = _SECURING
        if state == _SECURING:
            packet = self._hello
            n = s.write(packet)  # (a TLS handshake under way: None)
            if not n:
                return False
            if n < len(packet):
                self._write(memoryview(packet)[n:])
            self._state = _GREETING
        before = self.ready
        for _ in range(most):
            if not self._packet(now):
                break
        return self.ready and not before

    def _greeting(self):
        """The CONNECT packet: persistent session, will, user and password."""
        body = bytearray(b"\x00\x04MQTT\x04\x00")
        flags = 0  # (clean session off: the broker keeps what we missed)
        if self.user:
            flags |= 0xC0
        if self.lw_topic:
            flags |= 0x04 | self.lw_qos << 3 | self.lw_retain << 5
        body[7] = flags
        body += struct.pack("!H", self.keepalive)
        _text(body, self.client_id)
        if self.lw_topic:
            _text(body, self.lw_topic)
            _text(body, self.lw_msg)
        if self.user:
            _text(body, self.user)
            _text(body, self.pswd)
        return _packed(0x10, body)

    # -- what we send -----------------------------------------------------------

    def publish(self, topic, msg, retain=False, qos=0):
        """Write a PUBLISH (QoS 0 or 1); its PUBACK is counted as it comes."""
        body = bytearray()
        _text(body, topic)
        if qos:
            self.pid = self.pid % 65535 + 1
            body += struct.pack("!H", self.pid)
            self.unacked += 1
        body += msg
        self._write(_packed(0x30 | qos << 1 | retain, body))

    def subscribe(self, topic, qos=0):
        """Write a SUBSCRIBE; a refusal in its SUBACK raises MQTTException."""
        self.pid = self.pid % 65535 + 1
        body = bytearray(struct.pack("!H", self.pid))
        _text(body, topic)
        body.append(qos)
        self._write(_packed(0x82, body))

    def ping(self):
        self._write(b"\xc0\x00")

    def disconnect(self):
        try:
            self._write(b"\xe0\x00")
        finally:
            self.close()

    def _write(self, data):
        """Write all of `data`, waiting WRITE_MS at most for room."""
        s = self.sock
        if s is None:
            raise OSError(errno.ENOTCONN)
        mv = memoryview(data)
        start = time.ticks_ms()
        while len(mv):
            n = s.write(mv)
            if n:
                mv = mv[n:]
                continue
            left = WRITE_MS - time.ticks_diff(time.ticks_ms(), start)
            if left <= 0:
                raise OSError(errno.ETIMEDOUT)
            self._poll.modify(s, select.POLLOUT)
            self._poll.poll(left)
            self._poll.modify(s, select.POLLIN)

    # -- what arrives -----------------------------------------------------------

    def _packet(self, now):
        """Handle the first whole packet in the buffer, reading what has come
        first; False when there is none (yet)."""
        whole = self._whole()
        if whole is None:
            if not self._fill(now):
                return False
            whole = self._whole()
            if whole is None:
                return False
        start, end = whole
        buf = self._buf
        kind = buf[0] & 0xF0
        if kind == 0x30:
            self._publish(buf[0], start, end)
        elif kind == 0x20 and self._state == _GREETING:
            if buf[start + 1]:
                raise MQTTException(buf[start + 1])
            self._state = _READY
            self.ready = True
        elif kind == 0x40:
            self.unacked = max(0, self.unacked - 1)
        elif kind == 0x90 and buf[end - 1] == 0x80:
            raise MQTTException(0x80)
        rest = self._n - end
        if rest:
            buf[:rest] = bytes(memoryview(buf)[end:self._n])
        self._n = rest
        self.partial = now if rest else -1
        return True

    def _fill(self, now):
        """Bytes that arrived, into the buffer (never waits); False when none."""
        if self.sock is None or self._state < _GREETING:
            return False
        got = self.sock.readinto(memoryview(self._buf)[self._n:])
        if got is None:
            return False
        if not got:
            raise OSError("closed by the broker")
        self.heard = now
        if self._skip:
            passed = min(got, self._skip)
            self._skip -= passed
            got -= passed
            self._buf[:got] = bytes(memoryview(self._buf)[passed:passed + got])
        if self._n == 0 and got:
            self.partial = now
        self._n += got
        return True

    def _whole(self):
        """(body start, end) of the packet at the buffer's start when it is
        all there, else None; one longer than the buffer is passed over."""
        buf = self._buf
        n = self._n
        size = shift = 0
        i = 1
        while True:
            if i >= n:
                return None
            b = buf[i]
            size |= (b & 0x7F) << shift
            i += 1
            if not b & 0x80:
                break
            shift += 7
            if shift > 21:
                raise OSError("not an MQTT packet")
        end = i + size
        if end <= n:
            return i, end
        if end > BUFFER:  # too long for us: acknowledged (when we can) and passed over
            if buf[0] & 0xF6 == 0x32 and i + 2 <= n:
                at = i + 2 + (buf[i] << 8 | buf[i + 1])
                if at + 2 <= n:
                    self._write(struct.pack("!BBH", 0x40, 2, buf[at] << 8 | buf[at + 1]))
            self._skip = end - n
            self._n = 0
            self.partial = -1
        return None

    def _publish(self, op, start, end):
        buf = self._buf
        at = start + 2 + (buf[start] << 8 | buf[start + 1])
        topic = bytes(buf[start + 2:at])
        pid = -1
        if op & 6:
            pid = buf[at] << 8 | buf[at + 1]
            at += 2
        cb = self.cb
        if cb is not None:
            cb(topic, bytes(buf[at:end]))
        if op & 6 == 2:
            self._write(struct.pack("!BBH", 0x40, 2, pid))


def _failed(s, addr):
    """The TCP connect failed: why, from a second connect's error where the
    port gives it."""
    try:
        s.connect(addr)
    except OSError as e:
        raise OSError(e.args[0] if e.args else "connection failed")
    raise OSError("connection failed")


def _text(out, s):
    """An MQTT string (its length, then its bytes) onto `out`."""
    if isinstance(s, str):
        s = s.encode()
    out += struct.pack("!H", len(s))
    out += s


def _packed(first, body):
    """A packet: its first byte, the remaining length (seven bits a byte,
    the high bit set on every byte but the last: MQTT 3.1.1, 2.2.3), the body."""
    head = bytearray((first,))
    n = len(body)
    while n > 0x7F:
        head.append(n & 0x7F | 0x80)
        n >>= 7
    head.append(n)
    return bytes(head) + body
