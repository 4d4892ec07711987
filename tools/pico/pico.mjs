// The emulated Pico across its boots: an rp2040js RP2040 on the flash
// (flash.mjs), its board (wires.mjs, sdcard.mjs), its USB host (usb.mjs),
// PIO on the emulated clock (pio.mjs), and what it reported for the host.
//
// Time: `now()` is global emulated ns, counting on across reboots; each
// boot is a new RP2040 on the same flash. The host's inputs (sensors,
// buttons, a loose cable) and a microSD card's state outlive a reset; a
// power cut resets the card too.
//
// Strict where silicon is: any error rp2040js logs (an unaligned 32-bit
// access, which a Cortex-M0+ faults on; a PIO instruction it cannot do)
// becomes an event of kind "rp2040js", which fails the host's run.
//
// The watchdog: when machine.WDT expires (or machine.reset() triggers it)
// the run stops, reports a reset, and the chip boots again on the same
// flash with the watchdog's reason and scratch registers kept, as the
// silicon does. rp2040js on its own would fire the reset for ever.

import fs from "node:fs";
import { RP2040 } from "rp2040js";
import { BK_ERASE, BK_PROGRAM, FLASH_SIZE, SECTOR } from "./flash.mjs";
import { PioClock } from "./pio.mjs";
import { SdCard } from "./sdcard.mjs";
import { HostSerial } from "./usb.mjs";
import { Wires } from "./wires.mjs";
import { XipCache } from "./xip.mjs";

const XIP_BASE = 0x10000000;
const WDT_MAGIC = 0x6ab73121; // pico-sdk: watchdog_enable() was called
const WATCHDOG = 0x40058;
const TIMER = 0x40054;

export class EmulatedPico {
  // flash: a HostFlash; bootrom: patchBootrom()'s words; board: the
  // hardware description (tools/pico/board.py: Board.config()); flashData:
  // each program op carries its bytes (hex); xipCache: charge XIP cache
  // misses (xip.mjs).
  constructor({ flash, bootrom, board, flashData, xipCache }) {
    this.flash = flash;
    this.bootrom = bootrom;
    this.board = board;
    this.flashData = flashData;
    this.xipCache = xipCache;
    this.chip = null;
    this.wires = null;
    this.sdcard = null; // the microSD card (sdcard.mjs) when the board has a slot
    this.keepCard = false; // the next start keeps the card's state (not after a power cut)
    this.xip = null; // the XIP cache model, with xipCache
    this.xipHits = 0; // over every boot
    this.xipMisses = 0;
    this.pio = null;
    this.cdc = null;
    this.boot = 0;
    this.base = 0; // global ns at the start of this boot
    this.nsPerCycle = 8;
    this.stopRun = false;
    this.resetWhy = ""; // why the current run stopped for a reboot
    this.carry = null; // watchdog registers kept over a watchdog reboot
    this.hostSpoke = false; // the host has written to the serial port (this boot)
    this.echoFd = -1; // the chip's serial output is also written here (serving)
    // Run controls, for one run (run()).
    this.stopOnSerial = false;
    this.stopOnIdle = false;
    this.cutAt = -1;
    this.cutOp = null; // {left, fraction}: cut the power inside the flash operation `left` from now
    this.cutStop = false; // end the run at that cut (the chip has booted again)
    // The host's inputs (setSensors, unplug, setButtons), applied again at every boot.
    this.sensorState = null;
    this.buttonMask = 0;
    this.unplugged = -1; // the 74HC165 chain: the first register no longer cabled (-1: none)
    // What the host reads (drain()).
    this.serialOut = [];
    this.serialLen = 0;
    this.events = [];
    this.flashOps = [];
    this.pending = { frames: [], pwm: [] };
    this.scans = [];
    this.timerLow = 0;
    this.timerHigh = 0;
    // Watchdog feeds: [ns, woke ns, [[ns, timer us] of the timer reads since it
    // woke or since the last feed], 1 if it woke since the last feed].
    // CircuitPython's keypad scans in the background, so its loop steps are
    // told by the loop's own watchdog feed, and the ticks it read by the timer
    // reads of the same awake span.
    this.feeds = [];
    this.wakeReads = [];
    this.lastFeed = -1;
    // The core's awake spans [woke, slept] (ns), while the host watches them:
    // a loop step is the span around its scan, from the wake-up that ends the
    // loop's sleep to its next WFI/WFE.
    this.awake = [];
    this.watchAwake = false;
    this.awakeSince = -1;
    // Passed to the parts, which call them back.
    this.now = () => this.base + this.chip.clock.nanos;
    this.report = (kind, text) => {
      this.events.push({ t: this.now(), boot: this.boot, kind, text });
    };
    // A sensor scan began (74HC165 LOAD or a matrix row going low): when, and
    // the ticks_ms() the firmware read last (its loop clock for this step).
    this.scanMark = () => {
      this.scans.push([this.now(), Math.floor((this.timerHigh * 4294967296 + this.timerLow) / 1000)]);
    };
    this.logger = {
      debug() {}, info() {}, warn() {},
      error: (component, message) => {
        process.stderr.write("rp2040js " + component + ": " + message + "\n");
        if (this.chip) this.report("rp2040js", component + ": " + message);
      },
    };
  }

