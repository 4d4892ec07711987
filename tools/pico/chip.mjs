// The emulated Raspberry Pi Pico: rp2040js running MicroPython's own RP2040
// build, its flash kept in a file, driven by a line protocol.
//
//   node tools/pico/chip.mjs --flash FLASH.bin --bootrom BOOTROM.bin
//                            [--board BOARD.json] [--pty-fd N]
//                            [--flash-times typical|max] [--flash-data 1]
//                            [--xip-cache 1]
//
// FLASH.bin is the chip's 2 MiB flash (MicroPython and its littlefs file
// system; tools/pico/flashimage.py makes one). Every erase and program the
// firmware does is written back to it at once, so a reboot, a power cut or
// a new run of this program starts on the same flash.
//
// PIO: the state machines run on the emulated clock (pio.mjs), stepped here
// between and inside the core's instructions, not from rp2040js's timer.
//
// Flash writes: rp2040js ignores the flash chip's commands, so the bootrom's
// flash_range_erase and flash_range_program start with a BKPT here, served
// on the host (erase fills with 0xff, program ANDs the bytes in) and timed
// as a W25Q16JV does it (typical figures: 45 ms a 4 KB sector, 150 ms a
// 64 KB block, 0.4 ms a 256-byte page; with --flash-times max the data
// sheet's maxima: 400 ms, 2 s, 3 ms), then the function returns.
//
// XIP cache misses (--xip-cache 1; off by default): every read of the
// flash is looked up in a model of the RP2040's 16 kB XIP cache (xip.mjs)
// and a miss stalls the core for the line's QSPI read, where rp2040js alone
// charges one cycle for any flash read (a lower bound).
//
// Strict where silicon is: any error rp2040js logs (an unaligned 32-bit
// access, which a Cortex-M0+ faults on; a PIO instruction it cannot do)
// becomes an event of kind "rp2040js", which fails the host's run.
//
// The watchdog: when machine.WDT expires (or machine.reset() triggers it)
// the run stops, reports a reset, and the chip boots again on the same
// flash with the watchdog's reason and scratch registers kept, as the
// silicon does. rp2040js on its own would fire the reset for ever.
//
// USB: the host side of the CDC serial port is ours: the device's OUT
// endpoint waits until the host has bytes (a real host NAKs), so an idle
// REPL costs the chip nothing.
//
// Protocol: one JSON object a line on stdin, one reply a line on stdout.
//   {"op":"run","ns":N[,"serial":true][,"cut":NS]}  run N ns of emulated time
//        (stop early when the chip sends serial output; with "idle", when
//        the core sleeps (WFI/WFE); with "cut", cut the power at that global
//        emulated time, inside a flash operation too; with "cutop":[K,F], F of
//        the way through the K-th flash operation from now)
//   {"op":"sensors","closed":[0,1,..],"registers":[..]}   reed switches
//   {"op":"buttons","mask":M}                            buttons held
//   {"op":"serial","hex":HEX}                            host -> USB serial
//   {"op":"deaf","on":B}  the host holds the serial port open and stops reading
//                         it (or reads again): the device's IN transfers wait
//   {"op":"awake","on":B}  record the core's awake spans (or stop)
//   {"op":"read"}   -> serial output, LED frames, PWM, flash ops, events,
//                      scans, awake spans
//   {"op":"power"}  cut the power now and switch it on again
//   {"op":"timer"}  the timer's alarms and the core's wait (a chip that never wakes)
//   {"op":"serve"}  run in real time, the serial port on --pty-fd
//   {"op":"quit"}
// Every reply carries "t" (global emulated ns: it keeps counting across
// reboots), "boot" (how many times the chip has started) and "cycles"
// (CPU cycles of this boot).

import fs from "node:fs";
import readline from "node:readline";
import { RP2040, USBCDC } from "rp2040js";
import { PioClock } from "./pio.mjs";
import { Wires } from "./wires.mjs";
import { SdCard } from "./sdcard.mjs";
import { XipCache } from "./xip.mjs";

