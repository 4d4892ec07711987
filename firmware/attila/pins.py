"""Which GPIOs a chip has, and which of them a pin of a profile may be.

Why it is built this way: docs/pages/inside/design.md (attila/pins.py).
"""

_GPIOS = {"rp2040": 30, "rp2350": 48, "esp32": 40}
_PICO_KEPT = (23, 24, 25, 29)
_ESP32_MISSING = (20, 24, 28, 29, 30, 31)


def number(pin):
    """The GPIO number of a pin (an int, or a name like "GP22"); None if it has none."""
    if isinstance(pin, int):
        return pin
    if pin[:2] == "GP" and pin[2:].isdigit():
        return int(pin[2:])
    return None


def spelling(port, chip, pin):
    """Why `pin` is not written as the port names a pin, or None when it is."""
    if port == "micropython":
        if isinstance(pin, int):
            return None
        return "MicroPython names a pin by its GPIO number (like 22), not %r" % (pin,)
    if isinstance(pin, int):
        if chip in ("rp2040", "rp2350"):
            return None  # the port reads n as "GP<n>"
        return "CircuitPython names a pin as its board module does (like \"D5\"), not %r" % (
            pin,)
    if chip in ("rp2040", "rp2350"):
        if number(pin) is None:
            return ("CircuitPython on the %s names a pin \"GP<n>\" (like \"GP22\"), not %r"
                    % (chip.upper(), pin))
        return None
    if not (pin[0].isalpha() or pin[0] == "_") or not all(
            c.isalpha() or c.isdigit() or c == "_" for c in pin):
        return "CircuitPython names a pin as its board module does (like \"D5\"), not %r" % (
            pin,)
    return None


def same(pin):
    """What two spellings of one pin share: 22 and "GP22" are one GPIO."""
    n = number(pin)
    return pin if n is None else n


def problem(chip, model, pin, output=False, pull=False):
    """Why `pin` cannot serve on the chip (model: the microcontroller board's
    name, "Raspberry Pi Pico W"), or None when it can.

    output: the pin drives something (LEDs, SH/LD, CLK, matrix rows, buzzer);
    pull: the input needs the chip's internal pull-up or pull-down.
    """
    n = number(pin)
    if n is None or chip not in _GPIOS:
        return None
    name = model or chip.upper()
    low = " %s " % model.lower()
    pico = " raspberry pi pico" in low
    count = 30 if pico else _GPIOS[chip]
    if not 0 <= n < count or chip == "esp32" and n in _ESP32_MISSING:
        return "pin %r: the %s has GPIO 0..%d%s" % (
            pin, name, count - 1, " but no 20, 24 or 28..31" if chip == "esp32" else "")
    if pico and n in _PICO_KEPT:
        wireless = " w " in low or " w)" in low
        return "pin %r is not on the %s's header (GP23, GP24, GP25 and GP29 %s)" % (
            pin, name, "run its wireless chip" if wireless
            else "sense and steer its power and light its LED")
    if chip == "esp32":
        if 6 <= n <= 11:
            return "pin %r: GPIO 6..11 of the ESP32 are wired to its flash memory" % (pin,)
        if n >= 34 and output:
            return "pin %r: GPIO 34..39 of the ESP32 are inputs only, and this pin drives" % (
                pin,)
        if n >= 34 and pull:
            return ("pin %r: GPIO 34..39 of the ESP32 have no internal pull-up or pull-down "
                    "(add an external resistor and set pull null, or use another pin)" % (pin,))
    return None
