"""Which LED and which sensor belong to which square.

Why it is built this way: docs/pages/inside/design.md (attila/sensing/wiring.py).
"""

from attila.compat import const
from attila.errors import LayoutError

NONE = const(255)  # an LED that belongs to no square


def check_order(order, size, where):
    """A permutation of range(size) as a tuple, or LayoutError naming `where`."""
    if order is None:
        return tuple(range(size))
    if len(order) != size or sorted(order) != list(range(size)):
        raise LayoutError(
            "%s: %r must list each local index 0..%d once"
            % (where, list(order), size - 1)
        )
    return tuple(order)


def _chain(layout, modules, local, what):
    """Squares in chain order: module by module, each in its local order."""
    out = []
    for m in sorted(modules, key=lambda m: m.number):
        order = check_order(
            (local or {}).get(m.kind), len(m.places), '%s local_order["%s"]' % (what, m.kind)
        )
        for k in order:
            f, r = m.places[k]
            sq = layout.at(f, r)
            if sq < 0:
                raise LayoutError(
                    "%s square %d lies outside the layout" % (m.describe(), k)
                )
            out.append(sq)
    if sorted(out) != list(range(layout.size)):
        raise LayoutError(
            "the modules cover %d places but the layout has %d squares"
            % (len(out), layout.size)
        )
    return out


class Wiring:
    """LED chain index <-> square and sensor chain bit -> square for one board."""

    def __init__(self, layout, modules, led_local=None, sensor_local=None, led_offset=0):
        if led_offset < 0 or led_offset > 64:
            raise LayoutError("leds offset %r must be 0..64" % led_offset)
        self.layout = layout
        self.size = layout.size
        leds = _chain(layout, modules, led_local, "leds")
        sensors = _chain(layout, modules, sensor_local, "sensors")
        self.led_offset = led_offset
        self.led_count = led_offset + len(leds)
        # LED chain index -> square (NONE for the offset LEDs).
        self.led_square = bytes([NONE] * led_offset + leds)
        # Square -> LED chain index.
        sq_led = bytearray(self.size)
        for k, sq in enumerate(leds):
            sq_led[sq] = led_offset + k
        self.square_led = bytes(sq_led)
        # Sensor chain bit -> square.
        self.sensor_square = bytes(sensors)
        self.sensor_bits = len(sensors)
        # Register sizes of a 74HC165 chain: one 8-bit register per module
        # (several for a DIY module larger than 8 squares), bits used each.
        regs = []
        owners = []
        for m in sorted(modules, key=lambda m: m.number):
            n = len(m.places)
            while n > 0:
                regs.append(8 if n > 8 else n)
                owners.append(m.number)
                n -= 8
        self.registers = tuple(regs)
        self.register_modules = tuple(owners)  # the module number of each register
        # One table per four chain bits: nibble value -> square bits.
        tables = []
        for base in range(0, len(sensors), 4):
            t = []
            for v in range(16):
                mask = 0
                for b in range(4):
                    if v >> b & 1 and base + b < len(sensors):
                        mask |= 1 << sensors[base + b]
                t.append(mask)
            tables.append(tuple(t))
        self._tables = tuple(tables)

    def squares(self, raw):
        """Square bitmask of a raw sensor bitmask in chain order (allocation-free
        while the masks fit a small int, i.e. up to 30 squares)."""
        out = 0
        for t in self._tables:
            out |= t[raw & 15]
            raw >>= 4
        return out

    def chain(self, squares):
        """Raw chain-order bitmask of a square bitmask (the inverse; for tests
        and the simulator)."""
        raw = 0
        for bit in range(self.sensor_bits):
            if squares >> self.sensor_square[bit] & 1:
                raw |= 1 << bit
        return raw
