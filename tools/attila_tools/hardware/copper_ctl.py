"""Check the controller's copper against the firmware's profile and the
power input's design (no KiCad needed; see copper.py for the modules).

- the cable's signals, the buttons and the piezo reach the profile's GPIOs
  (through the series resistors and the LED data's buffer);
- the microSD socket's SPI pins reach the card's GPIOs (the profile's
  `sdcard`), its supply and shell are on 3.3 V and ground, its data lines
  pulled up;
- the chain's shift data has a pull-up to 3.3 V;
- the 5 V input: USB-C with 5.1 kOhm from CC1 and CC2 to ground, then a
  fuse, a clamp to ground, a P-MOSFET whose source feeds the cable's 5 V
  and whose gate goes to ground, and no copper from it to the Pico's VBUS.

Pin names come from KiCad's own symbols (kicadlib.py), not from the
generator's tables; the GPIOs from the ordered controller's profile
(pinout.py, read through the firmware's own parser).
"""

from attila_tools.hardware import cable, catalogue, connectivity, kicadlib, pinout
from attila_tools.hardware.copper import through

PICO = catalogue.PICO.symbol
MICRO_SD = catalogue.MICRO_SD.symbol
USB_C = catalogue.USB_C.symbol
FET = catalogue.PFET.symbol
BUFFER_A, BUFFER_Y = "2", "4"  # 74AHCT1G125 in SOT-23-5 (KiCad's symbol leaves them unnamed)
SD_ROLES = (("CLK", "SD_SCK"), ("CMD", "SD_MOSI"), ("DAT0", "SD_MISO"), ("DAT3/CD", "SD_CS"))


def profile_pins(prof=None):
    """{signal: GPIO} of the ordered controller's profile (boards/profiles/controller.json)."""
    return pinout.gpios(prof)


def pico_gpios():
    """{pad number: GPIO} of the Pico, from KiCad's symbol (GPIO26_ADC0 -> 26)."""
    out = {}
    for name, numbers in kicadlib.pins(PICO).items():
        if name.startswith("GPIO"):
            out[numbers[0]] = int(name[4:].split("_")[0])
    return out


def controller_problems(board, pins=None):
    """What on the controller's copper disagrees with the profile's GPIOs, the
    cable and the power input's design; [] when nothing."""
    pins = pins or profile_pins()
    copper = connectivity.Copper(board)
    fps = board.footprints
    gpio_of_pad = pico_gpios()
    pico = [r for r, f in fps.items() if f.value == catalogue.PICO.value]
    if len(pico) != 1:
        return ["expected one Pico, found %s" % pico]
    pico = pico[0]
    out = list(copper.problems)

    def reach(net):
        """The GPIO a net reaches, through series resistors and the buffer (Y -> A)."""
        seen = set()
        while net and net not in seen:
            seen.add(net)
            hit = sorted(gpio_of_pad[p] for r, p in copper.pads(net)
                         if r == pico and p in gpio_of_pad)
            if hit:
                return hit[0] if len(hit) == 1 else hit
            step = through(copper, fps, net)
            for r, p in copper.pads(net):
                if fps[r].value == catalogue.BUFFER.value and p == BUFFER_Y:
                    step = copper.net(r, BUFFER_A)
            net = step
        return None

    for pin, sig in cable.NETS.items():
        have = copper.net("J1", pin)
        if sig in ("LED", "LOAD", "CLOCK", "SHIFT"):
            got = reach(have)
            if got != pins[sig]:
                out.append("cable pin %d (%s) reaches GPIO %s, the profile says %s"
                           % (pin, sig, got, pins[sig]))
        elif have != sig:
            out.append("cable pin %d is on %s, the cable carries %s" % (pin, have, sig))

    def pulled_up(net):
        return any(r.startswith("R") and set(copper.nets_of(r).values()) == {net, "+3V3"}
                   for r in fps)

    # CircuitPython's ShiftRegisterKeys sets no pull on the data pin: the board's
    # own keeps a cable-less line at all ones, which the chain check names.
    data_pin = cable.pin_of("SHIFT")[0]
    data = copper.net("J1", data_pin)
    if data and not pulled_up(data):
        out.append("cable pin %d (SHIFT) has no pull-up to 3.3 V" % data_pin)
    for ref, sig in (("SW1", "UNDO"), ("SW2", "MENU"), ("BZ1", "BUZZER")):
        nets = [n for n in copper.nets_of(ref).values() if n != "GND"] if ref in fps else []
        got = reach(nets[0]) if nets else None
        if got != pins[sig]:
            out.append("%s (%s) is on GPIO %s, the profile says %s" % (ref, sig, got, pins[sig]))
    return out + card_problems(copper, fps, pico, pins, reach, pulled_up) + power_problems(
        copper, fps, pico)


