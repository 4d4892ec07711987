// The emulated board: MicroPython (the WebAssembly port) behind a serial line.
//
//   node tools/emulator/device.mjs --root DIR [--hw DIR] [--intr-fd N]
//                                  [--heapsize BYTES]
//
// stdin is the serial line from the host (mpremote), stdout the serial line
// to the host; tools/emulator/bridge.py puts both behind a pseudo-terminal.
// What a Pico running MicroPython does, this does:
//   - the friendly REPL and the raw REPL (Ctrl-A / Ctrl-B / Ctrl-C / Ctrl-D);
//     the raw-paste probe (Ctrl-E A Ctrl-A) is answered "R\x00" (not
//     supported: the port's raw-paste reader blocks), so mpremote falls back
//     to the plain raw REPL;
//   - a file system that survives resets: it is DIR on the host, copied in
//     at every boot and written back after every chunk of input;
//   - soft reset (Ctrl-D at the REPL, mpremote soft-reset) and hard reset
//     (machine.reset(), mpremote reset): a FRESH interpreter on the same
//     files; boot.py and main.py run unless the reset came from the raw REPL;
//   - machine.WDT is a watchdog that outlives soft resets and hard-resets the
//     board when not fed (stdin is non-blocking so it can bite at the REPL);
//   - Ctrl-C interrupts a running main.py (KeyboardInterrupt) through the
//     interrupt pipe (fd --intr-fd, non-blocking, a copy of every Ctrl-C the
//     host sent) polled by the device-side time.sleep*/ticks* and pins;
//   - OSError numbers are MicroPython's (the port's are WASI ones);
//   - machine / neopixel / rp2 are fakes (tools/emulator/device/*.py) whose
//     pins are driven from the host through files in --hw DIR (see
//     tools/emulator/device/_emu_hw.py).
// Diagnostics of the emulator itself go to stderr.

import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const HERE = path.dirname(url.fileURLToPath(import.meta.url));
const MP_MODULE = path.join(
  HERE, "..", "wasm", "node_modules", "@micropython", "micropython-webassembly-pyscript",
  "micropython.mjs",
);
const FAKES = path.join(HERE, "device");
const EMU_DIR = "/tmp/emu"; // fakes live here, outside the user's files
const RESERVED = new Set(["tmp", "home", "dev", "proc"]); // the port's own dirs
const PYEXEC_FORCED_EXIT = 0x100;

function die(msg) {
  process.stderr.write(`device.mjs: ${msg}\n`);
  process.exit(2);
}

// ---- arguments -------------------------------------------------------------
let root = null;
let hw = null;
let intrFd = -1;
let heapsize = 256 * 1024;
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const opt = argv[i];
    const val = argv[i + 1];
    if (val === undefined) die(`${opt} needs a value`);
    if (opt === "--root") root = path.resolve(val);
    else if (opt === "--hw") hw = path.resolve(val);
    else if (opt === "--intr-fd") intrFd = parseInt(val, 10);
    else if (opt === "--heapsize") heapsize = parseInt(val, 10);
    else die(`unknown option ${opt}`);
  }
  if (!root) die("--root DIR is required");
  fs.mkdirSync(root, { recursive: true });
  if (hw) fs.mkdirSync(hw, { recursive: true });
}

const { loadMicroPython } = await import(MP_MODULE);

// ---- serial output ----------------------------------------------------------
// MicroPython's stdout is "cooked" on a board: "\n" goes out as "\r\n".
let outBuf = Buffer.alloc(4096);
let outLen = 0;
let lastOut = 0;

function putByte(c) {
  if (c === 10 && lastOut !== 13) putRaw(13);
  putRaw(c);
}

function putRaw(c) {
  if (outLen === outBuf.length) flushOut();
  outBuf[outLen++] = c;
  lastOut = c;
}

function putStr(s) {
  for (const c of Buffer.from(s, "latin1")) putRaw(c);
}

function flushOut() {
  let off = 0;
  while (off < outLen) {
    try {
      off += fs.writeSync(1, outBuf, off, outLen - off);
    } catch (e) {
      if (e.code === "EAGAIN") {
        sleepMs(1);
        continue;
      }
      if (e.code === "EPIPE") process.exit(0);
      throw e;
    }
  }
  outLen = 0;
}

