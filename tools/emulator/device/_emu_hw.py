# The emulated board's hardware: pin levels, reed switches, buttons, LEDs.
#
# The host drives it through files in the bridge's hw directory:
#   config.json   what is wired where (written by the host before boot, see
#                 tools/emulator/hardware.py):
#                 {"kind": "gpio" | "matrix" | "74hc165",
#                  "pins": [...], "active_low": true,            # gpio
#                  "rows": [...], "cols": [...], "count": n,     # matrix
#                  "load": p, "clock": p, "data": p,             # 74hc165
#                  "registers": [6, 6, 4, 4],
#                  "buttons": [undo_pin, menu_pin], "buttons_active_low": true}
#   inputs.json   {"sensors": raw chain bitmask of closed switches,
#                  "buttons": bitmask of held buttons (bit 0 undo, 1 menu)}
# and reads back
#   leds.json     {"pin": p, "writes": n, "data": "hex of the last write"}
#   pins.json     written on request: the level of every pin (for debugging)
# Without a config every input pin reads its pull (up: 1, down/none: 0).
import json
import _emu_js
from _emu_time import port_ticks_ms

levels = {}  # pin id -> level driven (outputs) or None
pulls = {}  # pin id -> "up" / "down" / None
_config = {}
_inputs = {}
_checked = None
_cfg_mtime = 0
_in_mtime = 0
_shift = 0  # 74HC165 chain contents, register 1 in the top byte
_shift_bits = 0
_led_writes = 0


def _load(name):
    text = _emu_js.readHost(name)
    if not text:
        return {}
    try:
        return json.loads(text)
    except ValueError:
        return {}


def refresh(force=False):
    """Re-read config.json and inputs.json when they changed (at most every 5 ms)."""
    global _checked, _config, _inputs, _cfg_mtime, _in_mtime
    now = port_ticks_ms()
    if not force and _checked is not None and 0 <= now - _checked < 5:
        return
    _checked = now
    m = _emu_js.mtimeHost("config.json")
    if m != _cfg_mtime:
        _cfg_mtime = m
        _config = _load("config.json")
    m = _emu_js.mtimeHost("inputs.json")
    if m != _in_mtime:
        _in_mtime = m
        _inputs = _load("inputs.json")


def _closed(k):
    return _inputs.get("sensors", 0) >> k & 1


def _index(seq, pin):
    for i, p in enumerate(seq or ()):
        if p == pin:
            return i
    return -1


def read(pin):
    """The level an input pin reads."""
    refresh()
    c = _config
    kind = c.get("kind")
    if kind == "gpio":
        k = _index(c.get("pins"), pin)
        if k >= 0:
            low = c.get("active_low", True)
            return (0 if low else 1) if _closed(k) else (1 if low else 0)
    elif kind == "matrix":
        ci = _index(c.get("cols"), pin)
        if ci >= 0:
            cols = len(c["cols"])
            count = c.get("count", cols * len(c.get("rows", ())))
            for ri, row in enumerate(c.get("rows", ())):
                k = ri * cols + ci
                if levels.get(row) == 0 and k < count and _closed(k):
                    return 0  # pulled low through the diode and the closed switch
            return 1
    elif kind == "74hc165":
        if pin == c.get("data"):
            return _shift >> (_shift_bits - 1) & 1 if _shift_bits else 1
    b = _index(c.get("buttons"), pin)
    if b >= 0:
        held = _inputs.get("buttons", 0) >> b & 1
        if c.get("buttons_active_low", True):
            return 0 if held else 1
        return 1 if held else 0
    if levels.get(pin) is not None:
        return levels[pin]
    return 1 if pulls.get(pin) == "up" else 0


def _latch():
    """SH/LD low: every register loads its parallel inputs."""
    global _shift, _shift_bits
    refresh(True)
    c = _config
    low = c.get("active_low", True)
    value = 0
    bit = 0
    for n in c.get("registers", ()):
        byte = 0
        for i in range(8):
            if i < n and _closed(bit + i):
                level = 0 if low else 1
            else:
                level = 1 if low else 0  # open switch, or an unused input
            byte |= level << i
        value = value << 8 | byte
        bit += n
    _shift = value
    _shift_bits = 8 * len(c.get("registers", ()))


def drive(pin, level):
    """An output pin driven to `level`."""
    global _shift
    old = levels.get(pin)
    levels[pin] = level
    refresh()
    c = _config
    if c.get("kind") == "74hc165":
        if pin == c.get("load") and level == 0:
            _latch()
        elif pin == c.get("clock") and old == 0 and level == 1:
            if levels.get(c.get("load"), 1) and _shift_bits:
                _shift = _shift << 1 & ((1 << _shift_bits) - 1)


def spi_read(n):
    """n bytes clocked in from the 74HC165 chain by SPI."""
    global _shift
    out = bytearray(n)
    for k in range(n):
        if _shift_bits:
            out[k] = _shift >> (_shift_bits - 8) & 0xFF
            _shift = _shift << 8 & ((1 << _shift_bits) - 1)
        else:
            out[k] = 0xFF
    return out


def led_write(pin, buf):
    """A strip write (neopixel or machine.bitstream): recorded in leds.json."""
    global _led_writes
    _led_writes += 1
    data = "".join("%02x" % b for b in buf)
    _emu_js.writeHost("leds.json", json.dumps({"pin": pin, "writes": _led_writes, "data": data}))


def dump_pins():
    _emu_js.writeHost("pins.json", json.dumps({"levels": [[p, v] for p, v in levels.items()],
                                               "pulls": [[p, v] for p, v in pulls.items()]}))
