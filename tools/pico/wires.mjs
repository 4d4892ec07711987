// The Attila board around the emulated RP2040, at pin level.
//
// What the chip's pins see and drive, as the real board's parts do it:
//   - the WS2812B chain on the LED pin: its edges, timed by the emulated
//     clock, are decoded into bytes; bad timing is an error, not a guess;
//   - the reed switches: a 74HC165 chain (bit-banged or on hardware SPI),
//     a diode matrix, or one GPIO per switch;
//   - the UNDO and MENU buttons, and the buzzer (its PWM settings recorded);
//   - every input pin as the board's resistors leave it: a driven level
//     (a closed switch, a register's QH), else an external resistor from
//     the profile, else the pad's own pull-up/pull-down as the firmware set
//     it. rp2040js models no pulls: an undriven input reads 0 there, which
//     is also what a floating input reads here.
//
// Per-edge work is kept small: a listener compares two numbers and shifts
// a position; nothing is allocated on an edge.

import { GPIOPinState } from "rp2040js";

const { High, Low, InputPullUp, InputPullDown, InputBusKeeper } = GPIOPinState;

// WS2812B (datasheet: T0H 0.4 us, T1H 0.8 us, each +-150 ns; a bit's low
// time up to ~5 us is still read as part of the frame; the WS2812B-V5 (and
// the WS2813/SK6812 parts sold as WS2812B) latch only after a low of 280 us,
// older parts after 50 us). A low between the two is neither: some LEDs
// latch, others do not, so it is an error.
export const WS2812 = {
  t0hMin: 250, t0hMax: 550, t1hMin: 650, t1hMax: 950,
  lowMin: 200, lowMax: 5000, resetMin: 280000,
};

// 74HC165 (NXP 74HC_HCT165 data sheet, rev. 3, table 7: VCC = 2.0 V,
// -40..+85 degC, the slowest specified corner below the board's 3.3 V), ns:
// CP or PL to Q7 propagation delay (max), D7 to Q7 (max), CP and PL pulse
// widths (min), PL to CP recovery (min).
export const HC165 = { tpdClock: 205, tpdLoad: 205, tpdData: 150, twClock: 100, twLoad: 100, trec: 125 };

const FUNC_SPI = 1;
const FUNC_PWM = 4;

export class Wires {
  // chip: the RP2040; board: the hardware description from the host (see
  // tools/pico/board.py: Board.config()); report(kind, text): an event.
  constructor(chip, board, report, now, scanMark) {
    this.chip = chip;
    this.scanMark = scanMark; // () -> void: a sensor scan begins
    this.board = board;
    this.report = report;
    this.now = now; // () -> emulated ns (global, across reboots)
    const n = chip.gpio.length;
    this.drive = new Int8Array(n).fill(-1); // level driven by a part, -1: none
    this.ext = new Int8Array(n).fill(-1); // external resistor: 1 up, 0 down, -1 none
    this.keep = new Uint8Array(n); // bus keeper memory
    this.frames = [];
    this.pwm = [];
    this._led(board.led);
    this._sensors(board.sensors || null);
    this._buttons(board.buttons || null);
    if (board.buzzer !== undefined && board.buzzer !== null) this._buzzer(board.buzzer);
    for (const [pin, level] of Object.entries(board.resistors || {})) this.ext[+pin] = level;
    for (let p = 0; p < n; p++) this.settle(p);
  }

  // ---- levels -----------------------------------------------------------
  settle(p) {
    const pin = this.chip.gpio[p];
    let level = this.drive[p];
    if (level < 0) level = this.ext[p];
    if (level < 0) {
      const st = pin.value;
      if (st === High || st === InputPullUp) level = 1;
      else if (st === InputBusKeeper) level = this.keep[p];
      else level = 0; // Low, pull-down, or floating
    }
    this.keep[p] = level;
    if (pin.rawInputValue !== (level === 1)) pin.setInputValue(level === 1);
  }

  _watch(p) {
    this.chip.gpio[p].addListener(() => this.settle(p));
  }