const FLASH_SIZE = 2 * 1024 * 1024;
const XIP_BASE = 0x10000000;
const BK_ERASE = 0x31;
const BK_PROGRAM = 0x32;
const SECTOR = 4096;
const PAGE = 256;
// W25Q16JV times (ns), data sheet rev. H, table 9.7: tSE, tBE2 (64 KB), tPP.
const FLASH_TIMES = {
  typical: { sector: 45e6, block: 150e6, page: 0.4e6 },
  max: { sector: 400e6, block: 2000e6, page: 3e6 },
};
const WDT_MAGIC = 0x6ab73121; // pico-sdk: watchdog_enable() was called

function die(msg) {
  process.stderr.write("chip.mjs: " + msg + "\n");
  process.exit(2);
}

// ---- arguments --------------------------------------------------------------
const args = {};
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith("--") || argv[i + 1] === undefined) die("bad argument " + argv[i]);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  if (!args.flash || !args.bootrom) die("--flash and --bootrom are required");
}
const flashTimes = FLASH_TIMES[args["flash-times"] || "typical"];
if (!flashTimes) die("--flash-times must be typical or max, not " + args["flash-times"]);
const T_SECTOR_ERASE = flashTimes.sector;
const T_BLOCK_ERASE = flashTimes.block;
const T_PAGE_PROGRAM = flashTimes.page;
const flashData = args["flash-data"] === "1"; // each program op carries its bytes (hex)
const xipCache = args["xip-cache"] === "1"; // charge XIP cache misses (xip.mjs)
const flashFd = fs.openSync(args.flash, "r+");
const flash = new Uint8Array(FLASH_SIZE);
if (fs.readSync(flashFd, flash, 0, FLASH_SIZE, 0) !== FLASH_SIZE) die(args.flash + ": not 2 MiB");
const romBytes = fs.readFileSync(args.bootrom);
if (romBytes.length !== 16384) die(args.bootrom + ": not a 16 KB bootrom");
const board = args.board ? JSON.parse(fs.readFileSync(args.board, "utf8")) : {};
const ptyFd = args["pty-fd"] !== undefined ? parseInt(args["pty-fd"], 10) : -1;

// rp2040js warns on every read of the inter-core FIFO (MicroPython polls it).
const warn = console.warn;
console.warn = (...a) => {
  if (!/^Read from invalid SIO address: 5[048]$/.test(String(a[0]))) warn(...a);
};

const quiet = {
  debug() {}, info() {}, warn() {},
  error(component, message) {
    process.stderr.write("rp2040js " + component + ": " + message + "\n");
    if (chip) report("rp2040js", component + ": " + message);
  },
};

// The bootrom with BKPTs at the start of the two flash writers.
function patchedBootrom() {
  const rom = Buffer.from(romBytes);
  const table = rom.readUInt16LE(0x14);
  const patches = { RE: BK_ERASE, RP: BK_PROGRAM };
  let found = 0;
  for (let at = table; ; at += 4) {
    const code = rom.readUInt16LE(at);
    if (!code) break;
    const name = String.fromCharCode(code & 0xff, code >> 8);
    if (patches[name] !== undefined) {
      rom.writeUInt16LE(0xbe00 | patches[name], rom.readUInt16LE(at + 2) & ~1);
      found++;
    }
  }
  if (found !== 2) die("bootrom: flash functions not found in its table");
  return new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);
}
const bootrom = patchedBootrom();