  // ---- boot -----------------------------------------------------------------
  start() {
    if (this.chip) this.base += this.chip.clock.nanos;
    const chip = new RP2040();
    this.chip = chip;
    chip.logger = this.logger;
    chip.loadBootrom(this.bootrom);
    chip.flash.set(this.flash.bytes);
    // The flash chip-select pad: rp2040js resets it to 0x36 (input off) and
    // never drives its input, where the silicon resets GPIO_QSPI_SS to 0x5a
    // and the flash's pull-up holds it high. CircuitPython reads BOOTSEL there
    // at boot and would wait for ever (false = BOOTSEL held).
    chip.qspi[1].padValue = 0x5a;
    chip.qspi[1].setInputValue(true);
    this.wireWatchdog(chip.peripherals[WATCHDOG]);
    chip.onBreak = (code) => this.onBreak(code);
    chip.core.PC = XIP_BASE;
    if (this.xip) {
      this.xipHits += this.xip.hits;
      this.xipMisses += this.xip.misses;
    }
    this.xip = this.xipCache ? new XipCache() : null; // a reset flushes the cache
    if (this.xip) this.xip.attach(chip.core);
    this.wireTimer(chip.peripherals[TIMER]);
    this.timerLow = this.timerHigh = 0;
    this.awakeSince = -1;
    this.pio = new PioClock(chip);
    this.cdc = new HostSerial(chip.usbCtrl, () => this.hostSpoke, (data) => this.received(data));
    this.hostSpoke = false;
    const board = this.board;
    this.wires = new Wires(chip, board, this.report, this.now, this.scanMark);
    if (board.sdcard) { // a microSD slot: the card keeps its power (and state) over a reset
      if (this.sdcard && this.keepCard) this.sdcard.attach(chip);
      else this.sdcard = new SdCard(chip, board.sdcard, this.report, this.now);
    }
    this.keepCard = true;
    if (this.sensorState) this.wires.setSensors(this.sensorState.closed, this.sensorState.registers);
    if (this.unplugged >= 0) this.wires.unplug(this.unplugged);
    this.wires.setButtons(this.buttonMask);
    this.boot++;
  }