  // ---- WS2812B ----------------------------------------------------------
  _led(cfg) {
    this.ledPin = cfg ? cfg.pin : -1;
    this.bits = new Uint8Array(8 * 3 * 1024);
    this.nbits = 0;
    this.tRise = 0;
    this.tFall = 0;
    this.tStart = 0;
    this.ledHigh = false;
    this.ledBad = "";
    if (!cfg) return;
    const pin = this.chip.gpio[cfg.pin];
    pin.addListener((state) => {
      const high = state === High;
      if (high === this.ledHigh) return;
      this.ledHigh = high;
      const t = this.now();
      if (high) {
        if (this.nbits) {
          const low = t - this.tFall;
          if (low >= WS2812.resetMin) this._latch();
          else if (low > WS2812.lowMax || low < WS2812.lowMin) {
            this._bad("a low of " + low + " ns after bit " + this.nbits);
          }
        }
        if (!this.nbits) this.tStart = t;
        this.tRise = t;
      } else {
        const h = t - this.tRise;
        let bit;
        if (h >= WS2812.t0hMin && h <= WS2812.t0hMax) bit = 0;
        else if (h >= WS2812.t1hMin && h <= WS2812.t1hMax) bit = 1;
        else {
          this._bad("a high of " + h + " ns at bit " + this.nbits);
          bit = h > 600 ? 1 : 0;
        }
        if (this.nbits < this.bits.length) this.bits[this.nbits] = bit;
        this.nbits++;
        this.tFall = t;
      }
    });
  }

  _bad(what) {
    if (!this.ledBad) this.ledBad = what;
  }

  _latch() {
    const n = this.nbits;
    const bytes = Buffer.alloc(n >> 3);
    for (let i = 0; i + 8 <= n; i += 8) {
      let v = 0;
      for (let j = 0; j < 8; j++) v = (v << 1) | this.bits[i + j];
      bytes[i >> 3] = v;
    }
    let bad = this.ledBad;
    if (!bad && n % 8) bad = n + " bits: not a whole number of bytes";
    const frame = { t0: this.tStart, t1: this.tFall, hex: bytes.toString("hex") };
    if (bad) {
      frame.error = "WS2812 timing on GP" + this.ledPin + ": " + bad;
      this.report("led", frame.error);
    }
    this.frames.push(frame);
    this.nbits = 0;
    this.ledBad = "";
  }

  // Latch a frame whose reset time has passed (called between runs).
  flushLeds() {
    if (this.nbits && !this.ledHigh && this.now() - this.tFall >= WS2812.resetMin) this._latch();
  }

  // ---- reed switches ----------------------------------------------------
  _sensors(cfg) {
    this.kind = cfg ? cfg.kind : "";
    if (!cfg) return;
    if (cfg.kind === "74hc165") this._shiftChain(cfg);
    else if (cfg.kind === "matrix") this._matrix(cfg);
    else if (cfg.kind === "gpio") {
      this.gpioPins = cfg.pins;
      this.closedLevel = cfg.active_low ? 0 : 1;
      // No pin marks a scan here: the first read of the GPIO inputs after
      // 2 ms without one starts a scan (the loop reads them every 10 ms).
      const sio = this.chip.sio;
      const read = sio.readUint32.bind(sio);
      let last = -1e12;
      sio.readUint32 = (offset) => {
        if (offset === 4) {
          const t = this.now();
          if (t - last > 2e6) this.scanMark();
          last = t;
        }
        return read(offset);
      };
      for (const p of cfg.pins) {
        if (cfg.external !== null && cfg.external !== undefined) this.ext[p] = cfg.external;
        this._watch(p);
      }
    }
  }

  // The host's view: which chain sensors are closed (an array of 0/1), and
  // for a 74HC165 chain the parallel inputs of each register (bytes, D7..D0).
  setSensors(closed, registers) {
    if (this.kind === "gpio") {
      const pins = this.gpioPins;
      for (let k = 0; k < pins.length; k++) {
        this.drive[pins[k]] = closed[k] ? this.closedLevel : -1;
        this.settle(pins[k]);
      }
    } else if (this.kind === "matrix") {
      this.closed = Uint8Array.from(closed);
      this._scanMatrix();
    } else if (this.kind === "74hc165") {
      this.inputs = Uint8Array.from(registers);
      if (!this.loadHigh) this._parallelLoad(HC165.tpdData);
    }
  }

