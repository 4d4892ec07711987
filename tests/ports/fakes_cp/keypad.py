"""Fake CircuitPython `keypad`: Keys, KeyMatrix, ShiftRegisterKeys, Event, EventQueue.

Written from CircuitPython's documentation of the module (shared-bindings/
keypad) and what its scanners do (shared-module/keypad): the pins go
through the fake `digitalio`, so the devices of tests/ports/fakes/physical.py
answer the same scan sequence as on a board:

- a scanner scans once when it is made, then every `interval` seconds in
  the background; here the scans that have fallen due are run whenever the
  firmware next touches the scanner or its queue (the pins are read then);
- a key's debounce counter runs from -threshold (released) to +threshold
  (pressed) and an event is recorded when it crosses 0; it starts at 0, so
  a key held when the scanner is made reports nothing until `reset()`,
  which sets every key to released and scans at once;
- a full queue drops the new event and sets `overflowed`;
- ShiftRegisterKeys latches with `latch` = value_to_latch, reads each data
  pin before the rising clock edge (key 0 is the first bit out: Q7 of a
  74HC165), then puts `latch` back; KeyMatrix drives one row at a time to
  the level opposite its pull and reads the columns.
"""

import digitalio
import supervisor


def _now():
    return supervisor.t[0]


class Event:
    """A key transition event."""

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self._set(key_number, pressed, supervisor.ticks_ms() if timestamp is None else timestamp)

    def _set(self, key_number, pressed, timestamp):
        self.key_number = key_number
        self.pressed = bool(pressed)
        self.released = not self.pressed
        self.timestamp = timestamp

    def __eq__(self, other):
        return (isinstance(other, Event) and self.key_number == other.key_number
                and self.pressed == other.pressed)

    def __hash__(self):
        return hash((self.key_number, self.pressed))


class EventQueue:
    """A queue of Events filled by a scanner (not made directly)."""

    def __init__(self, scanner, max_events):
        self._scanner = scanner
        self._max = max_events
        self._events = []
        self._overflowed = False

    def _record(self, key_number, pressed, timestamp):
        if len(self._events) >= self._max:
            self._overflowed = True
            return False
        self._events.append((key_number, pressed, timestamp))
        return True

    def get(self):
        event = Event()
        return event if self.get_into(event) else None

    def get_into(self, event):
        self._scanner._catch_up()
        if not self._events:
            return False
        event._set(*self._events.pop(0))
        return True

    def clear(self):
        self._scanner._catch_up()
        del self._events[:]
        self._overflowed = False

    def __len__(self):
        self._scanner._catch_up()
        return len(self._events)

    def __bool__(self):
        return len(self) > 0

    @property
    def overflowed(self):
        self._scanner._catch_up()
        return self._overflowed


class _Scanner:
    def _start(self, key_count, interval, max_events, debounce_threshold):
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        self.key_count = key_count
        self._interval = int(interval * 1000)
        self._threshold = debounce_threshold
        self._counters = [0] * key_count
        self.events = EventQueue(self, max_events)
        self.scans = 0
        self._deinited = False
        self._scan_now(_now())

    def _scan_now(self, now):
        self._next = now + self._interval
        self.scans += 1
        self._scan(now & 0x1FFFFFFF)

    def _catch_up(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        now = _now()
        while now >= self._next:
            self._scan_now(self._next)

    def _debounce(self, key, current):
        c = self._counters[key]
        th = self._threshold
        if current:
            if c < th:
                c += 1
                if c == 0:
                    self._counters[key] = th
                    return True
                self._counters[key] = c
        elif c > -th:
            c -= 1
            if c == 0:
                self._counters[key] = -th
                return True
            self._counters[key] = c
        return False

    def _key(self, key, current, timestamp):
        if self._debounce(key, current):
            self.events._record(key, current, timestamp)

    def reset(self):
        """Every key released now; keys still pressed are reported at once."""
        self._catch_up()
        for k in range(self.key_count):
            self._counters[k] = -self._threshold
        self._scan_now(_now())

    def deinit(self):
        for dio in self._pins():
            dio.deinit()
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()


class Keys(_Scanner):
    """One key per pin; key numbers are the indices of `pins`."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        self._value = bool(value_when_pressed)
        self._dios = []
        for pin in pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(
                pull=(digitalio.Pull.DOWN if self._value else digitalio.Pull.UP) if pull else None)
            self._dios.append(dio)
        self._start(len(self._dios), interval, max_events, debounce_threshold)

    def _pins(self):
        return self._dios

    def _scan(self, timestamp):
        for k, dio in enumerate(self._dios):
            self._key(k, dio.value == self._value, timestamp)


class KeyMatrix(_Scanner):
    """Rows x columns; key = row * len(column_pins) + column."""

    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        self._anodes = bool(columns_to_anodes)
        pull = digitalio.Pull.UP if self._anodes else digitalio.Pull.DOWN
        self._rows = []
        for pin in row_pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(pull=pull)
            self._rows.append(dio)
        self._cols = []
        for pin in column_pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(pull=pull)
            self._cols.append(dio)
        self._start(len(self._rows) * len(self._cols), interval, max_events,
                    debounce_threshold)

    def _pins(self):
        return self._rows + self._cols

    def _scan(self, timestamp):
        pull = digitalio.Pull.UP if self._anodes else digitalio.Pull.DOWN
        n = len(self._cols)
        for r, row in enumerate(self._rows):
            row.switch_to_output(value=not self._anodes)
            for c, col in enumerate(self._cols):
                self._key(r * n + c, col.value != self._anodes, timestamp)
            row.value = self._anodes
            row.switch_to_input(pull=pull)


class ShiftRegisterKeys(_Scanner):
    """Keys behind parallel-in serial-out shift registers (74HC165, CD4021)."""

    def __init__(self, *, clock, data, latch, value_to_latch=True, key_count,
                 value_when_pressed, interval=0.020, max_events=64, debounce_threshold=1):
        self._clock = digitalio.DigitalInOut(clock)
        self._clock.switch_to_output(value=False)
        self._latch = digitalio.DigitalInOut(latch)
        self._latch.switch_to_output(value=True)
        datas = data if isinstance(data, (list, tuple)) else [data]
        self._data = []
        for pin in datas:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(pull=None)
            self._data.append(dio)
        counts = key_count if isinstance(key_count, (list, tuple)) else [key_count]
        if len(counts) != len(self._data):
            raise ValueError("key_count must be a sequence as long as data")
        self._counts = list(counts)
        self._value_to_latch = bool(value_to_latch)
        self._value = bool(value_when_pressed)
        self._start(sum(self._counts), interval, max_events, debounce_threshold)

    def _pins(self):
        return [self._clock, self._latch] + self._data

    def _scan(self, timestamp):
        self._latch.value = self._value_to_latch  # freeze the inputs
        for n in range(max(self._counts)):
            self._clock.value = False
            index = 0
            for i, dio in enumerate(self._data):
                if n >= self._counts[i]:
                    continue
                self._key(n + index, dio.value == self._value, timestamp)
                index += self._counts[i]
            self._clock.value = True  # shift the next bit out
        self._latch.value = not self._value_to_latch
