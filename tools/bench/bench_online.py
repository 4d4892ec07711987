"""Online play through a real mosquitto on loopback: what a game sends, how fast
an action reaches the other board's LEDs, and many rooms on one broker.

    python tools/bench/bench_online.py      (make bench runs it)

  per game        messages and payload bytes both boards publish in a whole
                  game (the simulator's parties, paho-mqtt, QoS 1), and what
                  the broker delivers to them
  action -> LEDs  from the moment one simulator's player has carried out an
                  action (the board accepted it and its party published it)
                  to the other simulator's LED strip showing it, through the
                  broker: median and 99th percentile
  many rooms      ROOMS rooms of two parties each (paho clients, one
                  connection a party) play whole games at once on one
                  mosquitto: the time for all of them, each action's delivery
                  from publish to the other party's taking it (median, p99),
                  the broker's CPU time and its peak memory
  network down    a board on MicroPython's unix port (main.py, the port's
                  online.py and mqtt.py, its socket as a Pico W's:
                  tests/online/lwipsocket.py) reaches the broker through a
                  proxy (tests/online/proxykit.py) that fails: the longest
                  loop step (from one step's start to the next's; the
                  profile's watchdog resets a board after 5 s without one)
                  while the network is up, while the broker's message stops
                  mid-way until the board is back, while the broker takes
                  the connection and never answers, and while nothing
                  listens

Needs mosquitto (Debian's package); says so and exits 0 where it is missing.
"""

import os
import statistics
import sys
import tempfile
import time

from benchkit import ROOT, reach  # (first: the paths)

reach("tools")
reach("tests", "online")
from broker.mosquitto import Mosquitto, binary  # noqa: E402

GAMES = int(os.environ.get("BENCH_ONLINE_GAMES", "6"))
ROOMS = int(os.environ.get("BENCH_ONLINE_ROOMS", "500"))  # 1,000 parties
DEADLINE_S = 300


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def ms(values):
    return "median %.1f ms, p99 %.1f ms (%d actions)" % (
        statistics.median(values) * 1000, pct(values, 99) * 1000, len(values))


def games(broker):
    """(messages, bytes, received, received bytes) per game, and the latencies."""
    from attila.game.rules import OVER
    from attila.play.plan import first_action
    from netkit import SimBoard, wait

    sent = []
    latencies = []
    for k in range(GAMES):
        code = "bench%d-7fk2m9xq" % k
        boards = [SimBoard(broker, 0, code=code), SimBoard(broker, 1, code=code)]
        wait(boards, lambda: all(b.party.presence == 1 for b in boards), "both joined")
        while boards[0].c.game.phase != OVER:
            for me, other in ((boards[0], boards[1]), (boards[1], boards[0])):
                game = me.c.game
                if game.phase == OVER or game.side != me.party.side:
                    continue
                wait(boards, lambda: not me.c.busy(), "a board ready")
                text = first_action(game)
                writes = other.rig.board.writes
                me.carry_out(text)
                t0 = time.perf_counter()
                wait(boards, lambda: other.shown() == text and other.rig.board.writes > writes,
                     "the other board showing %s" % text)
                latencies.append(time.perf_counter() - t0)
                other.carry_out(text)
        sent.append([sum(b.link.sent for b in boards), sum(b.link.sent_bytes for b in boards),
                     sum(b.link.received for b in boards),
                     sum(b.link.received_bytes for b in boards)])
        for b in boards:
            b.close()
    return [statistics.mean(col) for col in zip(*sent)], latencies


def broker_use(pid):
    """(CPU seconds, peak resident KB) of a process, from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    peak = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    return cpu, peak


PER_PROCESS = 100  # rooms a process plays (paho waits with select(): 1,024 sockets at most)


def rooms(broker):
    """Every room plays a whole game at once, PER_PROCESS rooms a process:
    (seconds from the start until the last game ended, latencies, messages,
    the longest a process took for its parties to join)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    start = time.time()  # (the processes' clocks: wall time)
    workers = [ctx.Process(target=_rooms_worker, args=(broker.port, first,
                                                       min(PER_PROCESS, ROOMS - first), results))
               for first in range(0, ROOMS, PER_PROCESS)]
    for w in workers:
        w.start()
    got = [results.get(timeout=DEADLINE_S) for _ in workers]
    for w in workers:
        w.join()
    failed = [r for r in got if isinstance(r, str)]
    if failed:
        raise SystemExit("bench_online: " + failed[0])
    return (max(r[0] for r in got) - start, [x for r in got for x in r[1]],
            sum(r[2] for r in got), max(r[3] for r in got))


def _rooms_worker(port, first, count, results):
    try:
        results.put(_play_rooms(port, first, count))
    except BaseException as e:  # (the parent says it)
        results.put("rooms %d..%d: %s" % (first, first + count - 1, e))


