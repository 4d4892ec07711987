"""What the CPython bench scripts share: paths, the strong level's choices,
seeded positions, judging a turn by the solved game's tables, the 4x5 card.

    from benchkit import LAYOUT, keeps, sample  # (first: the paths)
    from attila.game.rules import Game

Imported first, it puts firmware/ and tools/ on sys.path (reach() adds
another folder, e.g. tests/browser for bench_browser).

A bench script imports what it shares from here (and the emulated chip's
measures from chipkit), never from another bench script: each runs alone
(tools/bench/run.py), and what two of them print stays comparable because
they sample and judge with the same code. The mpy_*.py scripts run under
MicroPython and do not import this module.

Judging: a turn keeps the win when the retrograde tables
(attila_tools.solve.retro, or an opening table at the first turn of play)
say the other side stands lost after it; a share of kept wins is given
with its 95% Wilson interval (asymmetric near 100%).
"""

import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")


def reach(*folder):
    """Put a folder of the repository first on sys.path (once)."""
    path = os.path.join(ROOT, *folder)
    if path not in sys.path:
        sys.path.insert(0, path)


reach("firmware")  # the core, and the ports' main.py
reach("tools")  # attila_tools, the emulated Pico (pico)

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILES = os.path.join(ROOT, "boards", "profiles")
PROFILE = os.path.join(PROFILES, "pico.json")  # the reference profile
TABLE = os.path.join(ROOT, "boards", "solved", "4x5.opening")  # the board's opening table
BOOK = os.path.join(ROOT, "boards", "solved", "4x5.book")  # its setup book
GAME = os.path.join(ROOT, "tests", "pico", "game.txt")  # a whole game, by hand
CARD_DIR = os.path.join(ROOT, "build", "card")
IMAGE_MB = 2048  # the card image's size (sparse)
STAGES = range(14, 0, -1)  # free squares of the 4x5 board's play positions

from attila.opponent.levels import STRONG
from attila.opponent.planner import choose, stats
from attila.game.notation import format_position, parse_position, parse_turn  # noqa: E402
from attila.game.rules import MOVE, OVER, SCORCH, SETUP, Game  # noqa: E402
from attila_tools.squares import bits  # noqa: E402


# -- MicroPython and the strong level's choices ------------------------------

