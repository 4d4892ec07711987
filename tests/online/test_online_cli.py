"""`attila sim --online ... --text`: the simulator in a terminal plays another
simulator through mosquitto; its options say what is missing."""

import os
import subprocess
import sys
import threading

from netkit import CODE, SimBoard, wait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sim(*args):
    from attila_sim.app import main

    return main(list(args))


def test_online_options_go_together(capsys):
    assert sim("--online", CODE, "--side", "R") == 2
    assert "online play needs --broker HOST[:PORT] too" in capsys.readouterr().err
    assert sim("--online", "castle", "--broker", "h", "--side", "R") == 2
    assert "room code 'castle': expected ROOM-SECRET" in capsys.readouterr().err
    assert sim("--online", CODE, "--broker", "h", "--side", "R", "--computer", "H") == 2
    assert "--computer and --online do not go together" in capsys.readouterr().err


def test_the_terminal_plays_a_simulator(broker, tmp_path):
    romans = SimBoard(broker, 0)
    proc = subprocess.Popen(
        [sys.executable, "-m", "attila_tools.cli", "sim", "--text", "--online", CODE,
         "--broker", "127.0.0.1:%d" % broker.port, "--side", "H", "--save",
         str(tmp_path / "game.txt")],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    said = []
    threading.Thread(target=lambda: said.extend(iter(proc.stdout.readline, "")),
                     daemon=True).start()
    seen = lambda text: any(text in line for line in said)

    def type_in(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    try:
        wait([romans], lambda: romans.party.presence == 1, "the terminal's board joined")
        romans.carry_out("@a1")
        # The terminal's board waits in real time, then says the action and guides it.
        wait([romans], lambda: seen("Romans (their board): put a knight on a1"),
             "the terminal showing @a1")
        type_in("@a1")
        wait([romans], lambda: seen("Huns: place a knight on a lit square (knight 1 of 3)"),
             "the terminal's turn")
        type_in("@e4")
        wait([romans], lambda: romans.shown() == "@e4", "the Romans' board showing @e4")
        romans.carry_out("@e4")
        type_in("quit")
        proc.wait(timeout=60)
        out = "".join(said)
    finally:
        if proc.poll() is None:
            proc.kill()
        romans.close()
    assert "Romans: @a1 (a knight on a1)" in out, out
    assert "Romans (their board): put a knight on a1" in out, out
    assert out.index("Romans: @a1 (a knight on a1)") < out.index(
        "Romans (their board): put a knight on a1"), out
    assert "Huns: place a knight on a lit square (knight 1 of 3)" in out


def test_without_save_the_game_is_kept_where_the_simulator_keeps_games(broker, tmp_path):
    romans = SimBoard(broker, 0)
    command = [sys.executable, "-m", "attila_tools.cli", "sim", "--text", "--online", CODE,
               "--broker", "127.0.0.1:%d" % broker.port, "--side", "H",
               "--layout", os.path.join(ROOT, "boards", "4x5.json")]

    def run(lines, until, first=""):
        """`lines` typed, each once the one before it shows what `until` says,
        the first once the simulator has said `first` (a line typed while the
        other board is awaited is taken at once: the player's hands, before
        the Romans' action has arrived)."""
        proc = subprocess.Popen(command, cwd=str(tmp_path), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        said = []
        threading.Thread(target=lambda: said.extend(iter(proc.stdout.readline, "")),
                         daemon=True).start()
        try:
            wait([romans], lambda: any(first in s for s in said), first or "the simulator")
            for line, seen in zip(lines, until):
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
                wait([romans], lambda: any(seen in s for s in said), seen)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        return "".join(said)

    try:
        wait([romans], lambda: True, "")
        romans.carry_out("@a1")
        out = run(["@a1", "quit"], ["Huns: place a knight", "resumes it"],
                  first="Romans: @a1 (a knight on a1)")
        kept = tmp_path / "games" / "online-castle-H.txt"
        assert "online, the game is kept in games/online-castle-H.txt" in out, out
        assert "the game is kept in games/online-castle-H.txt: the same command resumes it" \
            in out, out
        assert kept.exists() and "@a1" in kept.read_text(), sorted(tmp_path.rglob("*"))
        # The same command again: the game found where it was left.
        out = run(["quit"], ["resumes it"])
        assert "Saved game found" in out, out
    finally:
        romans.close()
