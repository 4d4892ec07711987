"""The emulated Raspberry Pi Pico: MicroPython's own RP2040 build in rp2040js."""