def micropython():
    """The venv's MicroPython unix (make install), or None."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else None


def choices(requests, nodes=None, cpython=False, table=TABLE):
    """[(action text, nodes)] of the strong level at each position text
    (strength_choose.py's requests: "text;level;seed" for another level);
    nodes: a node budget in every stage (None: the board's own); table: the
    opening table's path, or None. MicroPython unix (the viper kernel) when
    there is one and not `cpython`, else the portable kernel here."""
    if not requests:
        return []
    exe = None if cpython else micropython()
    if exe is None:
        return _choices_here(requests, nodes, table)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(requests) + "\n")
        path = f.name
    try:
        script = os.path.join(HERE, "strength_choose.py")
        env = dict(os.environ, MICROPYPATH=FIRMWARE)
        cmd = [exe, script, path, str(nodes) if nodes is not None else "-", table or "-"]
        out = subprocess.run(cmd, env=env, cwd=ROOT, check=True, stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.split()
    finally:
        os.unlink(path)
    got = [(out[k], int(out[k + 1])) for k in range(0, len(out), 2)]
    if len(got) != len(requests):
        raise SystemExit("strength_choose.py answered %d of %d positions"
                         % (len(got), len(requests)))
    return got


def _choices_here(texts, nodes, table):
    from attila.opponent.opening import Opening

    out = []
    opening = None
    for text in texts:
        game = parse_position(text)
        if table and opening is None:
            opening = Opening(open(table, "rb"), game.layout, table)
        action = choose(game, STRONG, budget_ms=10 ** 9, nodes=nodes,
                                 card=opening)
        out.append((action, stats()[0]))
    return out


# -- positions ----------------------------------------------------------------

def turns(layout, me, opp, scorched):
    """Every whole turn (a, b, c) of the side `me`, and the position after it."""
    free = layout.all & ~(me | opp | scorched)
    for a in bits(me):
        for b in bits(layout.knight[a] & free):
            me1 = me ^ (1 << a | 1 << b)
            f1 = (free | 1 << a) & ~(1 << b)
            for c in bits(f1):
                yield a, b, c, me1, scorched | 1 << c


def random_setup(rng, layout):
    """A game after a random legal setup (either side placing first)."""
    while True:
        game = Game(layout, rng.randint(0, 1))
        while game.phase == SETUP:
            legal = list(bits(game.placements()))
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase == MOVE:
            return game


def sample(tables, per, seed, won_only=False):
    """{(stage, side to act): [position text, ...]}, per positions each, from
    seeded games: a random setup, then turns in which each side plays a
    random turn or, one time in two, a winning one (won_only: only positions
    the side to act wins)."""
    rng = random.Random(seed)
    layout = tables.layout
    out = {(s, side): [] for s in STAGES for side in (0, 1)}
    todo = len(out)
    while todo:
        game = random_setup(rng, layout)
        stage = rng.choice(STAGES)
        while game.phase == MOVE and bin(game.free()).count("1") > stage:
            side = game.side
            me, opp = game.knights[side], game.knights[side ^ 1]
            options = winning(tables, me, opp, game.scorched) if rng.random() < 0.5 else None
            if not options:
                options = [(a, b, c) for a, b, c, _, _ in turns(layout, me, opp, game.scorched)]
            if not options:
                break
            a, b, c = rng.choice(options)
            game.move(a, b)
            game.scorch(c)
        if game.phase != MOVE or not game.movable():
            continue
        key = (bin(game.free()).count("1"), game.side)
        if won_only and not tables.won(game.knights[game.side], game.knights[game.side ^ 1],
                                       game.scorched):
            continue
        if len(out[key]) < per:
            out[key].append(format_position(game))
            if len(out[key]) == per:
                todo -= 1
    return out


def legal_actions(game):
    """Every legal action of the game, each as a function that takes it (for random games)."""
    out = []
    n = game.layout.size
    if game.phase == SETUP:
        out = [lambda g, i=i: g.place(i) for i in range(n) if game.placements() >> i & 1]
    elif game.phase == MOVE:
        for a in range(n):
            for b in range(n):
                if game.destinations(a) >> b & 1:
                    out.append(lambda g, a=a, b=b: g.move(a, b))
    elif game.phase == SCORCH:
        out = [lambda g, i=i: g.scorch(i) for i in range(n) if game.scorchable() >> i & 1]
    return out


def won_positions(layout, tables, rng, per, most_games=200000):
    """({(free, side): [position text, ...]}, games played): up to `per` won
    positions for each stage and side to act, from random games (either side
    placing first, every action at random)."""
    from attila.errors import AttilaError

    want = {(free, side): [] for free in STAGES for side in (0, 1)}
    games = 0
    while any(len(v) < per for v in want.values()) and games < most_games:
        games += 1
        game = Game(layout, first=rng.randrange(2))
        while game.phase != OVER:
            if game.phase == MOVE:
                me, opp = game.knights[game.side], game.knights[game.side ^ 1]
                key = (bin(game.free()).count("1"), game.side)
                if len(want[key]) < per and tables.won(me, opp, game.scorched):
                    text = format_position(game)
                    try:
                        parse_position(text)
                        want[key].append(text)
                    except AttilaError:
                        pass  # a position the notation refuses (a knight stuck since setup)
            legal = legal_actions(game)
            if not legal:
                break
            rng.choice(legal)(game)
    return want, games


# -- judging by the tables ----------------------------------------------------

def winning(tables, me, opp, scorched):
    """The turns after which the other side is lost."""
    return [(a, b, c) for a, b, c, me1, sc1 in turns(tables.layout, me, opp, scorched)
            if not tables.won(opp, me1, sc1)]


def replies(tables, me, opp, scorched):
    """For each turn of `me`: the opponent's number of winning replies after it."""
    out = {}
    for a, b, c, me1, sc1 in turns(tables.layout, me, opp, scorched):
        out[a, b, c] = tables.winning_turns(opp, me1, sc1)
    return out


def keeps(tables, game, action):
    """True when the turn `action` (text) of the side to act leaves the other
    side lost (tables: the retrograde tables, or an opening table at the
    first turn of play)."""
    side = game.side
    me, opp = game.knights[side], game.knights[side ^ 1]
    a, b, c = parse_turn(game.layout, action)
    return not tables.won(opp, me ^ (1 << a | 1 << b), game.scorched | 1 << c)


def judge(tables, text, action):
    """(won, kept, chosen replies, fewest replies): kept and the replies as they apply."""
    game = parse_position(text)
    side = game.side
    me, opp, sc = game.knights[side], game.knights[side ^ 1], game.scorched
    if tables.won(me, opp, sc):
        return True, keeps(tables, game, action), None, None
    a, b, c = parse_turn(game.layout, action)
    counts = replies(tables, me, opp, sc)
    return False, None, counts[a, b, c], min(counts.values())


def wilson(k, n, z=1.96):
    """The 95% Wilson interval (low, high) of a share k of n."""
    if not n:
        return 0.0, 1.0
    p = float(k) / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, mid - half), min(1.0, mid + half)


# -- the opening table's room (bench_realplay) --------------------------------

def opening_room(table=TABLE):
    """The opening table's sizes and where it fits: a line each for the file,
    the Pico's littlefs with everything `make flash` puts there, and
    CircuitPython's 1 MiB CIRCUITPY with what `attila flash --drive` puts there."""
    import tempfile

    from attila.opponent.opening import BLOCK, FIX, Opening, correction_blocks, reply_blocks
    from attila_tools.board import drive
    from pico import circuitpy
    from pico.board import firmware_files
    from pico.flashimage import BLOCK_COUNT, BLOCK_SIZE, mount, filesystem

    from attila.game.layoutfile import load

    layout = load(LAYOUT)[0]
    with open(table, "rb") as f:
        opening = Opening(f, layout)
        replies = reply_blocks(opening.replies) * BLOCK
        fixes = opening.corrections
    files = firmware_files(LAYOUT, PROFILE, out_dir=tempfile.mkdtemp(prefix="realplay-mpy-"))
    used = mount(filesystem(files)).used_block_count
    lines = ["opening table %s bytes: its reply table %s (the board's first turn as the second "
             "player), its corrections %s (%s records of %d bytes: the board's second turn)"
             % (format(os.path.getsize(table), ","), format(replies, ","),
                format(correction_blocks(fixes) * BLOCK, ","), format(fixes, ","), FIX),
             "the Pico's littlefs keeps %d KB free of 1,408 with all that make flash puts there"
             % ((BLOCK_COUNT - used) * BLOCK_SIZE // 1024)]
    why = circuitpy.available()
    if why:
        lines.append("CIRCUITPY: not measured (%s)" % why)
        return lines
    cp = os.path.join(PROFILES, "circuitpython-pico.json")
    planned = drive.plan(LAYOUT, cp, out_dir=tempfile.mkdtemp(prefix="realplay-cp-"))
    data = {}
    for dest, src in planned.items():
        with open(src, "rb") as f:
            data[dest] = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "fat.img")
        with open(img, "wb") as f:
            f.write(circuitpy.volume(data))
        listing = circuitpy.mtools(["mdir", "-/", "-a", "::"], img).decode()
    free = [x for x in listing.splitlines() if x.strip().endswith("bytes free")][-1]
    lines.append("CircuitPython's CIRCUITPY (1 MiB) keeps %s bytes free with all that attila "
                 "flash --drive puts there (boot_out.txt aside)"
                 % format(int("".join(ch for ch in free if ch.isdigit())), ","))
    return lines


# -- the 4x5 card (pico_card, bench_card) -------------------------------------

def tables_of(layout):
    """The retrograde tables, solved first if missing (with progress)."""
    from attila_tools.solve import retro

    return retro.Tables.load(layout, solve_missing=True, threads=2,
                             progress=retro.Progress(1, label="4x5 tables"))


def load_tables(layout):
    from attila_tools.solve import retro

    return retro.Tables.load(layout, solve_missing=False)


def card_folder(layout, tables):
    """build/card/4x5-KEY/: the folder `attila card` writes for 4x5 (made once)."""
    from attila_tools.solve import retro
    from attila_tools.solve.card_cmd import write_card

    folder = os.path.join(CARD_DIR, "4x5-%s" % retro.layout_key(layout))
    card = os.path.join(folder, "attila.tbl")
    if not os.path.exists(card):
        os.makedirs(folder, exist_ok=True)
        t0 = time.perf_counter()
        write_card(tables, card, retro.Progress(1, label="attila card"))
        print("attila card 4x5: %s bytes in %.0f s"
              % (format(os.path.getsize(card), ","), time.perf_counter() - t0))
    return folder


def card_image(layout, tables):
    """build/card/4x5-KEY.img: a FAT32 image holding the 4x5 card (made once)."""
    folder = card_folder(layout, tables)
    image = folder + ".img"
    if os.path.exists(image):
        return image
    part = image + ".part"
    with open(part, "wb") as f:
        f.truncate(IMAGE_MB << 20)
    subprocess.run(["mformat", "-i", part, "-F", "-c", "8", "::"], check=True)  # 4 KB clusters
    subprocess.run(["mcopy", "-i", part, os.path.join(folder, "attila.tbl"), "::attila.tbl"],
                   check=True)
    os.replace(part, image)
    return image