  // 74HC165: while SH/LD is low the registers follow their inputs (QH = D7
  // of module 1's register); on a rising CLK with SH/LD high each register
  // shifts one place towards QH, the last one taking 0 from its SER (10 k to
  // GND). One position counter stands for the whole chain. QH changes its
  // propagation delay after the edge that moves it (until then a read gets
  // the old level), and pulses shorter than the datasheet's minimum, or a
  // CLK edge too soon after SH/LD, are reported ("hc165" events), as on a
  // real chip they may shift or load wrongly. Bit-banged, on SPI or by a PIO
  // state machine (tools/pico/pio.mjs runs it on the emulated clock): the
  // same edges on the same pins.
  _shiftChain(cfg) {
    if (cfg.unplugged) {
      // The cable to module 1 is out: nothing drives QH, which reads as its
      // pad leaves it (the firmware's pull; none: a steady 0, see above).
      this.kind = "unplugged";
      this.dataPin = cfg.data;
      this._watch(cfg.data);
      return;
    }
    this.inputs = new Uint8Array(cfg.registers.length).fill(0xff);
    this.latched = new Uint8Array(cfg.registers.length).fill(0xff);
    this.answering = cfg.registers.length; // registers cabled (see unplug())
    this.pos = 0;
    this.dataPin = cfg.data;
    // SH/LD as the pin is now: after a reset the RP2040's pad pulls it low
    // (the chain loads) until the firmware drives it.
    const st = this.chip.gpio[cfg.load].value;
    this.loadHigh = st === High || st === InputPullUp;
    this.tLoad = this.now(); // last SH/LD edge (ns)
    this.tClock = -1e18; // last CLK edge
    this.hcReported = new Set();
    // QH changes still under way: (time, level), in time order.
    this.qhTime = new Float64Array(8);
    this.qhLevel = new Int8Array(8);
    this.qhCount = 0;
    this.qhAlarm = this.chip.clock.createAlarm(() => this._qhDue());
    const load = this.chip.gpio[cfg.load];
    this.loadPin = cfg.load;
    load.addListener((state) => {
      const high = state === High || state === InputPullUp;
      if (high === this.loadHigh) return;
      const t = this.now();
      if (high && t - this.tLoad < HC165.twLoad) {
        this._hcBad("load", "SH/LD low for " + (t - this.tLoad) + " ns (at least " + HC165.twLoad + ")");
      }
      this.tLoad = t;
      this.loadHigh = high;
      if (!high) {
        this.scanMark();
        this._parallelLoad(HC165.tpdLoad); // falling: the registers take their inputs
      }
    });
    if (cfg.spi === null || cfg.spi === undefined) {
      const clock = this.chip.gpio[cfg.clock];
      let clockHigh = false;
      clock.addListener((state) => {
        const high = state === High;
        if (high === clockHigh) return;
        clockHigh = high;
        const t = this.now();
        if (this.loadHigh && t - this.tClock < HC165.twClock) {
          this._hcBad("clock", "CLK " + (high ? "low" : "high") + " for " + (t - this.tClock) +
            " ns (at least " + HC165.twClock + ")");
        }
        this.tClock = t;
        if (high && this.loadHigh) {
          if (t - this.tLoad < HC165.trec) {
            this._hcBad("recovery", "CLK rose " + (t - this.tLoad) + " ns after SH/LD (at least " +
              HC165.trec + ")");
          }
          this.pos++;
          this._qh(HC165.tpdClock);
        }
      });
    } else {
      this._spi(cfg);
    }
    this._qh(0);
  }

  _hcBad(kind, text) {
    if (this.hcReported.has(kind)) return; // once per kind and boot
    this.hcReported.add(kind);
    this.report("hc165", "74HC165 timing on GP" + this.loadPin + "/GP" + this.dataPin + ": " + text);
  }