def _play_rooms(port, first, count):
    """Rooms first..first+count-1 play whole games; (seconds, latencies, messages, join s)."""
    from attila.game.geometry import from_rows
    from attila.game.notation import play
    from attila.game.rules import OVER, Game
    from attila.online.log import done
    from attila.online.party import Party
    from attila.play.plan import first_action
    from attila.saves.store import MemoryStore
    from attila_sim.online import Link

    layout = from_rows(["....."] * 4)
    parties = []
    for k in range(first, first + count):
        for side in (0, 1):
            p = Party("room%d-7fk2m9xq" % k, side, MemoryStore())
            game = Game(layout)
            p.watch(game, 0)
            link = Link(p, "127.0.0.1:%d" % port)
            parties.append([p, game, link, None])  # None: when our last action went out
    start = time.perf_counter()
    end = start + DEADLINE_S
    while not all(p.linked and p.presence == 1 for p, _g, _l, _t in parties):
        for p, game, link, _t in parties:
            p.watch(game, 0)  # (no controller here: the bench hands the party its game)
            link.pump(0)
        if time.perf_counter() > end:
            raise SystemExit("the parties did not all join in %d s" % DEADLINE_S)
        time.sleep(0.01)
    joined = time.perf_counter()
    latencies = []
    sent = {}  # (room, number) -> when it was published
    left = len(parties)
    while left:
        left = 0
        busy = False
        for k, entry in enumerate(parties):
            p, game, link, _t = entry
            mine = game.phase != OVER and game.side == p.side
            left += game.phase != OVER
            if not mine and not link.events:
                continue  # nothing arrived, nothing to do: the next party
            busy = True
            now = int((time.perf_counter() - start) * 1000)
            p.watch(game, now)
            link.pump(now)
            if game.phase == OVER:
                continue
            if mine:
                play(game, first_action(game))
                p.watch(game, now)
                link.pump(now)
                sent[(k // 2, done(game))] = time.perf_counter()
            else:
                text = p.action_for(game)
                if text:
                    latencies.append(time.perf_counter() - sent[(k // 2, done(game) + 1)])
                    play(game, text)
                    p.watch(game, now)
        if time.perf_counter() > end:
            raise SystemExit("%d parties still playing after %d s" % (left, DEADLINE_S))
        if not busy:
            time.sleep(0.0005)  # (nothing came: paho's threads and the other processes' turn)
    finished = time.time()
    messages = sum(link.sent for _p, _g, link, _t in parties)
    for _p, _g, link, _t in parties:
        link.client.disconnect()  # (paho's threads are daemons: they end with the process)
    return finished, latencies, messages, joined - start


DOWN_S = 15  # how long each failure lasts


def down(broker):
    """The board's longest loop step (ms) in each state of the network."""
    from netkit import SimBoard, wait
    from proxykit import Proxy
    from unixboard import UnixBoard, flashed

    folder = tempfile.mkdtemp()
    proxy = Proxy(broker.port)
    board = UnixBoard(os.path.join(folder, "board"), flashed(os.path.join(folder, "fw")),
                      proxy.port, 1)
    sim = SimBoard(broker, 0)
    board.others.append(sim)
    out = []
    try:
        board.start()
        board.wait_status(r"^Romans \(their board\): thinking\.\.\.$", "the board online")
        board.ask("steps")
        _for(board, DOWN_S)
        out.append(("the network up, the board waiting for the other's action",
                    int(board.ask("steps"))))
        proxy.cut()
        sim.carry_out("@a1")
        proxy.wait_cut()
        board.ask("steps")
        board.wait_status(r"^Romans \(their board\): put a knight on a1", "the board back",
                          deadline_s=60)
        out.append(("a message cut mid-way, until the board is back with it",
                    int(board.ask("steps"))))
        proxy.mute()
        proxy.drop()
        board.wait_status(r"no answer in", "the silent broker said", deadline_s=60)
        board.ask("steps")
        _for(board, DOWN_S)
        out.append(("a broker that takes the connection and never answers",
                    int(board.ask("steps"))))
        proxy.close()
        board.wait_status(r"nothing listens there", "the broker gone", deadline_s=60)
        board.ask("steps")
        _for(board, DOWN_S)
        out.append(("nothing listening at the broker's address", int(board.ask("steps"))))
    finally:
        board.kill()
        sim.close()
        proxy.close()
    return out


def _for(board, seconds):
    """`seconds` of real time, the simulator's loop stepped meanwhile (the
    board runs by itself)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for other in board.others:
            other.step()
        time.sleep(0.005)


def main():
    if binary() is None:
        print("mosquitto is not installed (Debian: apt-get install mosquitto): nothing measured")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        with Mosquitto(os.path.join(folder, "broker"), ws=False) as broker:
            version = os.popen("%s -h 2>&1" % binary()).read().split("\n")[0].strip()
            print("Eclipse Mosquitto (%s) on 127.0.0.1, every message QoS 1, the parties' "
                  "state retained; this machine: %d cores." % (version, os.cpu_count()))
            (msgs, size, got, got_size), latencies = games(broker)
            print("per game (simulator against simulator, %d whole games, the plainest "
                  "players):" % GAMES)
            print("  published %.0f messages, %.0f bytes of payload (%.0f bytes a message); "
                  "delivered %.0f messages, %.0f bytes" % (msgs, size, size / msgs, got,
                                                          got_size))
            print("action -> the other board's LEDs: %s" % ms(latencies))
        with Mosquitto(os.path.join(folder, "many"), ws=False) as broker:
            took, delivered, messages, joining = rooms(broker)
            cpu, peak = broker_use(broker.proc.pid)
            print("%d rooms at once (%d parties, one connection each) on one mosquitto:"
                  % (ROOMS, 2 * ROOMS))
            print("  %d processes of %d rooms; all joined within %.1f s; every game played "
                  "out %.1f s after the start (%d messages published, %.0f a second)"
                  % ((ROOMS + PER_PROCESS - 1) // PER_PROCESS, PER_PROCESS, joining, took,
                     messages, messages / took))
            print("  each action, publish -> the other party takes it: %s" % ms(delivered))
            print("  the broker: %.1f s of CPU, %.1f MB at its peak" % (cpu, peak / 1024.0))
        with Mosquitto(os.path.join(folder, "down"), ws=False) as broker:
            print("a board (MicroPython's unix port, its socket as a Pico W's) whose network "
                  "fails, %d s each; its longest loop step (10 ms loop):" % DOWN_S)
            for what, longest in down(broker):
                print("  %s: %d ms" % (what, longest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
