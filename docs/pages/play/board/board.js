// The board page: the board's own firmware under MicroPython's WebAssembly port.
//
// Loads the port (mp/), the firmware's attila package and the simulator's
// virtual board (py/, listed in files.json; both put there by the docs build,
// docs/hooks/board.py), then drives attila_sim.web's Page: clicks and taps
// are hand movements and button presses, every state it returns is drawn.
// Nothing here knows the rules: the controller decides, the LEDs are the
// bytes of its virtual strip.
//
// URL: ?clock=steps runs the clock of `attila sim --script` (it moves only
// when something is done: each click is one script step), used by the tests;
// the default is the live clock (the page's frames, the search in slices).
// The game and the settings are kept in localStorage: a reload resumes.

import { loadMicroPython } from "./mp/micropython.mjs";
import { connectOnline, disconnectOnline, flushOnline } from "./online.js";

const STORE = "attila-board";
// As the form's own selected options (index.html) and the simulator's --level.
const DEFAULTS = { layout: "4x5", first: "R", computer: "H", level: "strong", book: true };
const KIND_NAMES = { R: "Roman knight", H: "Hun knight", x: "tile" };
const params = new URLSearchParams(location.search);
const clock = params.get("clock") === "steps" ? "steps" : "live";
const $ = (id) => document.getElementById(id);

// Figures for the benchmarks (tools/bench), in ms of the page's clock.
// longestThinkingFrame: the longest gap between two frames while the board
// thought (its search runs in slices of the frames).
const times = (window.attilaTimes = {
  firstFrame: null, clicks: [], decisions: [], longestThinkingFrame: 0 });
// The board's own clock (ms), which may lag behind real time while it thinks:
// the tests pace a player's presses by it.
window.attilaClock = () => (page === null ? 0 : python(() => page.now()));

let page = null; // attila_sim.web.page (a proxy of the Python object)
let FS = null;
let geometry = null;
let squares = []; // the square elements, by index
let settings = { ...DEFAULTS };
let replaying = false;
let lastLeds = null;
let clickAt = null;
let thinkingSince = null;

function loadStore() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch (e) {
    return {};
  }
}

