# `time` on the emulated board: the port's time, with sleeps that keep the
# serial line alive and turn the host's Ctrl-C into KeyboardInterrupt.
import _emu_js
from time import gmtime, localtime, mktime, ticks_add, ticks_cpu, ticks_diff, time, time_ns  # noqa: F401
from time import ticks_ms as _ticks_ms, ticks_us as _ticks_us

port_ticks_ms = _ticks_ms  # the port's clock, read without polling the host (_emu_hw)


def _raise(p):
    if p == 2:
        raise SystemExit  # the watchdog bit: the board resets
    raise KeyboardInterrupt


def _poll():
    p = _emu_js.poll()
    if p:
        _raise(p)


def sleep_ms(ms):
    p = _emu_js.sleep(int(ms))
    if p:
        _raise(p)


def sleep(seconds):
    sleep_ms(int(seconds * 1000))


def sleep_us(us):
    if us >= 1000:
        sleep_ms(us // 1000)
    else:
        _poll()


def ticks_ms():
    _poll()
    return _ticks_ms()


def ticks_us():
    _poll()
    return _ticks_us()