  wireWatchdog(wd) {
    if (this.carry) {
      wd.reason = this.carry.reason;
      wd.scratchData.set(this.carry.scratch);
    }
    this.carry = null;
    const writeWd = wd.writeUint32.bind(wd);
    wd.writeUint32 = (offset, value) => {
      if ((offset & 0xfff) === 0x04 && wd.enable) {
        // A feed is a load while the watchdog runs: the load that arms it (the
        // SDK writes it before setting ENABLE) is no loop step. A step that
        // overran its loop starts the next one without a sleep: its reads are
        // those since this feed.
        this.feeds.push([this.now(), this.awakeSince, this.wakeReads, this.lastFeed < this.awakeSince ? 1 : 0]);
        this.wakeReads = [];
        this.lastFeed = this.now();
      }
      writeWd(offset, value);
    };
    wd.onWatchdogTrigger = () => {
      // Stop its alarm: rp2040js reschedules it at once, for ever (the lock-up).
      wd.alarm.enable = false;
      wd.timer.enable = false;
      this.carry = { reason: wd.reason, scratch: Uint32Array.from(wd.scratchData) };
      this.stopRun = true;
      // machine.WDT sets scratch 4 to the SDK's magic; machine.reset() clears it.
      this.resetWhy = wd.reason & 1 && wd.scratchData[4] === WDT_MAGIC ? "watchdog" : "reset";
    };
  }

  // The last time the firmware read the timer (time_us_64(): low, then
  // high word): what ticks_ms() returned before a scan began.
  wireTimer(timer) {
    const readTimer = timer.readUint32.bind(timer);
    timer.readUint32 = (offset) => {
      const v = readTimer(offset);
      if (offset === 0x28 || offset === 0x0c) {
        this.timerLow = v;
        // The first reads, then one each 250 us: the clock values a step can have read.
        const reads = this.wakeReads;
        const n = reads.length;
        if (n < 4 || (n < 64 && v - reads[n - 1][1] >= 250)) reads.push([this.now(), v]);
      }
      else if (offset === 0x24 || offset === 0x08) this.timerHigh = v;
      return v;
    };
  }

  // ---- flash writes: the bootrom's BKPTs ------------------------------------
  onBreak(code) {
    const chip = this.chip;
    const core = chip.core;
    const r = core.registers;
    const flash = this.flash;
    const start = this.now();
    let op;
    let dt;
    let fraction = 1;
    const estimate = () => {
      if (this.cutOp) {
        if (this.cutOp.left === 0) this.cutAt = start + Math.floor(dt * this.cutOp.fraction);
        if (this.cutOp.left-- === 0) this.cutOp = null;
      }
      if (this.cutAt >= 0 && this.cutAt >= start && this.cutAt < start + dt) fraction = (this.cutAt - start) / dt;
    };
    if (code === BK_ERASE) {
      const [addr, count, blockSize, blockCmd] = [r[0], r[1], r[2], r[3] & 0xff];
      if (addr + count > FLASH_SIZE || addr % SECTOR || count % SECTOR) {
        this.report("flash", "flash_range_erase(0x" + addr.toString(16) + ", " + count + ") not on 4 KB sectors");
      }
      dt = flash.eraseTime(addr, count, blockSize, blockCmd);
      estimate();
      flash.erase(addr, count, blockSize, blockCmd, fraction);
      op = { t: start, op: "erase", addr, len: count, ns: dt };
    } else if (code === BK_PROGRAM) {
      const [addr, ptr, count] = [r[0], r[1], r[2]];
      const data = new Uint8Array(count);
      for (let i = 0; i < count; i++) data[i] = chip.readUint8(ptr + i);
      if (addr + count > FLASH_SIZE) this.report("flash", "flash_range_program beyond the flash");
      dt = flash.programTime(addr, count);
      estimate();
      flash.program(addr, data, fraction);
      op = { t: start, op: "program", addr, len: count, ns: dt };
      if (this.flashData) op.data = Buffer.from(data).toString("hex");
    } else {
      this.report("bkpt", "BKPT " + code + " at 0x" + ((core.PC - 2) >>> 0).toString(16));
      this.stopRun = true;
      this.resetWhy = "lockup";
      return;
    }
    if (fraction < 1) op.cut = fraction;
    this.flashOps.push(op);
    // Keep the XIP view of the flash in step (the firmware reads it back).
    chip.flash.set(flash.bytes.subarray(op.addr, op.addr + op.len), op.addr);
    if (this.xip) this.xip.flush(); // as the SDK does after writing the flash
    core.PC = core.LR & ~1;
    if (fraction < 1) {
      chip.clock.tick(this.cutAt - start);
      this.stopRun = true;
      this.resetWhy = "power";
      return;
    }
    chip.clock.tick(dt);
  }