function keep(change) {
  const kept = { ...loadStore(), ...change };
  try {
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch (e) {
    say("The browser keeps nothing here (storage refused): a reload starts again.");
  }
}

function boardId() {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function say(text) {
  $("message").textContent = text || "";
}

function mkdirs(path) {
  let cur = "";
  for (const part of path.split("/").filter(Boolean)) {
    cur += "/" + part;
    try {
      FS.mkdir(cur);
    } catch (e) {
      // exists already
    }
  }
}

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function boot() {
  const mp = await loadMicroPython({
    heapsize: 8 * 1024 * 1024,
    linebuffer: true,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  FS = mp.FS;
  const list = await (await fetch("files.json")).json();
  const data = await Promise.all(list.files.map((rel) => fetchBytes("py/" + rel)));
  list.files.forEach((rel, i) => {
    mkdirs("/w/" + rel.split("/").slice(0, -1).join("/"));
    FS.writeFile("/w/" + rel, data[i]);
  });
  mkdirs("/tmp");
  mp.runPython("import sys, os\nsys.path.insert(0, '/w')\nos.chdir('/w')\n");
  page = mp.pyimport("attila_sim.web").page;

  const select = $("layout");
  for (const [name, description] of list.layouts) {
    const opt = document.createElement("option");
    opt.value = name;
    opt.textContent = name;
    opt.title = description;
    select.appendChild(opt);
  }
  const kept = loadStore();
  settings = { ...DEFAULTS, ...(kept.settings || {}) };
  if (!list.layouts.some(([name]) => name === settings.layout)) settings = { ...DEFAULTS };
  showSettings();
  start(kept.save || null);
  wire();
  if (clock === "live") requestAnimationFrame(frame);
}

function showSettings() {
  for (const key of ["layout", "first", "computer", "level"]) $(key).value = settings[key];
  $("book").checked = settings.book;
}

function python(call) {
  // A call into the page's Python: its errors are the page's to say.
  try {
    return call();
  } catch (e) {
    const text = String(e && e.message ? e.message : e).trim().split("\n");
    console.warn(text.join("\n"));
    say(text[text.length - 1].replace(/^\w*Error: /, "")); // (what is wrong, not its class)
    return null;
  }
}

function start(save) {
  const online = clock === "live" ? loadStore().online || null : null;
  disconnectOnline();
  let state = python(() =>
    page.start(settings.layout, settings.first, online ? "" : settings.computer, settings.level,
      settings.book, save, clock, online ? JSON.stringify(online) : null));
  let joined = online;
  if (state === null) {
    if (online) {
      // The room cannot be joined as given (the message says why): the page
      // plays here, and a reload does not try again.
      keep({ online: null });
      joined = null;
      say(`Online: ${$("message").textContent}; playing here only.`);
    }
    settings = { ...DEFAULTS };
    showSettings();
    state = page.start(settings.layout, settings.first, settings.computer, settings.level,
      settings.book, null, clock);
  }
  geometry = JSON.parse(page.geometry());
  build();
  lastLeds = null;
  thinkingSince = null;
  show(state);
  if (joined && state !== null) connectOnline(page, joined, python, show);
}

// -- drawing ------------------------------------------------------------------

const PIECE_HTML = {
  R: '<span class="piece roman" aria-hidden="true"></span>',
  H: '<span class="piece hun" aria-hidden="true"></span>',
  x: '<span class="piece tile" aria-hidden="true"></span>',
  "o": '<span class="piece unknown" aria-hidden="true"></span>',
  "": "",
};

function build() {
  const board = $("board");
  board.innerHTML = "";
  board.style.setProperty("--files", geometry.width);
  board.style.setProperty("--ranks", geometry.height);
  // Module outlines, as the window draws them: an edge where the neighbour
  // square belongs to another module or to none; the chain number on each
  // module's local square 0.
  const owner = new Map(geometry.squares.map(([, f, r, m]) => [`${f},${r}`, m]));
  squares = geometry.squares.map(([name, file, rank, module, first], i) => {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "square";
    el.dataset.square = name;
    el.style.gridColumn = String(file + 1);
    el.style.gridRow = String(geometry.height - rank);
    for (const [edge, df, dr] of [["et", 0, 1], ["eb", 0, -1], ["el", -1, 0], ["er", 1, 0]]) {
      if (owner.get(`${file + df},${rank + dr}`) !== module) el.classList.add(edge);
    }
    const chain = first ? `<span class="chain" title="module ${module} in the cable chain">${module}</span>` : "";
    el.innerHTML = `<span class="glow"></span><span class="slot"></span><span class="name">${name}</span>${chain}`;
    el.addEventListener("click", () => act(() => page.click(i)));
    board.appendChild(el);
    return el;
  });
  const reserve = $("reserve");
  reserve.innerHTML = "";
  for (const kind of ["R", "H", "x"]) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "stack";
    el.dataset.kind = kind;
    el.title = `take a ${KIND_NAMES[kind]} from beside the board`;
    el.innerHTML = `${PIECE_HTML[kind]}<span class="count"></span>`;
    el.addEventListener("click", () => act(() => page.take(kind)));
    reserve.appendChild(el);
  }
}

function shown(hex, level) {
  // An LED as the eye sees it: the frame's brightness level undone (a white
  // square is white, not grey), as the simulator's window draws it.
  const c = [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const up = level > 0 && level < 255 ? (v) => Math.min(255, Math.ceil((v * 255) / level)) : (v) => v;
  return `rgb(${c.map(up).join(",")})`;
}

function show(text) {
  if (!text) return;
  const s = JSON.parse(text);
  if (s.error) {
    say(s.error);
    return;
  }
  const leds = s.leds.join(" ");
  const now = performance.now();
  if (clickAt !== null && lastLeds !== null && leds !== lastLeds) {
    times.clicks.push(now - clickAt);
    clickAt = null;
  }
  lastLeds = leds;
  if (s.thinking && thinkingSince === null) thinkingSince = [now, s.t];
  if (!s.thinking && thinkingSince !== null) {
    times.decisions.push({
      level: settings.level, ms: now - thinkingSince[0], clock: s.t - thinkingSince[1] });
    thinkingSince = null;
  }
  s.leds.forEach((hex, i) => {
    const el = squares[i];
    el.dataset.led = hex;
    el.style.setProperty("--led", hex ? shown(hex, s.level) : "transparent");
    el.classList.toggle("lit", hex !== "");
    const piece = s.pieces[i];
    if (el.dataset.piece !== piece) {
      el.dataset.piece = piece;
      el.querySelector(".slot").innerHTML = PIECE_HTML[piece] || "";
    }
    el.classList.toggle("origin", s.origin === i);
    const what = piece ? ", " + (KIND_NAMES[piece] || "piece") : "";
    el.setAttribute("aria-label", `${geometry.squares[i][0]}${what}${hex ? ", lit #" + hex : ""}`);
  });
  for (const el of $("reserve").children) {
    const n = s.reserve[el.dataset.kind];
    el.querySelector(".count").textContent = `×${n}`;
    el.disabled = n === 0;
  }
  $("hand").innerHTML = s.hand
    ? `Hand: ${PIECE_HTML[s.hand]} ${KIND_NAMES[s.hand] || "piece"}: tap a square`
    : "Hand: empty";
  $("hand").dataset.hand = s.hand;
  $("status").textContent = s.status;
  $("status").dataset.mode = s.mode;
  $("mode").textContent = s.mode;
  $("position").textContent = s.position;
  $("clock").textContent = `${(s.t / 1000).toFixed(2)} s (${clock})`;
  if (s.message) say(s.message);
  if (s.save !== undefined && !replaying) keep({ save: s.save || null });
  if (s.online) {
    $("told").textContent = s.online.told;
    const kept = loadStore().online;
    if (kept && (kept.number !== s.online.number || !kept.id)) {
      keep({ online: { ...kept, number: s.online.number, id: s.online.id } });
    }
  } else {
    $("told").textContent = "";
  }
  showReplay(s);
  if (times.firstFrame === null) {
    times.firstFrame = now;
    document.documentElement.dataset.ready = "1";
  }
}

function showReplay(s) {
  const [done, total, said] = s.replay;
  if (!replaying) return;
  $("replay-said").textContent = said || `step ${done} of ${total}`;
  const list = $("steps");
  if (list.children.length !== s.steps.length || list.dataset.marks !== String(s.marks.length)) {
    list.innerHTML = "";
    s.steps.forEach((step, i) => {
      const li = document.createElement("li");
      const mark = s.marks[i] || "";
      li.innerHTML = `<code></code> <span class="mark"></span>`;
      li.querySelector("code").textContent = step;
      li.querySelector(".mark").textContent = mark;
      const [before, after] = mark.split("->").map((w) => (w || "").trim().split(" ")[0]);
      if (before === "won" && after === "lost") li.classList.add("threw");
      else if (after) li.classList.add(after);
      list.appendChild(li);
    });
    list.dataset.marks = String(s.marks.length);
  }
  [...list.children].forEach((li, i) => {
    li.classList.toggle("done", i < done);
    li.classList.toggle("current", i === done - 1);
  });
}

// -- input --------------------------------------------------------------------

function act(call) {
  if (!page) return;
  say("");
  clickAt = performance.now();
  show(python(call));
}

function wire() {
  for (const name of ["undo", "menu"]) {
    const el = $(name);
    let down = false;
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (down) return;
      down = true;
      el.classList.add("down");
      act(() => page.button(name, true));
    });
    const up = () => {
      if (!down) return;
      down = false;
      el.classList.remove("down");
      show(python(() => page.button(name, false)));
    };
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("pointerleave", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  // Keys, as in the simulator's window: U undo and M menu (held as long as
  // the key), Escape puts the held piece back.
  const keys = { u: "undo", m: "menu" };
  const held = new Set();
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("select, input") || e.ctrlKey || e.metaKey || e.altKey) return;
    const name = keys[e.key.toLowerCase()];
    if (name && !held.has(name)) {
      held.add(name);
      $(name).classList.add("down");
      act(() => page.button(name, true));
    } else if (e.key === "Escape") {
      act(() => page.drop());
    }
  });
  document.addEventListener("keyup", (e) => {
    const name = keys[e.key.toLowerCase()];
    if (name && held.delete(name)) {
      $(name).classList.remove("down");
      show(python(() => page.button(name, false)));
    }
  });
  $("drop").addEventListener("click", () => act(() => page.drop()));
  $("clear").addEventListener("click", () => act(() => page.clear()));
  $("new").addEventListener("click", () => {
    settings = {
      layout: $("layout").value,
      first: $("first").value,
      computer: $("computer").value,
      level: $("level").value,
      book: $("book").checked,
    };
    replaying = false;
    keep({ settings, save: null });
    say("");
    start(null);
  });
  $("join").addEventListener("click", () => {
    const code = $("room").value.trim();
    const broker = $("broker").value.trim();
    if (!code || !broker) {
      say("Online: give the room code (ROOM-SECRET) and the broker (ws://HOST:PORT).");
      return;
    }
    if (!/^wss?:\/\/[^\s\/]+/.test(broker)) {
      say(`Online: the broker ${broker}: give it as ws://HOST:PORT (wss:// for TLS), like ` +
        "ws://192.168.1.20:9001: the page reaches it over WebSocket, not on MQTT's port 1883.");
      return;
    }
    replaying = false;
    // The page's id in the room (the broker tells two boards of one side
    // apart by it): made once, kept across reloads and rooms.
    const id = loadStore().board || boardId();
    keep({ board: id, online: { code, side: $("side").value, broker, number: 1, id }, save: null });
    say("");
    start(null);
  });
  $("local").addEventListener("click", () => {
    keep({ online: null, save: null });
    say("");
    start(null);
  });
  const kept = loadStore().online;
  if (kept) {
    $("room").value = kept.code;
    $("side").value = kept.side;
    $("broker").value = kept.broker;
    $("online-panel").open = true;
  }
  $("replay-file").addEventListener("change", (e) => openReplay(e.target));
  $("analysis-file").addEventListener("change", (e) => openAnalysis(e.target));
  $("next").addEventListener("click", () => replaying && act(() => page.next(1)));
  $("all").addEventListener("click", () => replaying && act(() => page.next(-1)));
  $("leave").addEventListener("click", () => {
    replaying = false;
    $("steps").innerHTML = "";
    $("replay-said").textContent = "";
    say("");
    start(loadStore().save || null);
  });
}

async function openReplay(input) {
  const file = input.files[0];
  if (!file) return;
  FS.writeFile("/tmp/replay", new Uint8Array(await file.arrayBuffer()));
  const text = python(() => page.replay(file.name, "/tmp/replay"));
  input.value = "";
  if (text === null) return;
  const s = JSON.parse(text);
  if (s.error) {
    say(s.error);
    return;
  }
  replaying = true;
  say("");
  geometry = JSON.parse(page.geometry());
  build();
  $("steps").innerHTML = "";
  show(text);
}

async function openAnalysis(input) {
  const file = input.files[0];
  if (!file) return;
  const text = await file.text();
  input.value = "";
  if (!replaying) {
    say(`${file.name}: open the game to replay first`);
    return;
  }
  show(python(() => page.analysis(file.name, text)));
}

// -- the live clock ------------------------------------------------------------

let last = null;
let owed = 0;

function frame(now) {
  if (last !== null) {
    if (thinkingSince !== null) {
      times.longestThinkingFrame = Math.max(times.longestThinkingFrame, now - last);
    }
    owed += Math.min(now - last, 100); // a hidden tab does not run the clock
    const dt = Math.floor(owed);
    owed -= dt;
    if (dt > 0) show(python(() => page.tick(dt)));
    flushOnline(page, python);
  }
  last = now;
  requestAnimationFrame(frame);
}

boot().catch((e) => {
  $("status").textContent = "The board could not start: " + (e && e.message ? e.message : e);
  console.error(e);
});
