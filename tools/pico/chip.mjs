// The emulated Raspberry Pi Pico: rp2040js running MicroPython's own RP2040
// build, its flash kept in a file, driven by a line protocol. This file
// reads the arguments and speaks the protocol; the chip is pico.mjs.
//
//   node tools/pico/chip.mjs --flash FLASH.bin --bootrom BOOTROM.bin
//                            [--board BOARD.json] [--pty-fd N]
//                            [--flash-times typical|max] [--flash-data 1]
//                            [--xip-cache 1]
//
// FLASH.bin is the chip's 2 MiB flash (MicroPython and its littlefs file
// system; tools/pico/flashimage.py makes one). Every erase and program the
// firmware does is written back to it at once, so a reboot, a power cut or
// a new run of this program starts on the same flash (flash.mjs, where
// --flash-times picks the W25Q16JV's typical or maximum times).
//
// PIO: the state machines run on the emulated clock (pio.mjs), stepped
// between and inside the core's instructions, not from rp2040js's timer.
//
// XIP cache misses (--xip-cache 1; off by default): every read of the
// flash is looked up in a model of the RP2040's 16 kB XIP cache (xip.mjs)
// and a miss stalls the core for the line's QSPI read, where rp2040js alone
// charges one cycle for any flash read (a lower bound).
//
// USB: the host side of the CDC serial port is ours (usb.mjs): an idle
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
//   {"op":"unplug","at":K}  the 74HC165 chain's cable into register K out (-1: all in)
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
import { FLASH_SIZE, FLASH_TIMES, HostFlash, patchBootrom } from "./flash.mjs";
import { EmulatedPico } from "./pico.mjs";

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
const flashFd = fs.openSync(args.flash, "r+");
const flashBytes = new Uint8Array(FLASH_SIZE);
if (fs.readSync(flashFd, flashBytes, 0, FLASH_SIZE, 0) !== FLASH_SIZE) die(args.flash + ": not 2 MiB");
const romBytes = fs.readFileSync(args.bootrom);
if (romBytes.length !== 16384) die(args.bootrom + ": not a 16 KB bootrom");
const board = args.board ? JSON.parse(fs.readFileSync(args.board, "utf8")) : {};
const ptyFd = args["pty-fd"] !== undefined ? parseInt(args["pty-fd"], 10) : -1;

// rp2040js warns on every read of the inter-core FIFO (MicroPython polls it).
const warn = console.warn;
console.warn = (...a) => {
  if (!/^Read from invalid SIO address: 5[048]$/.test(String(a[0]))) warn(...a);
};

const bootrom = patchBootrom(romBytes);
if (!bootrom) die("bootrom: flash functions not found in its table");

const pico = new EmulatedPico({
  flash: new HostFlash(flashFd, flashBytes, flashTimes),
  bootrom,
  board,
  flashData: args["flash-data"] === "1", // each program op carries its bytes (hex)
  xipCache: args["xip-cache"] === "1", // charge XIP cache misses (xip.mjs)
});

// ---- the protocol -------------------------------------------------------------
let serving = false;

function handle(msg) {
  switch (msg.op) {
    case "run":
      return pico.run(msg.ns, msg);
    case "sensors":
      pico.setSensors(msg.closed, msg.registers || []);
      return pico.status();
    case "unplug":
      pico.unplug(msg.at);
      return pico.status();
    case "buttons":
      pico.setButtons(msg.mask);
      return pico.status();
    case "deaf":
      pico.cdc.setDeaf(!!msg.on);
      return pico.status();
    case "serial":
      pico.hostWrite(Buffer.from(msg.hex, "hex"));
      return pico.status();
    case "read":
      return pico.drain();
    case "awake":
      pico.watchAwake = !!msg.on;
      return pico.status();
    case "timer":
      return pico.timerState();
    case "power":
      pico.restart("power");
      return pico.status();
    case "serve":
      serving = true;
      pico.echoFd = ptyFd;
      return pico.status();
    case "quit":
      pico.flash.close();
      process.stdout.write(JSON.stringify(pico.status()) + "\n", () => process.exit(0));
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
  if (serveStart === null) serveStart = { wall: process.hrtime.bigint(), t: pico.now() };
  if (ptyFd >= 0) {
    try {
      const n = fs.readSync(ptyFd, ptyBuf, 0, ptyBuf.length, null);
      if (n > 0) pico.hostWrite(ptyBuf.subarray(0, n));
    } catch (e) {
      // EAGAIN: nothing typed; EIO: no one has the port open
    }
  }
  const wall = Number(process.hrtime.bigint() - serveStart.wall);
  const ahead = pico.now() - serveStart.t - wall;
  if (ahead > 0) return Math.min(ahead / 1e6, 20);
  pico.runTo(Math.min(pico.now() + 2e6, serveStart.t + wall + 2e6));
  pico.trim(256);
  return 0;
}

pico.start();
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