def card_problems(copper, fps, pico, pins, reach, pulled_up):
    """The microSD socket (J3): SPI on the card's GPIOs, supply, shell, pull-ups."""
    if "J3" not in fps:
        return ["no microSD socket (J3)"]
    out = []
    sd = kicadlib.pins(MICRO_SD)
    ppins = kicadlib.pins(PICO)
    for name, sig in SD_ROLES:
        net = copper.net("J3", sd[name][0])
        got = reach(net)
        if got != pins[sig]:
            out.append("microSD %s (pad %s) reaches GPIO %s, the card's pins say %s"
                       % (name, sd[name][0], got, pins[sig]))
    # the card's data-out and its unused data lines pulled up (the SD
    # specification), and CS, so that the card stays idle while the Pico boots
    for name in ("DAT0", "DAT1", "DAT2", "DAT3/CD"):
        if not pulled_up(copper.net("J3", sd[name][0])):
            out.append("microSD %s (pad %s) has no pull-up to 3.3 V" % (name, sd[name][0]))
    if copper.net("J3", sd["VDD"][0]) != copper.net(pico, ppins["3V3"][0]):
        out.append("microSD VDD is not on the Pico's 3.3 V")
    if copper.net("J3", sd["VSS"][0]) != copper.net(pico, ppins["GND"][0]):
        out.append("microSD VSS is not on the Pico's ground")
    shell = copper.every("J3", sd["SHIELD"][0])
    if shell != {"GND"}:
        out.append("microSD shell (pads %s) is on %s, not ground"
                   % (sd["SHIELD"][0], sorted(shell)))
    return out


def power_problems(copper, fps, pico):
    """USB-C -> fuse -> clamp -> P-MOSFET -> the cable's 5 V; CC pull-downs;
    no path into the Pico's VBUS (the computer's USB)."""
    out = []
    usb = kicadlib.pins(USB_C)
    if "J2" not in fps:
        return ["no USB-C power input (J2)"]
    vin = {copper.net("J2", p) for p in usb["VBUS"]}
    if len(vin) != 1:
        return ["USB-C VBUS pads on %s" % sorted(vin)]
    vin = vin.pop()
    for cc in ("CC1", "CC2"):
        net = copper.net("J2", usb[cc][0])
        if not any(r.startswith("R") and fps[r].value == "5.1k"  # USB-C's Rd
                   and set(copper.nets_of(r).values()) == {net, "GND"} for r in fps):
            out.append("USB-C %s has no 5.1 kOhm to ground (a supply would give no 5 V)" % cc)
    fuses = [r for r in fps if r.startswith("F") and vin in copper.nets_of(r).values()]
    if len(fuses) != 1:
        return out + ["USB-C VBUS reaches %d fuses, not one" % len(fuses)]
    fused = [n for n in copper.nets_of(fuses[0]).values() if n != vin][0]
    clamps = [r for r in fps if r.startswith("D")
              and set(copper.nets_of(r).values()) == {fused, "GND"}]
    if not clamps:
        out.append("no clamp (TVS) from the fused input %s to ground" % fused)
    fet = kicadlib.pins(FET)
    qs = [r for r in fps if r.startswith("Q") and copper.net(r, fet["D"][0]) == fused]
    five = copper.net("J1", cable.pin_of("+5V")[0])
    if len(qs) != 1 or copper.net(qs[0], fet["S"][0]) != five:
        out.append("the fused input does not reach the cable's 5 V through one P-MOSFET "
                   "(drain on the input, source on the 5 V)")
    elif not any(r.startswith("R") and set(copper.nets_of(r).values()) ==
                 {copper.net(qs[0], fet["G"][0]), "GND"} for r in fps):
        out.append("the P-MOSFET's gate has no resistor to ground")
    vbus = copper.net(pico, kicadlib.pins(PICO)["VBUS"][0])
    if vbus in (vin, fused, five):
        out.append("the Pico's VBUS is on the power input (%s): current would flow back into "
                   "the computer's USB" % vbus)
    return out
