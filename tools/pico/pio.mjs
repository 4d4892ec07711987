// The RP2040's PIO state machines, run on the emulated clock.
//
// rp2040js 1.4.1 executes PIO instructions from setTimeout(..., 0), a
// thousand at a time, in wall time: no clock divider, no delay cycles, and
// (pico.mjs runs the core synchronously) not at all while the core runs, so
// a firmware waiting for its state machine would wait for ever. Here each
// enabled state machine executes one instruction every (1 + delay) cycles of
// its own clock, clk_sys / (CLKDIV_INT + CLKDIV_FRAC / 256), between the
// core's instructions, as the silicon does; its pin changes reach the GPIO
// listeners (tools/pico/wires.mjs) at that emulated time.
//
// A state machine stalled on a FIFO (a blocking PULL on an empty TX FIFO,
// a PUSH on a full RX FIFO) can only be released by the core, so it costs
// nothing until the core touches its PIO block. Not modelled: the input
// synchronisers (two clk_sys cycles, 16 ns), the fractional divider's
// jitter (its average rate is kept), FIFO joining (rp2040js has none).

// rp2040js's WaitType (not exported by the package): the FIFO stalls.
const WAIT_RX_FIFO = 2;
const WAIT_TX_FIFO = 3;
const WAIT_OUT = 5;

export class PioClock {
  constructor(chip) {
    this.chip = chip;
    this.live = false; // a state machine may run before the next core instruction
    this.due = Infinity; // earliest emulated ns (this boot) a live machine runs
    this.machines = [];
    for (const pio of chip.pio) {
      // Enabling a machine runs it here, not from a wall-clock timer.
      pio.run = () => this.wake();
      const read = pio.readUint32.bind(pio);
      const write = pio.writeUint32.bind(pio);
      // Any access of the core may release a stall (a FIFO read or write,
      // an EXEC, CTRL): look again before the next core instruction.
      pio.readUint32 = (offset) => {
        this.wake();
        return read(offset);
      };
      pio.writeUint32 = (offset, value) => {
        write(offset, value);
        this.wake();
      };
      for (const sm of pio.machines) this.machines.push({ pio, sm, due: -1, cycles: 0, stalled: false });
    }
  }

  wake() {
    this.live = true;
    this.due = -1;
  }

  // Nanoseconds of one cycle of a machine's clock.
  static period(chip, sm) {
    const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
    return (1e9 / chip.clkSys) * div;
  }

  // Run every enabled machine up to emulated time `now` (ns of this boot).
  run(now) {
    let live = false;
    let due = Infinity;
    for (const m of this.machines) {
      const sm = m.sm;
      if (!sm.enabled) {
        m.due = -1;
        continue;
      }
      const period = PioClock.period(this.chip, sm);
      if (m.due < 0) {
        m.due = now; // just enabled
        m.cycles = sm.cycles;
        m.stalled = false;
      } else if (m.stalled) {
        // Released by the core (or not yet: it is looked at again): the
        // delay cycles of the instruction it finished follow.
        m.due = Math.max(m.due, now) + Math.max(0, sm.cycles - m.cycles) * period;
        m.cycles = sm.cycles;
        m.stalled = false;
      }
      while (m.due <= now) {
        if (sm.waiting) {
          sm.checkWait();
          if (sm.waiting) {
            const t = sm.waitType;
            if (t === WAIT_RX_FIFO || t === WAIT_TX_FIFO || t === WAIT_OUT) {
              m.stalled = true; // until the core reads or writes a FIFO
              break;
            }
            m.due += period; // a WAIT on a pin or an IRQ: look every cycle
            continue;
          }
          m.due += Math.max(0, sm.cycles - m.cycles) * period; // its delay, once released
          m.cycles = sm.cycles;
          if (m.due > now) break;
        }
        sm.step();
        const used = sm.cycles - m.cycles; // 1 + delay (the delay waits while stalled)
        m.cycles = sm.cycles;
        m.due += (used > 0 ? used : 1) * period;
        m.pio.checkChangedPins();
      }
      if (!m.stalled) {
        live = true;
        if (m.due < due) due = m.due;
      }
    }
    this.live = live;
    this.due = due;
  }
}