// ---- state across boots -----------------------------------------------------
let chip = null;
let wires = null;
let sdcard = null; // the microSD card (sdcard.mjs) when the board has a slot
let keepCard = false; // the next start keeps the card's state (not after a power cut)
let xip = null; // the XIP cache model, with --xip-cache 1
let xipHits = 0; // over every boot
let xipMisses = 0;
let pio = null;
let cdc = null;
let boot = 0;
let base = 0; // global ns at the start of this boot
let stopRun = false;
let resetWhy = ""; // why the current run stopped for a reboot
let carry = null; // watchdog registers kept over a watchdog reboot
let serialOut = [];
let serialLen = 0;
let stopOnSerial = false;
let stopOnIdle = false;
let cutAt = -1;
let cutOp = null; // {left, fraction}: cut the power inside the flash operation `left` from now
let cutStop = false; // end the run at that cut (the chip has booted again)
let events = [];
let flashOps = [];
let sensorState = null;
let buttonMask = 0;
let unplugged = -1; // the 74HC165 chain: the first register no longer cabled (-1: none)
let serving = false;
let hostSpoke = false; // the host has written to the serial port (this boot)
let timerLow = 0;
let timerHigh = 0;
let scans = [];
// Watchdog feeds: [ns, woke ns, [[ns, timer us] of the timer reads since it
// woke or since the last feed], 1 if it woke since the last feed].
// CircuitPython's keypad scans in the background, so its loop steps are
// told by the loop's own watchdog feed, and the ticks it read by the timer
// reads of the same awake span.
let feeds = [];
let wakeReads = [];
let lastFeed = -1;
// The core's awake spans [woke, slept] (ns), while the host watches them:
// a loop step is the span around its scan, from the wake-up that ends the
// loop's sleep to its next WFI/WFE.
let awake = [];
let watchAwake = false;
let awakeSince = -1;

// A sensor scan began (74HC165 LOAD or a matrix row going low): when, and
// the ticks_ms() the firmware read last (its loop clock for this step).
function scanMark() {
  scans.push([now(), Math.floor((timerHigh * 4294967296 + timerLow) / 1000)]);
}

const now = () => base + chip.clock.nanos;

function report(kind, text) {
  events.push({ t: now(), boot, kind, text });
}

// ---- flash served on the host -----------------------------------------------
function persist(offset, length) {
  fs.writeSync(flashFd, flash, offset, length, offset);
}

// Apply the first `fraction` of an operation (a power cut inside it).
// The erase steps the bootrom takes: 64 KB blocks where aligned, else sectors.
function eraseSteps(addr, count, blockSize, blockCmd) {
  const steps = [];
  for (let a = addr; a < addr + count;) {
    const block = blockCmd && blockSize && a % blockSize === 0 && addr + count - a >= blockSize;
    const size = block ? blockSize : SECTOR;
    steps.push([a, size, block ? T_BLOCK_ERASE : T_SECTOR_ERASE]);
    a += size;
  }
  return steps;
}

function eraseTime(addr, count, blockSize, blockCmd) {
  let t = 0;
  for (const step of eraseSteps(addr, count, blockSize, blockCmd)) t += step[2];
  return t;
}

// Erase, or its first `fraction` (a power cut inside it: the sector being
// erased is left part erased).
function eraseRange(addr, count, blockSize, blockCmd, fraction) {
  let budget = fraction * eraseTime(addr, count, blockSize, blockCmd);
  for (const [a, size, dt] of eraseSteps(addr, count, blockSize, blockCmd)) {
    const n = budget >= dt ? size : Math.floor((size * budget) / dt);
    flash.fill(0xff, a, a + n);
    persist(a, size);
    budget -= dt;
    if (budget <= 0) break;
  }
}

// Program (AND the bytes in), or its first `fraction`.
function programRange(addr, data, fraction) {
  const n = Math.floor(data.length * fraction);
  for (let i = 0; i < n; i++) flash[addr + i] &= data[i];
  persist(addr, data.length);
}