  _parallelLoad(delay) {
    this.latched.set(this.inputs);
    this.pos = 0;
    this._qh(delay);
  }

  // A loose cable: the one into the register `answering` (its module's first;
  // -1: every cable in) is out, and with it every register after it. The
  // last register still cabled shifts in its SER's pull-down (0s) after its
  // own bits; with none cabled (0) nothing drives QH, which reads as its pad's
  // pull. Kept across reboots by the chip (pico.mjs).
  unplug(answering) {
    if (this.kind !== "74hc165") return;
    this.answering = answering < 0 ? this.latched.length : Math.min(answering, this.latched.length);
    if (!this.loadHigh) this._parallelLoad(HC165.tpdData);
    else this._qh(HC165.tpdData);
  }

  // The chain's bit at position `pos`: a cabled register's, else the SER's 0
  // (-1: QH undriven, no register cabled).
  _bitAt(pos) {
    if (!this.answering) return -1;
    const k = pos >> 3;
    return k < this.answering ? (this.latched[k] >> (7 - (pos & 7))) & 1 : 0;
  }

  // QH takes the level of the chain's present position `delay` ns from now.
  _qh(delay) {
    const level = this._bitAt(this.pos);
    if (!delay) {
      this.qhCount = 0;
      this._qhSet(level);
      return;
    }
    const t = this.now() + delay;
    let i = this.qhCount;
    if (i === this.qhTime.length) { // edges far faster than the chip: keep the latest
      this.qhTime.copyWithin(0, 1);
      this.qhLevel.copyWithin(0, 1);
      i--;
    }
    while (i > 0 && this.qhTime[i - 1] > t) {
      this.qhTime[i] = this.qhTime[i - 1];
      this.qhLevel[i] = this.qhLevel[i - 1];
      i--;
    }
    this.qhTime[i] = t;
    this.qhLevel[i] = level;
    this.qhCount++;
    if (i === 0) this.qhAlarm.schedule(delay);
  }

  _qhDue() {
    const t = this.now();
    let n = 0;
    while (n < this.qhCount && this.qhTime[n] <= t) this._qhSet(this.qhLevel[n++]);
    this.qhTime.copyWithin(0, n);
    this.qhLevel.copyWithin(0, n);
    this.qhCount -= n;
    if (this.qhCount) this.qhAlarm.schedule(this.qhTime[0] - t);
  }

  _qhSet(level) {
    if (this.drive[this.dataPin] === level) return;
    this.drive[this.dataPin] = level;
    this.settle(this.dataPin);
  }

  // Hardware SPI: every byte the controller clocks shifts the chain by 8.
  // Modes 0 and 2 sample before the register shifts (as the chip needs);
  // the byte takes 8 SPI clocks of emulated time, each at least the
  // 74HC165's pulse width and its CLK-to-QH delay.
  _spi(cfg) {
    const spi = this.chip.spi[cfg.spi];
    const alarm = this.chip.clock.createAlarm(() => spi.completeTransmit(this.spiByte));
    this.spiByte = 0;
    spi.onTransmit = () => {
      const gpio = this.chip.gpio;
      if (gpio[cfg.clock].functionSelect !== FUNC_SPI || gpio[cfg.data].functionSelect !== FUNC_SPI) {
        this.report("spi", "SPI" + cfg.spi + " transfer but GP" + cfg.clock + "/GP" + cfg.data +
          " are not routed to SPI (function " + gpio[cfg.clock].functionSelect + "/" +
          gpio[cfg.data].functionSelect + ")");
      }
      const mode = spi.spiMode;
      if (mode !== 0 && mode !== 2) {
        this.report("spi", "SPI mode " + mode + ": the 74HC165 shifts on the rising clock edge, " +
          "so the first bit (D7) is lost");
      }
      const hz = spi.clockFrequency || 1e6;
      const half = 0.5e9 / hz;
      if (half < HC165.twClock || 2 * half < HC165.tpdClock) {
        this._hcBad("clock", "SPI clock " + hz + " Hz: CLK high and low " + Math.round(half) +
          " ns (at least " + HC165.twClock + "), QH valid " + HC165.tpdClock + " ns after it rises");
      }
      if (this.loadHigh && this.now() + half - this.tLoad < HC165.trec) {
        this._hcBad("recovery", "CLK rose " + Math.round(this.now() + half - this.tLoad) +
          " ns after SH/LD (at least " + HC165.trec + ")");
      }
      let v = 0;
      for (let i = 0; i < 8; i++) {
        let bit = this.loadHigh ? this._bitAt(this.pos) : 0;
        if (bit < 0) { // QH undriven: MISO as its pad's pull leaves it
          this.settle(cfg.data);
          bit = this.keep[cfg.data];
        }
        v = (v << 1) | bit;
        if (this.loadHigh) this.pos++;
      }
      if (mode === 1 || mode === 3) v = (v << 1) & 0xff;
      this.spiByte = v;
      alarm.schedule(Math.round(8e9 / hz));
    };
  }