// ---- time and interrupts ---------------------------------------------------
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepMs(ms) {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

// Ctrl-C bookkeeping: every Ctrl-C arrives twice, first on the interrupt pipe,
// then in the serial input. One is "pending" when the pipe has seen more than
// both the REPL (stdin) and the interrupts already delivered.
let intrSeen = 0; // Ctrl-C counted on the interrupt pipe
let stdinSeen = 0; // Ctrl-C counted in the serial input
let delivered = 0; // Ctrl-C delivered as KeyboardInterrupt
const intrBuf = Buffer.alloc(64);

function readInterrupts() {
  if (intrFd < 0) return;
  for (;;) {
    let n;
    try {
      n = fs.readSync(intrFd, intrBuf, 0, intrBuf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN" || e.code === "EWOULDBLOCK") return;
      intrFd = -1;
      return;
    }
    if (n === 0) {
      // the host closed the interrupt pipe: the bridge is stopping (power off)
      saveFiles();
      process.exit(0);
    }
    if (n < 0) return;
    for (let i = 0; i < n; i++) if (intrBuf[i] === 3) intrSeen++;
  }
}

function interruptPending() {
  readInterrupts();
  if (intrSeen > Math.max(stdinSeen, delivered)) {
    delivered = intrSeen;
    return true;
  }
  return false;
}

// ---- the file system: host directory <-> the port's in-memory FS ------------
let mp = null;
let snapshot = new Map(); // device path -> Buffer (files) or null (dirs)

function hostPath(p) {
  return path.join(root, ...p.split("/").filter(Boolean));
}

function loadFiles() {
  snapshot = new Map();
  const walk = (hostDir, devDir) => {
    for (const name of fs.readdirSync(hostDir).sort()) {
      if (devDir === "/" && RESERVED.has(name)) continue;
      const h = path.join(hostDir, name);
      const d = devDir === "/" ? "/" + name : devDir + "/" + name;
      const st = fs.statSync(h);
      if (st.isDirectory()) {
        mp.FS.mkdir(d);
        snapshot.set(d, null);
        walk(h, d);
      } else if (st.isFile()) {
        const data = fs.readFileSync(h);
        mp.FS.writeFile(d, data);
        snapshot.set(d, data);
      }
    }
  };
  walk(root, "/");
}

function saveFiles() {
  if (!mp) return;
  const now = new Map();
  const walk = (devDir) => {
    let names;
    try {
      names = mp.FS.readdir(devDir);
    } catch (e) {
      return;
    }
    for (const name of names.sort()) {
      if (name === "." || name === "..") continue;
      if (devDir === "/" && RESERVED.has(name)) continue;
      const d = devDir === "/" ? "/" + name : devDir + "/" + name;
      const st = mp.FS.stat(d);
      if (mp.FS.isDir(st.mode)) {
        now.set(d, null);
        walk(d);
      } else if (mp.FS.isFile(st.mode)) {
        now.set(d, Buffer.from(mp.FS.readFile(d)));
      }
    }
  };
  walk("/");
  // removals first (deepest first), then additions and changes
  const gone = [...snapshot.keys()].filter((d) => !now.has(d)).sort().reverse();
  for (const d of gone) {
    fs.rmSync(hostPath(d), { recursive: true, force: true });
  }
  for (const [d, data] of now) {
    const old = snapshot.get(d);
    if (data === null) {
      if (old !== null) {
        if (old !== undefined) fs.rmSync(hostPath(d), { force: true });
        fs.mkdirSync(hostPath(d), { recursive: true });
      }
    } else if (old === undefined || old === null || !old.equals(data)) {
      if (old === null) fs.rmSync(hostPath(d), { recursive: true, force: true });
      fs.mkdirSync(path.dirname(hostPath(d)), { recursive: true });
      const tmp = hostPath(d) + ".~emu";
      fs.writeFileSync(tmp, data);
      fs.renameSync(tmp, hostPath(d));
    }
  }
  snapshot = now;
}

let lastSync = 0;

// machine.WDT: a hardware watchdog. Like the RP2040's it survives soft
// resets, cannot be stopped, and resets the board (hard) when not fed in time.
let wdtTimeout = 0; // ms, 0: not started
let wdtDeadline = 0;
let resetCause = 1; // PWRON_RESET

function watchdogExpired() {
  return wdtTimeout > 0 && Date.now() > wdtDeadline;
}

function housekeeping() {
  // called from the device-side hooks while Python code runs
  flushOut();
  const t = Date.now();
  if (t - lastSync >= 100) {
    lastSync = t;
    saveFiles();
  }
}

// What a hook reports to the Python side: 0 nothing, 1 Ctrl-C, 2 reset now
// (the watchdog bit).
function pending() {
  if (watchdogExpired()) {
    resetPending = true;
    resetCause = 3; // WDT_RESET
    return 2;
  }
  return interruptPending() ? 1 : 0;
}

// ---- the interpreter --------------------------------------------------------
let raw = false; // which REPL the host is talking to
let resetPending = false;
let muted = false;

const emu = {
  // 1 (once) when the host sent Ctrl-C while Python code was running, 2 when
  // the watchdog bit (the board must reset), else 0.
  poll() {
    housekeeping();
    return pending();
  },
  // Sleep ms milliseconds of real time; non-zero (early) as poll().
  sleep(ms) {
    const end = Date.now() + ms;
    for (;;) {
      housekeeping();
      const p = pending();
      if (p) return p;
      const left = end - Date.now();
      if (left <= 0) return 0;
      sleepMs(Math.min(left, 5));
    }
  },
  wdtStart(ms) {
    wdtTimeout = Math.max(1, ms | 0);
    wdtDeadline = Date.now() + wdtTimeout;
  },
  wdtFeed() {
    if (wdtTimeout) wdtDeadline = Date.now() + wdtTimeout;
  },
  resetCause() {
    return resetCause;
  },
  ticks_ms() {
    return Date.now() - bootTime;
  },
  reset() {
    resetPending = true;
    resetCause = 1;
  },
  hwdir() {
    return hw || "";
  },
  // whole-file helpers for the hardware fakes (host files, not the device FS)
  readHost(name) {
    if (!hw) return null;
    try {
      return fs.readFileSync(path.join(hw, name), "latin1");
    } catch (e) {
      return null;
    }
  },
  mtimeHost(name) {
    if (!hw) return 0;
    try {
      return fs.statSync(path.join(hw, name)).mtimeMs;
    } catch (e) {
      return 0;
    }
  },
  writeHost(name, text) {
    if (!hw) return;
    const p = path.join(hw, name);
    fs.writeFileSync(p + ".~emu", text, "latin1");
    fs.renameSync(p + ".~emu", p);
  },
  appendHost(name, text) {
    if (hw) fs.appendFileSync(path.join(hw, name), text, "latin1");
  },
};

let bootTime = Date.now();

function runPy(code) {
  try {
    mp.runPython(code);
    return null;
  } catch (e) {
    if (e && e.name === "PythonError") return `${e.type}: ${e.message}`;
    throw e;
  }
}

async function boot(kind) {
  // kind: "power" (first start), "soft" (Ctrl-D / sys.exit), "hard" (machine.reset)
  if (mp) saveFiles();
  if (kind === "soft") putStr("MPY: soft reboot\r\n");
  else if (kind === "hard" && lastOut !== 10) putStr("\r\n"); // USB drops here on a board
  flushOut();
  resetPending = false;
  bootTime = Date.now();
  mp = await loadMicroPython({
    heapsize,
    linebuffer: false,
    stdout: (b) => {
      if (!muted) for (const c of b) putByte(c);
    },
    stderr: (b) => {
      if (!muted) for (const c of b) putByte(c);
    },
  });
  mp.FS.mkdir(EMU_DIR);
  for (const name of fs.readdirSync(FAKES)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${EMU_DIR}/${name}`, fs.readFileSync(path.join(FAKES, name)));
  }
  loadFiles();
  mp.registerJsModule("_emu_js", emu);
  const err = runPy(`import sys\nsys.path.append(${JSON.stringify(EMU_DIR)})\nimport _emu_setup`);
  if (err) process.stderr.write(`device.mjs: setup failed: ${err}\n`);
  if (kind === "hard") {
    raw = false;
    wdtTimeout = 0; // a hard reset stops the watchdog
  }
  if (!raw) {
    // like pyexec_file_if_exists("boot.py") / ("main.py") on a board
    runPy("_emu_setup.run_boot()");
    flushOut();
    saveFiles();
    if (resetPending) return boot("hard");
  }
  muted = raw;
  mp.replInit();
  if (raw) {
    mp.replProcessChar(1);
    muted = false;
    putStr("raw REPL; CTRL-B to exit\r\n>");
  }
  flushOut();
}

// ---- the raw-paste probe ----------------------------------------------------
// In the raw REPL, "\x05A\x01" asks for raw-paste mode. Answer "R\x00" (known
// command, not supported) and swallow it.
let probe = 0; // bytes of the probe seen so far

async function feed(c) {
  if (c === 3) stdinSeen++;
  if (raw) {
    if (probe === 0 && c === 5) {
      probe = 1;
      return;
    }
    if (probe === 1) {
      if (c === 0x41) {
        probe = 2;
        return;
      }
      probe = 0;
      await feed1(5);
    } else if (probe === 2) {
      probe = 0;
      if (c === 1) {
        putStr("R\x00");
        return;
      }
      await feed1(5);
      await feed1(0x41);
    }
  }
  await feed1(c);
}

async function feed1(c) {
  if (c === 1) raw = true;
  else if (c === 2) raw = false;
  let ret = 0;
  try {
    ret = mp.replProcessChar(c);
  } catch (e) {
    process.stderr.write(`device.mjs: REPL failed: ${e && e.stack ? e.stack : e}\n`);
    ret = PYEXEC_FORCED_EXIT;
  }
  if (resetPending) await boot("hard");
  else if (ret & PYEXEC_FORCED_EXIT) await boot("soft");
}

// ---- main loop: blocking reads of the serial line ----------------------------
await boot("power");
const inBuf = Buffer.alloc(4096);
for (;;) {
  let n;
  try {
    n = fs.readSync(0, inBuf, 0, inBuf.length, null);
  } catch (e) {
    if (e.code === "EAGAIN") {
      if (watchdogExpired()) {
        resetCause = 3;
        saveFiles();
        await boot("hard");
      }
      sleepMs(2);
      continue;
    }
    if (e.code === "EOF") break;
    throw e;
  }
  if (n <= 0) break;
  for (let i = 0; i < n; i++) await feed(inBuf[i]);
  flushOut();
  saveFiles();
}
saveFiles();
flushOut();
process.exit(0);