function onBreak(code) {
  const core = chip.core;
  const r = core.registers;
  const start = now();
  let op;
  let dt;
  let fraction = 1;
  const estimate = () => {
    if (cutOp) {
      if (cutOp.left === 0) cutAt = start + Math.floor(dt * cutOp.fraction);
      if (cutOp.left-- === 0) cutOp = null;
    }
    if (cutAt >= 0 && cutAt >= start && cutAt < start + dt) fraction = (cutAt - start) / dt;
  };
  if (code === BK_ERASE) {
    const [addr, count, blockSize, blockCmd] = [r[0], r[1], r[2], r[3] & 0xff];
    if (addr + count > FLASH_SIZE || addr % SECTOR || count % SECTOR) {
      report("flash", "flash_range_erase(0x" + addr.toString(16) + ", " + count + ") not on 4 KB sectors");
    }
    dt = eraseTime(addr, count, blockSize, blockCmd);
    estimate();
    eraseRange(addr, count, blockSize, blockCmd, fraction);
    op = { t: start, op: "erase", addr, len: count, ns: dt };
  } else if (code === BK_PROGRAM) {
    const [addr, ptr, count] = [r[0], r[1], r[2]];
    const data = new Uint8Array(count);
    for (let i = 0; i < count; i++) data[i] = chip.readUint8(ptr + i);
    if (addr + count > FLASH_SIZE) report("flash", "flash_range_program beyond the flash");
    dt = Math.ceil(((addr % PAGE) + count) / PAGE) * T_PAGE_PROGRAM;
    estimate();
    programRange(addr, data, fraction);
    op = { t: start, op: "program", addr, len: count, ns: dt };
    if (flashData) op.data = Buffer.from(data).toString("hex");
  } else {
    report("bkpt", "BKPT " + code + " at 0x" + ((core.PC - 2) >>> 0).toString(16));
    stopRun = true;
    resetWhy = "lockup";
    return;
  }
  if (fraction < 1) op.cut = fraction;
  flashOps.push(op);
  // Keep the XIP view of the flash in step (the firmware reads it back).
  chip.flash.set(flash.subarray(op.addr, op.addr + op.len), op.addr);
  if (xip) xip.flush(); // as the SDK does after writing the flash
  core.PC = core.LR & ~1;
  if (fraction < 1) {
    chip.clock.tick(cutAt - start);
    stopRun = true;
    resetWhy = "power";
    return;
  }
  chip.clock.tick(dt);
}

// ---- USB serial, host side ----------------------------------------------------
const EP0_IN_BUFFER_CONTROL = 0x80; // USB DPRAM: endpoint n's IN buffer control at 0x80 + 8 n
const BUF_AVAILABLE = (1 << 10) | (1 << 26); // buffer 0 or 1 handed to the controller
class HostSerial {
  constructor(usb) {
    this.usb = usb;
    this.queue = [];
    this.wanted = 0;
    this.cdc = new USBCDC(usb);
    // MicroPython shows its prompt once the host has sent something: a
    // newline, unless the host has spoken already (its bytes come first).
    this.cdc.onDeviceConnected = () => {
      if (!hostSpoke) this.write(Buffer.from("\r\n"));
    };
    this.cdc.onSerialData = (data) => serialIn(data);
    // A deaf host (it holds the port open, DTR set, and reads nothing): the
    // device's IN transfers on the data endpoint are not taken (a real host
    // NAKs them) until it reads again; the device's FIFO fills up.
    this.deaf = false;
    this.held = [];
    const dpramUpdated = usb.DPRAMUpdated.bind(usb);
    this.dpramUpdated = dpramUpdated;
    usb.DPRAMUpdated = (offset, value) => {
      const inControl = EP0_IN_BUFFER_CONTROL + this.cdc.inEndpoint * 8;
      if (this.deaf && this.cdc.inEndpoint > 0 && offset === inControl && value & BUF_AVAILABLE) {
        this.held.push([offset, value]);
        return;
      }
      dpramUpdated(offset, value);
    };
    // Replace rp2040js's reader: answer the device's OUT request only when
    // the host has something to send.
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.wanted = size;
      this.pump();
    };
  }

  setDeaf(on) {
    this.deaf = on;
    if (on) return;
    const held = this.held;
    this.held = [];
    for (const [offset, value] of held) this.dpramUpdated(offset, value);
  }

  write(bytes) {
    for (const b of bytes) this.queue.push(b);
    this.pump();
  }

  pump() {
    if (!this.wanted || !this.queue.length) return;
    const n = Math.min(this.wanted, this.queue.length, 64);
    const packet = Uint8Array.from(this.queue.splice(0, n));
    this.wanted = 0;
    this.usb.endpointReadDone(this.cdc.outEndpoint, packet);
  }
}

