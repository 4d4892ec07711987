"""The chain's drivers and receivers as their datasheets give them.

Levels and limits in volts, farads, amps and ohms, each with its source; a
figure no datasheet gives is marked "assumed" and chosen on the side that
makes the signals look worse (signals.py simulates with them, edges.py
judges by them).
"""

# Receivers: levels and limits (volts, farads, amps), each with its source.
RECEIVERS = {
    "74HC165": dict(
        vdd=3.3, vih=2.36, vil=0.94, cin=10e-12, clamp_ma=20.0, clamps=True,
        settle=100e-9,
        source="TI SN74HC165 datasheet (SCLS116G): VIH 1.5/3.15 V and VIL 0.5/1.35 V at "
               "VCC 2/4.5 V, taken linearly to the modules' 3.3 V; absolute maximum input "
               "clamp current 20 mA (input voltages past the rails allowed within it); input "
               "capacitance 10 pF, its maximum (unverified here). Nexperia's 74HC165D "
               "(the part ordered) rates its inputs overvoltage tolerant to 15 V"),
    "WS2812B": dict(
        vdd=5.0, vih=3.5, vil=1.5, cin=15e-12, vmax=5.5, vmin=-0.5, clamps=False,
        settle=50e-9,
        source="Worldsemi WS2812B datasheet: VIH 0.7 VDD, VIL 0.3 VDD, input capacitance "
               "15 pF max, input voltage -0.5 V to VDD + 0.5 V absolute maximum; no input "
               "clamp specified, so none is modelled"),
}
# Drivers: (stiff ohms, weak ohms, edge seconds), stiff = worst ringing, weak = slowest.
DRIVERS = {
    "RP2040": dict(vdd=3.3, stiff=20.0, weak=170.0, source=(
        "RP2040 datasheet table 632: VOH >= 2.62 V at 4 mA (the default drive) gives "
        "170 Ohm at most; 20 Ohm assumed for the stiffest pad (no datasheet figure)")),
    "74AHCT1G125": dict(vdd=5.0, stiff=20.0, weak=70.0, source=(
        "TI SN74AHCT1G125 datasheet: VOH >= 3.94 V at 8 mA, VCC 4.5 V, gives 70 Ohm at "
        "most (unverified here); 20 Ohm assumed for the stiffest")),
    "WS2812B": dict(vdd=5.0, stiff=20.0, weak=100.0, source=(
        "assumed: the WS2812B datasheet gives no output drive figure; 20 and 100 Ohm "
        "bracket a CMOS output")),
}