  // ---- USB serial -------------------------------------------------------------
  received(data) {
    const buf = Buffer.from(data);
    this.serialOut.push(buf);
    this.serialLen += buf.length;
    if (this.echoFd >= 0) {
      try {
        fs.writeSync(this.echoFd, buf);
      } catch (e) {
        // nobody reads the port: dropped, as a board's USB serial does
      }
    }
    if (this.stopOnSerial) this.stopRun = true;
  }

  // Bytes from the host to the chip's serial port.
  hostWrite(bytes) {
    this.hostSpoke = true;
    this.cdc.write(bytes);
  }

  // ---- the host's hands ---------------------------------------------------------
  // Reed switches: closed[k] for chain sensor k; registers: a 74HC165 chain's inputs.
  setSensors(closed, registers) {
    this.sensorState = { closed, registers };
    this.wires.setSensors(closed, registers);
  }

  // The 74HC165 chain's cable into register `at` out (-1: all in).
  unplug(at) {
    this.unplugged = at;
    this.wires.unplug(at);
  }

  setButtons(mask) {
    this.buttonMask = mask;
    this.wires.setButtons(mask);
  }

  // ---- running ------------------------------------------------------------------
  // Run `ns` of emulated time; serial: stop when the chip sends serial
  // output; idle: when the core sleeps; cut: cut the power at that global
  // time; cutop [K, F]: F of the way through the K-th flash operation from
  // now, and end the run there.
  run(ns, { serial, idle, cut, cutop }) {
    this.stopOnSerial = !!serial;
    this.stopOnIdle = !!idle;
    if (cut !== undefined && cut !== null) this.cutAt = cut;
    if (cutop) {
      this.cutOp = { left: cutop[0], fraction: cutop[1] };
      this.cutStop = true;
    }
    this.runTo(this.now() + ns);
    this.stopOnSerial = this.stopOnIdle = false;
    this.cutOp = null;
    this.cutStop = false;
    return this.status({ idle: this.chip.core.waiting });
  }

  // Run until global time `until` (ns) or until something stops the run.
  runTo(until) {
    while (this.now() < until) {
      const chip = this.chip;
      const core = chip.core;
      const clock = chip.clock;
      const pio = this.pio;
      const xip = this.xip;
      const stopOnIdle = this.stopOnIdle;
      const end = until - this.base;
      this.stopRun = false;
      const cut = this.cutAt >= 0 ? this.cutAt - this.base : Infinity;
      const limit = Math.min(end, cut);
      const nsPerCycle = 1e9 / chip.clkSys;
      this.nsPerCycle = nsPerCycle;
      while (clock.nanosCounter < limit && !this.stopRun) {
        if (pio.live) pio.run(clock.nanosCounter);
        if (core.waiting && core.pendingInterrupts & core.enabledInterrupts) {
          // WFI with an interrupt already pending (raised while PRIMASK masked
          // it) returns at once on a Cortex-M0+; rp2040js wakes the core only
          // when an interrupt is raised during the wait, so it would sleep for
          // ever. CircuitPython's idle (mask, check, WFI) meets this.
          core.waiting = false;
        }
        if (core.waiting) {
          if (this.awakeSince >= 0) {
            if (this.watchAwake) this.awake.push([this.awakeSince, this.now()]);
            this.awakeSince = -1;
          }
          if (stopOnIdle) break;
          let next = clock.nextAlarm ? clock.nextAlarm.nanos : limit;
          if (pio.live && pio.due < next) next = pio.due;
          clock.tick(Math.max(0, Math.min(next, limit) - clock.nanosCounter));
        } else {
          if (this.awakeSince < 0) {
            this.awakeSince = this.now();
            this.wakeReads = [];
          }
          let cycles = core.executeInstruction(); // may move the clock (a flash write)
          if (xip !== null) cycles += xip.take(); // its flash reads' cache misses
          const end = clock.nanosCounter + cycles * nsPerCycle;
          // PIO instructions due during this one run at their own time (exact edges).
          while (pio.live && pio.due <= end) {
            clock.tick(Math.max(0, pio.due - clock.nanosCounter));
            pio.run(clock.nanosCounter);
          }
          clock.tick(end - clock.nanosCounter);
        }
      }
      if (this.resetWhy) {
        const why = this.resetWhy;
        this.resetWhy = "";
        if (why === "power") this.cutAt = -1;
        this.restart(why);
        if (why === "power" && this.cutStop) {
          this.cutStop = false;
          break;
        }
        continue;
      }
      if (this.cutAt >= 0 && this.now() >= this.cutAt) {
        this.cutAt = -1;
        this.restart("power");
        continue;
      }
      if (this.stopRun || (stopOnIdle && chip.core.waiting)) break; // serial output came, or asleep
    }
  }