function serialIn(data) {
  const buf = Buffer.from(data);
  serialOut.push(buf);
  serialLen += buf.length;
  if (serving && ptyFd >= 0) {
    try {
      fs.writeSync(ptyFd, buf);
    } catch (e) {
      // nobody reads the port: dropped, as a board's USB serial does
    }
  }
  if (stopOnSerial) stopRun = true;
}

// ---- boot -------------------------------------------------------------------
function start() {
  if (chip) base += chip.clock.nanos;
  chip = new RP2040();
  chip.logger = quiet;
  chip.loadBootrom(bootrom);
  chip.flash.set(flash);
  // The flash chip-select pad: rp2040js resets it to 0x36 (input off) and
  // never drives its input, where the silicon resets GPIO_QSPI_SS to 0x5a
  // and the flash's pull-up holds it high. CircuitPython reads BOOTSEL there
  // at boot and would wait for ever (false = BOOTSEL held).
  chip.qspi[1].padValue = 0x5a;
  chip.qspi[1].setInputValue(true);
  const wd = chip.peripherals[0x40058];
  if (carry) {
    wd.reason = carry.reason;
    wd.scratchData.set(carry.scratch);
  }
  carry = null;
  const writeWd = wd.writeUint32.bind(wd);
  wd.writeUint32 = (offset, value) => {
    if ((offset & 0xfff) === 0x04) {
      // A step that overran its loop starts the next one without a sleep: its
      // reads are those since this feed.
      feeds.push([now(), awakeSince, wakeReads, lastFeed < awakeSince ? 1 : 0]);
      wakeReads = [];
      lastFeed = now();
    }
    writeWd(offset, value);
  };
  wd.onWatchdogTrigger = () => {
    // Stop its alarm: rp2040js reschedules it at once, for ever (the lock-up).
    wd.alarm.enable = false;
    wd.timer.enable = false;
    carry = { reason: wd.reason, scratch: Uint32Array.from(wd.scratchData) };
    stopRun = true;
    // machine.WDT sets scratch 4 to the SDK's magic; machine.reset() clears it.
    resetWhy = wd.reason & 1 && wd.scratchData[4] === WDT_MAGIC ? "watchdog" : "reset";
  };
  chip.onBreak = onBreak;
  chip.core.PC = XIP_BASE;
  if (xip) {
    xipHits += xip.hits;
    xipMisses += xip.misses;
  }
  xip = xipCache ? new XipCache() : null; // a reset flushes the cache
  if (xip) xip.attach(chip.core);
  // The last time the firmware read the timer (time_us_64(): low, then
  // high word): what ticks_ms() returned before a scan began.
  const timer = chip.peripherals[0x40054];
  const readTimer = timer.readUint32.bind(timer);
  timer.readUint32 = (offset) => {
    const v = readTimer(offset);
    if (offset === 0x28 || offset === 0x0c) {
      timerLow = v;
      // The first reads, then one each 250 us: the clock values a step can have read.
      const n = wakeReads.length;
      if (n < 4 || (n < 64 && v - wakeReads[n - 1][1] >= 250)) wakeReads.push([now(), v]);
    }
    else if (offset === 0x24 || offset === 0x08) timerHigh = v;
    return v;
  };
  timerLow = timerHigh = 0;
  awakeSince = -1;
  pio = new PioClock(chip);
  cdc = new HostSerial(chip.usbCtrl);
  hostSpoke = false;
  wires = new Wires(chip, board, report, now, scanMark);
  if (board.sdcard) { // a microSD slot: the card keeps its power (and state) over a reset
    if (sdcard && keepCard) sdcard.attach(chip);
    else sdcard = new SdCard(chip, board.sdcard, report, now);
  }
  keepCard = true;
  if (sensorState) wires.setSensors(sensorState.closed, sensorState.registers);
  if (unplugged >= 0) wires.unplug(unplugged);
  wires.setButtons(buttonMask);
  boot++;
}

