"""Desktop simulator: virtual LEDs, reed switches and buttons under the real controller."""
