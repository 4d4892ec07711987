"""Read the boards' netlists (boards/pcb/*/*.net, exported by `make hardware`):
the wiring the emulated Pico runs on, with no KiCad installed.

    module_wiring("2x3")  ->  {"inputs": [register input of local square k],
                               "leds": [local square of chain link j]}
    controller_gpio()     ->  {"LED": 22, "LOAD": 13, "CLOCK": 10, "SHIFT": 12}:
                              the GPIO behind each of the cable's signals
"""

import os

from attila_tools.hardware import cable, pcbfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PCB_DIR = os.path.join(ROOT, "boards", "pcb")


class Netlist:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            tree = pcbfile.parse(f.read(), path)
        self.path = path
        self.parts = {}  # ref -> {"value": ..., property: value}
        self.paths = {}  # ref -> its symbol's path (what the board's footprint points to)
        self.sheets = {}  # ref -> the sheet it is drawn on ("/square 3/")
        for comp in pcbfile.find_all(pcbfile.find(tree, "components") or [], "comp"):
            ref = pcbfile.find(comp, "ref")[1]
            props = {pcbfile.find(p, "name")[1]: pcbfile.find(p, "value")[1]
                     for p in pcbfile.find_all(comp, "property") if pcbfile.find(p, "value")}
            props["value"] = pcbfile.find(comp, "value")[1]
            self.parts[ref] = props
            sheet = pcbfile.find(comp, "sheetpath")
            self.sheets[ref] = pcbfile.find(sheet, "names")[1]
            self.paths[ref] = pcbfile.find(sheet, "tstamps")[1] + pcbfile.find(comp, "tstamps")[1]
        self.nets = {}  # net -> [(ref, pin)]
        self.pin_net = {}  # (ref, pin) -> net
        self.function = {}  # (ref, pin) -> the pin's name in KiCad's symbol ("D0", "GPIO22")
        for net in pcbfile.find_all(pcbfile.find(tree, "nets") or [], "net"):
            name = pcbfile.find(net, "name")[1]
            nodes = []
            for n in pcbfile.find_all(net, "node"):
                node = (pcbfile.find(n, "ref")[1], pcbfile.find(n, "pin")[1])
                nodes.append(node)
                fn = pcbfile.find(n, "pinfunction")
                if fn is not None:
                    self.function[node] = fn[1]
            self.nets[name] = nodes
            for node in nodes:
                self.pin_net[node] = name

    def net(self, ref, pin):
        return self.pin_net.get((ref, str(pin)))

    def square(self, ref):
        """The square a part is drawn for: the sheet it lies on ("/square 3/" -> 3)."""
        words = self.sheets.get(ref, "").strip("/").split()
        if len(words) != 2 or words[0] != "square" or not words[1].isdigit():
            self.fail("%s lies on sheet %r, not a square's" % (ref, self.sheets.get(ref)))
        return int(words[1])

    def path_of(self, ref):
        if ref not in self.paths:
            self.fail("no part %s" % ref)
        return self.paths[ref]

    def fail(self, what):
        raise ValueError("%s: %s" % (self.path, what))


def load(board):
    return Netlist(os.path.join(PCB_DIR, board, board + ".net"))


def module_wiring(kind):
    """Which register input each local square's switch drives, and which square
    each link of the LED chain lights, as the module's netlist has them."""
    nl = load("module-" + kind)
    reg = [r for r, p in nl.parts.items() if p["value"] == "74HC165"]
    if len(reg) != 1:
        nl.fail("expected one 74HC165, found %s" % reg)
    # the register's inputs by their names in KiCad's symbol (the netlist carries them)
    input_of_pin = {}
    for (ref, pin), fn in nl.function.items():
        if ref == reg[0] and len(fn) == 2 and fn[0] == "D" and fn[1].isdigit():
            input_of_pin[pin] = int(fn[1])
    inputs = {}
    for ref, p in nl.parts.items():
        if p["value"] != "reed":
            continue
        nets = [nl.net(ref, pin) for pin in ("1", "2")]
        sig = [n for n in nets if n != "GND"]
        on = [pin for r, pin in nl.nets.get(sig[0], []) if r == reg[0]] if sig else []
        if len(on) != 1 or on[0] not in input_of_pin:
            nl.fail("switch %s reaches no register input" % ref)
        inputs[nl.square(ref)] = input_of_pin[on[0]]
    leds, net = [], nl.net("J1", cable.pin_of("LED")[0])
    while True:
        nxt = [r for r, pin in nl.nets.get(net, []) if nl.function.get((r, pin)) == "DIN"
               and nl.parts[r]["value"] == "WS2812B"]
        if len(nxt) != 1:
            break
        leds.append(nl.square(nxt[0]))
        net = [nl.net(r, pin) for (r, pin), fn in nl.function.items()
               if r == nxt[0] and fn == "DOUT"][0]
    n = len(inputs)
    if sorted(inputs) != list(range(n)) or sorted(leds) != list(range(n)):
        nl.fail("squares %s have switches, the LED chain from IN visits %s" % (sorted(inputs), leds))
    return {"inputs": [inputs[k] for k in range(n)], "leds": leds}


def controller_gpio():
    """The Pico GPIO behind each cable signal (through series resistors and the buffer)."""
    nl = load("controller")
    pico = [r for r, p in nl.parts.items() if p["value"] == "Pico"][0]
    # the Pico's GPIOs by their names in KiCad's symbol ("GPIO26_ADC0" -> 26)
    gpio_of_pin = {pin: int(fn[4:].split("_")[0]) for (ref, pin), fn in nl.function.items()
                   if ref == pico and fn.startswith("GPIO")}
    out = {}
    for sig in ("LED", "LOAD", "CLOCK", "SHIFT"):
        net, seen = nl.net("J1", cable.pin_of(sig)[0]), set()
        while net and net not in seen:
            seen.add(net)
            here = [pin for r, pin in nl.nets[net] if r == pico]
            if here:
                out[sig] = gpio_of_pin[here[0]]
                break
            # on through a two-pin part (a series resistor) or the buffer (Y -> A)
            step = None
            for r, pin in nl.nets[net]:
                if r.startswith("R") and len([1 for (rr, _) in nl.pin_net if rr == r]) == 2:
                    step = nl.net(r, "2" if pin == "1" else "1")
                elif nl.parts[r]["value"] == "74AHCT1G125" and pin == "4":
                    step = nl.net(r, "2")
            net = step
        if sig not in out:
            nl.fail("cable signal %s reaches no Pico pin" % sig)
    return out
