// Run Python code under the MicroPython WebAssembly port in Node.
//
//   node tools/wasm/run.mjs [--heapsize BYTES] [--copy HOSTDIR[=FSDIR]]...
//                           [--path FSDIR]... --exec CODE [--exec CODE]...
//
// --copy  copies a host directory (recursively, __pycache__ skipped) into the
//         port's in-memory file system, at FSDIR or else at the same absolute
//         path as on the host (so tracebacks name the host files).
// --path  puts an FS directory in front of sys.path.
// --cwd   makes an FS directory the current one (os.chdir) before the code.
// --exec  runs code in a FRESH interpreter (one per --exec, in order), each
//         with the copies and the path set up. Python output goes to stdout.
// Exit status: 0 when every --exec finished, 1 when one raised (its
// traceback goes to stderr), 2 on bad arguments.
// Used by tools/mpytest.py wasm. The port has no `machine` module, rejects
// @micropython.native/viper and reports WASI errno values in OSError; its
// heap grows on demand, so heapsize is the initial size, not a hard limit.

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

function usage(msg) {
  process.stderr.write(`run.mjs: ${msg}\n`);
  process.exit(2);
}

const copies = [];
const paths = [];
const execs = [];
let cwd = null;
let heapsize = 1024 * 1024;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const opt = argv[i];
  const val = argv[i + 1];
  if (val === undefined) usage(`${opt} needs a value`);
  i++;
  if (opt === "--copy") {
    const eq = val.indexOf("=");
    const src = path.resolve(eq < 0 ? val : val.slice(0, eq));
    const dst = eq < 0 ? src : val.slice(eq + 1);
    if (!fs.existsSync(src) || !fs.statSync(src).isDirectory()) usage(`no directory ${src}`);
    copies.push([src, dst]);
  } else if (opt === "--path") {
    paths.push(val);
  } else if (opt === "--cwd") {
    cwd = val;
  } else if (opt === "--exec") {
    execs.push(val);
  } else if (opt === "--heapsize") {
    heapsize = parseInt(val, 10);
    if (!(heapsize > 0)) usage(`bad heapsize ${val}`);
  } else {
    usage(`unknown option ${opt}`);
  }
}
if (execs.length === 0) usage("nothing to run (--exec CODE)");

function mkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    try {
      FS.mkdir(cur);
    } catch (e) {
      // exists already
    }
  }
}

function copyTree(FS, src, dst) {
  mkdirs(FS, dst);
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    if (ent.name === "__pycache__" || ent.name.startsWith(".")) continue;
    const s = path.join(src, ent.name);
    const d = dst + "/" + ent.name;
    if (ent.isDirectory()) copyTree(FS, s, d);
    else if (ent.isFile()) FS.writeFile(d, fs.readFileSync(s));
  }
}

const pathSetup =
  "import sys\n" +
  paths
    .slice()
    .reverse()
    .map((p) => `sys.path.insert(0, ${JSON.stringify(p)})\n`)
    .join("") +
  (cwd === null ? "" : `import os\nos.chdir(${JSON.stringify(cwd)})\ndel os\n`) +
  "del sys\n";

let status = 0;
for (const code of execs) {
  const mp = await loadMicroPython({
    heapsize,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
    linebuffer: true,
  });
  for (const [src, dst] of copies) copyTree(mp.FS, src, dst);
  try {
    mp.runPython(pathSetup);
    mp.runPython(code);
  } catch (e) {
    process.stderr.write(String(e && e.message ? e.message : e) + "\n");
    status = 1;
  }
}
process.exit(status);