  // Diode matrix: a closed switch pulls its column low only while its row
  // is driven low (the diode blocks the rest).
  _matrix(cfg) {
    this.rows = cfg.rows;
    this.cols = cfg.cols;
    this.closed = new Uint8Array(cfg.rows.length * cfg.cols.length);
    const first = this.chip.gpio[cfg.rows[0]];
    let firstLow = false;
    first.addListener((state) => {
      if ((state === Low) !== firstLow) {
        firstLow = state === Low;
        if (firstLow) this.scanMark();
      }
    });
    for (const r of cfg.rows) this.chip.gpio[r].addListener(() => { this.settle(r); this._scanMatrix(); });
    for (const c of cfg.cols) this._watch(c);
  }

  _scanMatrix() {
    const { rows, cols, closed } = this;
    const gpio = this.chip.gpio;
    for (let c = 0; c < cols.length; c++) {
      let low = false;
      for (let r = 0; r < rows.length && !low; r++) {
        if (closed[r * cols.length + c] && gpio[rows[r]].value === Low) low = true;
      }
      this.drive[cols[c]] = low ? 0 : -1;
      this.settle(cols[c]);
    }
  }

  // ---- buttons ----------------------------------------------------------
  _buttons(cfg) {
    this.buttonPins = cfg ? cfg.pins : [];
    this.pressedLevel = cfg && !cfg.active_low ? 1 : 0;
    for (const p of this.buttonPins) if (p !== null) this._watch(p);
  }

  setButtons(mask) {
    this.buttonPins.forEach((p, b) => {
      if (p === null) return;
      this.drive[p] = mask >> b & 1 ? this.pressedLevel : -1;
      this.settle(p);
    });
  }

  // ---- buzzer -----------------------------------------------------------
  // Recorded from the PWM slice's registers whenever the firmware writes
  // them: frequency (Hz) and duty (0..1); 0 Hz when the slice is off or the
  // pin is not routed to it.
  _buzzer(pin) {
    const pwm = this.chip.pwm;
    const slice = (pin >> 1) & 7;
    const chan = pin & 1;
    const write = pwm.writeUint32.bind(pwm);
    let last = "";
    const sample = () => {
      const ch = pwm.channels[slice];
      const routed = this.chip.gpio[pin].functionSelect === FUNC_PWM;
      const on = routed && (ch.csr & 1 || ch.en);
      const top = ch.top + 1;
      const intDiv = (ch.div >> 4) & 0xff || 256;
      const div = intDiv + (ch.div & 0xf) / 16;
      const correct = ch.csr & 2 ? 2 : 1;
      const cc = chan ? ch.cc >>> 16 : ch.cc & 0xffff;
      const hz = on ? this.chip.clkSys / div / top / correct : 0;
      const duty = on ? Math.min(cc / top, 1) : 0;
      const key = hz.toFixed(3) + "/" + duty.toFixed(4);
      if (key === last) return;
      last = key;
      this.pwm.push({ t: this.now(), hz: Math.round(hz * 1000) / 1000, duty: Math.round(duty * 1e4) / 1e4 });
    };
    pwm.writeUint32 = (offset, value) => {
      write(offset, value);
      sample();
    };
    this.chip.gpio[pin].addListener(sample);
  }
}