// ---- running ----------------------------------------------------------------
let nsPerCycle = 8;

// Run until global time `until` (ns) or until something stops the run.
function runTo(until) {
  while (now() < until) {
    const core = chip.core;
    const clock = chip.clock;
    const end = until - base;
    stopRun = false;
    const cut = cutAt >= 0 ? cutAt - base : Infinity;
    const limit = Math.min(end, cut);
    nsPerCycle = 1e9 / chip.clkSys;
    while (clock.nanosCounter < limit && !stopRun) {
      if (pio.live) pio.run(clock.nanosCounter);
      if (core.waiting && core.pendingInterrupts & core.enabledInterrupts) {
        // WFI with an interrupt already pending (raised while PRIMASK masked
        // it) returns at once on a Cortex-M0+; rp2040js wakes the core only
        // when an interrupt is raised during the wait, so it would sleep for
        // ever. CircuitPython's idle (mask, check, WFI) meets this.
        core.waiting = false;
      }
      if (core.waiting) {
        if (awakeSince >= 0) {
          if (watchAwake) awake.push([awakeSince, now()]);
          awakeSince = -1;
        }
        if (stopOnIdle) break;
        let next = clock.nextAlarm ? clock.nextAlarm.nanos : limit;
        if (pio.live && pio.due < next) next = pio.due;
        clock.tick(Math.max(0, Math.min(next, limit) - clock.nanosCounter));
      } else {
        if (awakeSince < 0) {
          awakeSince = now();
          wakeReads = [];
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
    if (resetWhy) {
      const why = resetWhy;
      resetWhy = "";
      if (why === "power") cutAt = -1;
      restart(why);
      if (why === "power" && cutStop) {
        cutStop = false;
        break;
      }
      continue;
    }
    if (cutAt >= 0 && now() >= cutAt) {
      cutAt = -1;
      restart("power");
      continue;
    }
    if (stopRun || (stopOnIdle && chip.core.waiting)) break; // serial output came, or asleep
  }
}

function restart(why) {
  wires.flushLeds();
  collect();
  report("reset", why);
  if (why === "power" || why === "lockup") carry = null;
  if (why === "power") keepCard = false;
  start();
}

let pending = { frames: [], pwm: [] };
function collect() {
  if (!wires) return;
  wires.flushLeds();
  for (const f of wires.frames) pending.frames.push({ ...f, boot });
  for (const p of wires.pwm) pending.pwm.push({ ...p, boot });
  wires.frames = [];
  wires.pwm = [];
}

function status(extra) {
  return { t: now(), boot, cycles: Math.round(chip.clock.nanos / nsPerCycle), ...extra };
}

// ---- the protocol -------------------------------------------------------------
function handle(msg) {
  switch (msg.op) {
    case "run": {
      stopOnSerial = !!msg.serial;
      stopOnIdle = !!msg.idle;
      if (msg.cut !== undefined && msg.cut !== null) cutAt = msg.cut;
      if (msg.cutop) {
        cutOp = { left: msg.cutop[0], fraction: msg.cutop[1] };
        cutStop = true;
      }
      runTo(now() + msg.ns);
      stopOnSerial = stopOnIdle = false;
      cutOp = null;
      cutStop = false;
      return status({ idle: chip.core.waiting });
    }
    case "sensors":
      sensorState = { closed: msg.closed, registers: msg.registers || [] };
      wires.setSensors(sensorState.closed, sensorState.registers);
      return status();
    case "unplug": // the cable into register msg.at of the 74HC165 chain out (-1: all in)
      unplugged = msg.at;
      wires.unplug(unplugged);
      return status();
    case "buttons":
      buttonMask = msg.mask;
      wires.setButtons(buttonMask);
      return status();
    case "deaf":
      cdc.setDeaf(!!msg.on);
      return status();
    case "serial":
      hostSpoke = true;
      cdc.write(Buffer.from(msg.hex, "hex"));
      return status();
    case "read": {
      collect();
      const out = Buffer.concat(serialOut).toString("hex");
      serialOut = [];
      serialLen = 0;
      const reply = status({ serial: out, frames: pending.frames, pwm: pending.pwm, flash: flashOps, events, scans, awake, feeds,
        sdReads: sdcard ? sdcard.reads : 0,
        xip: xip ? { hits: xipHits + xip.hits, misses: xipMisses + xip.misses } : null });
      scans = [];
      feeds = [];
      awake = [];
      pending = { frames: [], pwm: [] };
      flashOps = [];
      events = [];
      return reply;
    }
    case "awake":
      watchAwake = !!msg.on;
      return status();
    case "timer": {
      // The timer's alarms, for a firmware that sleeps and never wakes.
      const timer = chip.peripherals[0x40054];
      return status({
        us: chip.clock.nanos / 1000,
        alarms: timer.alarms.map((a) => ({ armed: a.armed, target: a.targetMicros, at: a.clockAlarm.scheduled ? a.clockAlarm.nanos / 1000 : null })),
        intRaw: timer.intRaw, intEnable: timer.intEnable, waiting: chip.core.waiting, primask: chip.core.PRIMASK,
      });
    }
    case "power":
      restart("power");
      return status();
    case "serve":
      serving = true;
      return status();
    case "quit":
      fs.closeSync(flashFd);
      process.stdout.write(JSON.stringify(status()) + "\n", () => process.exit(0));
      return null;
    default:
      return { error: "unknown op " + msg.op };
  }
}

// Real time: the chip never runs ahead of the wall clock; the pty is polled
// between slices.
const ptyBuf = Buffer.alloc(4096);
let serveStart = null;
function serveSlice() {
  if (serveStart === null) serveStart = { wall: process.hrtime.bigint(), t: now() };
  if (ptyFd >= 0) {
    try {
      const n = fs.readSync(ptyFd, ptyBuf, 0, ptyBuf.length, null);
      if (n > 0) {
        hostSpoke = true;
        cdc.write(ptyBuf.subarray(0, n));
      }
    } catch (e) {
      // EAGAIN: nothing typed; EIO: no one has the port open
    }
  }
  const wall = Number(process.hrtime.bigint() - serveStart.wall);
  const ahead = now() - serveStart.t - wall;
  if (ahead > 0) return Math.min(ahead / 1e6, 20);
  runTo(Math.min(now() + 2e6, serveStart.t + wall + 2e6));
  collect();
  pending = { frames: pending.frames.slice(-256), pwm: pending.pwm.slice(-256) };
  scans = scans.slice(-256);
  feeds = feeds.slice(-256);
  flashOps = flashOps.slice(-256);
  events = events.slice(-256);
  if (serialLen > 1 << 20) {
    serialOut = [];
    serialLen = 0;
  }
  return 0;
}

start();
const lines = [];
let wake = null;
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  lines.push(line);
  if (wake) wake();
});
rl.on("close", () => {
  lines.push('{"op":"quit"}');
  if (wake) wake();
});

for (;;) {
  if (lines.length) {
    const line = lines.shift();
    let reply;
    try {
      reply = handle(JSON.parse(line));
    } catch (e) {
      reply = { error: String(e && e.stack ? e.stack : e) };
    }
    if (reply === null) break;
    process.stdout.write(JSON.stringify(reply) + "\n");
    continue;
  }
  if (serving) {
    const sleepMs = serveSlice();
    await new Promise((r) => (sleepMs ? setTimeout(r, sleepMs) : setImmediate(r)));
    continue;
  }
  await new Promise((r) => (wake = r));
  wake = null;
}
