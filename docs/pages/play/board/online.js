// Online play on the board page: mqtt.js (npm `mqtt`, pinned in tools/wasm,
// put beside the page as mq/mqtt.esm.js by the docs build) carries the
// messages over WebSocket to the broker; everything they say is the
// firmware's (attila.online, under MicroPython's WebAssembly port, through
// attila_sim.webonline): this file only moves bytes. No server of ours.

import mqtt from "./mq/mqtt.esm.js";

let net = null; // the MQTT client while online
let will = null; // [topic, payload] of this side's `off`

export function connectOnline(page, online, python, show) {
  disconnectOnline();
  const info = JSON.parse(page.online_info());
  const where = online.broker;
  let client;
  try {
    client = mqtt.connect(where, {
      clientId: info.client,
      clean: false, // the broker keeps what this page missed while it was closed
      protocolVersion: 4,
      keepalive: 20,
      reconnectPeriod: 2000,
      connectTimeout: 10000,
      will: { topic: info.will[0], payload: info.will[1], qos: 1, retain: true },
    });
  } catch (e) {
    show(python(() => page.link(false, `broker ${where}: ${e.message || e}`)));
    return;
  }
  net = client;
  will = info.will;
  client.on("connect", () => {
    if (net !== client) return;
    client.subscribe(info.subscribe, { qos: 1 });
    show(python(() => page.link(true)));
  });
  client.on("message", (topic, payload) => {
    if (net !== client) return;
    const text = new TextDecoder().decode(payload);
    show(python(() => page.receive(topic, text)));
  });
  const lost = (why) => {
    if (net === client) show(python(() => page.link(false, why)));
  };
  client.on("close", () => lost(`no broker at ${where}`));
  client.on("error", (e) => lost(`broker ${where}: ${e.message || e}`));
}

export function disconnectOnline() {
  // Leaving the room (another board, or playing here only): the other board
  // is told this side is off, as the broker would with the will, then the
  // connection ends once what is under way has gone out.
  if (net !== null) {
    const client = net;
    net = null;
    if (client.connected) client.publish(will[0], will[1], { qos: 1, retain: true });
    client.end(false);
  }
}

export function flushOnline(page, python) {
  // What the party has to send, published at QoS 1 (mqtt.js keeps it until
  // the broker has it). While the broker is away it stays with the party,
  // which sends its state again once the page is back.
  if (net === null || !net.connected) return;
  const out = python(() => page.outbox());
  if (!out) return;
  for (const [topic, payload, retain] of JSON.parse(out)) {
    net.publish(topic, payload, { qos: 1, retain });
  }
}
