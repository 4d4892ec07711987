"""The emulated board: MicroPython WebAssembly behind a pseudo-terminal (see bridge.py)."""
