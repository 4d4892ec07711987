"""Render the controller's frame into the LED strip's bytes.

Why it is built this way: docs/pages/inside/design.md (attila/leds/strip.py).
"""

from attila.compat import const

BUDGET_MA = const(400)  # default LED budget for a board powered from USB 2.0
MA_PER_CHANNEL = const(20)  # WS2812B, one channel at 255
IDLE_MA = const(1)  # WS2812B quiescent current, per LED

ORDERS = ("RGB", "GRB", "BRG", "BGR", "RBG", "GBR", "RGBW", "GRBW")


class Leds:
    """Frame (RGB per square) -> strip bytes (chain order, colour order), capped.

    render(frame, buf) writes every byte of `buf` that belongs to a square and
    leaves the others (offset LEDs, the white channel of RGBW) at what they
    are (zero in a fresh buffer). It allocates nothing.
    """

    def __init__(
        self,
        wiring,
        order="GRB",
        brightness=255,
        budget_ma=BUDGET_MA,
        ma_per_channel=MA_PER_CHANNEL,
        idle_ma=IDLE_MA,
    ):
        if order not in ORDERS:
            raise ValueError("colour order %r is not one of %s" % (order, ", ".join(ORDERS)))
        self.order = order
        self.bpp = len(order)
        self.count = wiring.led_count
        self.size = wiring.size
        self.ma_per_channel = ma_per_channel
        self.idle_total = idle_ma * self.count
        self.budget_ma = budget_ma
        if budget_ma <= self.idle_total:
            raise ValueError(
                "LED budget %d mA does not even cover the %d LEDs' idle %d mA"
                % (budget_ma, self.count, self.idle_total)
            )
        # Largest sum of channel bytes the budget allows.
        self.limit = (budget_ma - self.idle_total) * 255 // ma_per_channel
        self.brightness = brightness
        # Frame byte 3*square+c -> strip byte.
        dst = []
        for sq in range(self.size):
            led = wiring.square_led[sq]
            for c in "RGB":
                dst.append(led * self.bpp + order.index(c))
        self._dst = tuple(dst)
        self.level = 0  # brightness actually used for the last frame (0..255)

    def bytes_needed(self):
        """Size of the strip buffer: LEDs x bytes per LED."""
        return self.count * self.bpp

    def render(self, frame, buf):
        """Write `frame` into `buf`; return the level used (0..255)."""
        level = self.brightness
        total = sum(frame)
        if total * level > self.limit * 255:
            level = self.limit * 255 // total
        dst = self._dst
        for i in range(len(dst)):
            buf[dst[i]] = frame[i] * level // 255
        self.level = level
        return level

    def current_ma(self, buf):
        """Estimated current of the LEDs showing `buf`, in mA (rounded down)."""
        return sum(buf) * self.ma_per_channel // 255 + self.idle_total