  // Boot again on the same flash: "power" (a cut), "lockup", "watchdog", "reset".
  restart(why) {
    this.wires.flushLeds();
    this.collect();
    this.report("reset", why);
    if (why === "power" || why === "lockup") this.carry = null;
    if (why === "power") this.keepCard = false;
    this.start();
  }

  // Take the LED frames and PWM settings the wires decoded, marked with this boot.
  collect() {
    const wires = this.wires;
    if (!wires) return;
    wires.flushLeds();
    for (const f of wires.frames) this.pending.frames.push({ ...f, boot: this.boot });
    for (const p of wires.pwm) this.pending.pwm.push({ ...p, boot: this.boot });
    wires.frames = [];
    wires.pwm = [];
  }

  status(extra) {
    return { t: this.now(), boot: this.boot, cycles: Math.round(this.chip.clock.nanos / this.nsPerCycle), ...extra };
  }

  // Everything recorded since the last drain, as the "read" reply.
  drain() {
    this.collect();
    const out = Buffer.concat(this.serialOut).toString("hex");
    this.serialOut = [];
    this.serialLen = 0;
    const xip = this.xip;
    const reply = this.status({ serial: out, frames: this.pending.frames, pwm: this.pending.pwm,
      flash: this.flashOps, events: this.events, scans: this.scans, awake: this.awake, feeds: this.feeds,
      sdReads: this.sdcard ? this.sdcard.reads : 0,
      xip: xip ? { hits: this.xipHits + xip.hits, misses: this.xipMisses + xip.misses } : null });
    this.scans = [];
    this.feeds = [];
    this.awake = [];
    this.pending = { frames: [], pwm: [] };
    this.flashOps = [];
    this.events = [];
    return reply;
  }

  // Keep the last `n` of each record, and drop a large unread serial
  // output, for a run that nobody drains (serving in real time).
  trim(n) {
    this.collect();
    this.pending = { frames: this.pending.frames.slice(-n), pwm: this.pending.pwm.slice(-n) };
    this.scans = this.scans.slice(-n);
    this.feeds = this.feeds.slice(-n);
    this.flashOps = this.flashOps.slice(-n);
    this.events = this.events.slice(-n);
    if (this.serialLen > 1 << 20) {
      this.serialOut = [];
      this.serialLen = 0;
    }
  }

  // The timer's alarms and the core's wait, for a firmware that sleeps and never wakes.
  timerState() {
    const chip = this.chip;
    const timer = chip.peripherals[TIMER];
    return this.status({
      us: chip.clock.nanos / 1000,
      alarms: timer.alarms.map((a) => ({ armed: a.armed, target: a.targetMicros, at: a.clockAlarm.scheduled ? a.clockAlarm.nanos / 1000 : null })),
      intRaw: timer.intRaw, intEnable: timer.intEnable, waiting: chip.core.waiting, primask: chip.core.PRIMASK,
    });
  }
}
