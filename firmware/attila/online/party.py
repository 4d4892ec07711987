"""One side of an online game: what this board sends, what it takes, what it says.

A Party follows the controller's game (watch()), sends each whole action
of its own side once, and hands the other side's action to the controller
as its opponent's (attila.online.remote); it never writes to the game.

Why it is built this way: docs/pages/inside/design.md (attila/online/party.py).
"""

from attila.compat import const
from attila.game.notation import in_words
from attila.game.rules import SIDE_NAMES, SIDES
from attila.online import log
from attila.online.message import (ACT, AT, FORGED, MALFORMED, OFF, UNSIGNED, Message,
                                   MessageError, digest, read, room_code)
from attila.online.seats import Seats, is_id, new_id
from attila.ticks import ticks_diff

REPLAYED = const(3)
EARLY = const(4)
COUNT_NAMES = ("malformed", "unsigned", "forged", "replayed", "out of order")

UNKNOWN = const(0)  # the other board not heard of yet
ONLINE = const(1)
OFFLINE = const(2)

MINUTE_MS = const(60000)
KEEPALIVE_S = const(20)  # MQTT keep-alive: silent half again as long, the broker sends our `off`
REFUSED_MS = const(8000)  # an UNDO refused is said this long, or until the game changes
CONNECTING = "connecting to the broker"
STORE_HEAD = "attila-online 1"


class Party:
    """This board's side of the game in a room (code 'ROOM-SECRET', side 0 or 1)."""

    def __init__(self, code, side, store=None, board=""):
        self.room, self._secret = room_code(code)
        self.side = side
        self.other = side ^ 1
        self.store = store
        self.id = board  # this board's id in the room (8 hex digits): kept, or made
        self.number = self._load()  # the room's game number
        self.seats = Seats(self.id)
        self.base = "attila/%s/" % self.room
        self.outbox = []  # type: list  # (topic, payload, retain) for the transport
        self.counts = [0, 0, 0, 0, 0]  # by COUNT_NAMES
        self.taken = 0  # the other side's actions taken
        self.controller = None  # told (touch()) when the words may have changed
        self.pump = None  # the transport's pump(now, wait_ms), for the remote's waits
        self.game = None  # the controller's game last seen
        self.done = -1  # its whole actions then
        self.sent = 0  # our action of this number is out (0: send the last again)
        self.arrived = None  # (game number, action number, text) to play next
        self.ahead = None  # the other side's latest action of a later game (a Message)
        self.theirs = 0  # the highest game number the other side's messages carried
        self.presence = UNKNOWN
        self.since = 0  # when presence changed (our clock)
        self.linked = False  # we reach the broker
        self.why = CONNECTING  # why not, while not linked
        self.conflict = ""  # a disagreement on the position, in words
        self.told = ""  # the other side's last action, said once on one line
        self.told_n = 0  # grows with each new one
        self.now = 0
        self._minutes = -1  # the offline minutes last said
        self._refused = -1  # the game's length when an UNDO was refused (-1: none to say)
        self._refused_at = 0

    # -- the room and its topics -------------------------------------------------

    def topic(self, side, what):
        return self.base + SIDES[side] + "/" + what

    def subscriptions(self):
        """The topic filters this party hears: the other side's messages, and
        where the boards of its own side are."""
        return self.base + SIDES[self.other] + "/#", self.topic(self.side, AT)

    def client_id(self):
        """A client id that stays the same across restarts (the broker keeps
        this board's session, and what it missed), and differs from any other
        board's, even one flashed for the same side."""
        return "attila-%s-%s-%s" % (self.room, SIDES[self.side], self.id)

    def will(self):
        """(topic, payload) the broker sends for us when we drop: `off`."""
        return self.topic(self.side, AT), self._where(OFF)

    # -- what the transport reports ------------------------------------------------

    def connected(self, now):
        """The broker is reached (again): where we are and our last action go
        out again (the broker may have lost them when it restarted)."""
        self.linked = True
        self.why = ""
        self.sent = 0
        self.done = -1  # watch() sends both
        self.now = now
        self._touch()

    def lost(self, now, why):
        """The broker is not reached: `why`, in words ('no broker at HOST:PORT')."""
        self.linked = False
        self.why = why
        self.now = now
        del self.outbox[:]  # sent again once connected
        self._touch()

    def receive(self, topic, payload, now):
        """A message from the broker; True when it was taken."""
        self.now = now
        try:
            m = read(payload, self._secret)
            if m.room != self.room or topic != self.topic(m.side, ACT if m.kind == ACT else AT) \
                    or (m.side == self.side and m.kind == ACT):
                raise MessageError("message: not the other side's message of this room")
        except MessageError as e:
            self.counts[e.why] += 1
            return False
        if m.side == self.side:
            return self._twin(m.kind == AT, m.board)
        if m.game > self.theirs:
            self.theirs = m.game
        if m.kind == ACT:
            return self._act(m)
        self._seen(ONLINE if self.seats.theirs(m.kind == AT, m.board) else OFFLINE, now)
        if m.kind == AT and m.game == self.number and self.game is not None \
                and not self.seats.crowd:
            self._compare(m.number, m.digest)  # (an `off` is where it was when it connected)
        self._touch()
        return True

    # -- the game the controller follows --------------------------------------------

    def attach(self, controller):
        self.controller = controller
        self.watch(controller.game, controller.now)

    def poll(self, now):
        """Once a loop step: follow the controller's game, and say the
        offline minutes as they pass."""
        self.now = now
        if self.controller is not None:
            self.watch(self.controller.game, now)
        if self._refused >= 0 and (ticks_diff(now, self._refused_at) >= REFUSED_MS or
                                   self.game is None or self._refused != len(self.game.history)):
            self._refused = -1
            self._touch()
        if self.presence == OFFLINE:
            minutes = ticks_diff(now, self.since) // MINUTE_MS
            if minutes != self._minutes:
                self._minutes = minutes
                self._touch()

    def watch(self, game, now):
        """The game as the controller has it now: a new game, an action of
        ours to send, one of theirs carried out."""
        if game is not self.game:
            if self.game is not None and self.game.history and not game.history:
                self._new_game()
            self.game = game
            self.done = -1
        n = log.done(game)
        if n == self.done:
            return
        self.done = n
        if n and log.side_of(game, n) == self.side and self.sent != n and self.linked \
                and not self.seats.twin:
            text = log.before(game, n)
            self._send(ACT, n, digest(text[0]), text[1], True)
            self.sent = n
        if self.linked:
            self.outbox.append((self.topic(self.side, AT), self._where(AT), True))
        if self.arrived is not None and self.arrived[1] <= n:
            self.arrived = None  # carried out
        if self.ahead is not None and self.ahead.game == self.number:
            m, self.ahead = self.ahead, None
            self._act(m)

    def action_for(self, game):
        """The other side's action for the game as it stands, or ''."""
        if game is not self.game:
            self.watch(game, self.now)
        a = self.arrived
        if a is None or a[0] != self.number or a[1] != log.done(game) + 1 or self.conflict:
            return ""
        return a[2]

    def kept(self, game):
        """History entries that may not be taken back: every whole action
        (both boards have it, or will)."""
        n = len(game.history)
        return n - 1 if n and game.describe(game.history[-1])[0] not in "@," else n

    def refused(self):
        """UNDO was refused (kept()): said in words a while, not only flashed."""
        self._refused = len(self.game.history) if self.game is not None else 0
        self._refused_at = self.now
        self._touch()

    def refusing(self):
        """True while an UNDO refused is to be said."""
        return self._refused >= 0

    # -- inside -----------------------------------------------------------------------

    def _touch(self):
        if self.controller is not None:
            self.controller.touch()

    def _seen(self, presence, now):
        if presence != self.presence:
            self.presence = presence
            self.since = now
            self._minutes = -1

    def _where(self, kind):
        """Our `at` (or `off`) message: the game, its whole actions, the
        position's hash, this board's id."""
        game = self.game
        if game is None:
            return self._line(Message(kind, self.room, self.side, self.number, 0, "0" * 16,
                                      "", self.id))
        n = log.done(game)
        return self._line(Message(kind, self.room, self.side, self.number, n,
                                  digest(log.before(game, n + 1)[0]), "", self.id))

    def _twin(self, online, board):
        """Another board's `at` or `off` on our side: said; our actions held
        while it is there, sent once it has gone."""
        if self.seats.ours(online, board):
            if not self.seats.twin:
                self.done = -1  # watch() sends what was held
            self._touch()
        return False

    def _line(self, m):
        return m.text(self._secret).encode()

    def _send(self, kind, number, dig, action, retain):
        m = Message(kind, self.room, self.side, self.number, number, dig, action)
        self.outbox.append((self.topic(self.side, ACT if kind == ACT else AT), self._line(m),
                            retain))

    def _act(self, m):
        """The other side's action: taken, or counted, or a disagreement."""
        self._seen(ONLINE, self.now)
        if m.game < self.number:
            self.counts[REPLAYED] += 1
            return False
        if m.game > self.number:
            self.ahead = m  # played once this board starts that game too
            self._touch()
            return False
        game = self.game
        if game is None:
            self.ahead = m
            return False
        n = log.done(game)
        if log.side_of(game, m.number) != self.other:
            self.counts[MALFORMED] += 1
            return False
        if m.number > n + 1:
            self.counts[EARLY] += 1
            return False
        key, ours = log.before(game, m.number)
        if m.number <= n:
            if ours == m.action:
                self.counts[REPLAYED] += 1
                return False
            return self._differ("has %s as action %d, this board %s" % (m.action, m.number, ours))
        if digest(key) != m.digest:
            return self._differ("played %s on another position (action %d)" % (m.action, m.number))
        if not log.legal(log.replayed(game, m.number), m.action):
            return self._differ("sent %s, which the rules refuse here (action %d)"
                                % (m.action, m.number))
        if self.arrived is not None and self.arrived[1] == m.number:
            self.counts[REPLAYED] += 1  # taken already, not carried out yet
            return False
        self.arrived = (self.number, m.number, m.action)
        self.taken += 1
        self.told = in_words(self.other, m.action)
        self.told_n += 1
        self._touch()
        return True

    def _compare(self, number, dig):
        """The other board's `at`: its position against ours after as many actions."""
        game = self.game
        n = log.done(game)
        # It has every action we carried out of its own, and all but our last.
        least = n if n and log.side_of(game, n) == self.other else n - 1
        if number > n + 1 or (number == n + 1 and log.side_of(game, number) == self.side) \
                or number < least:
            self._differ("is at action %d, this board at %d" % (number, n))
        elif number <= n and digest(log.before(game, number + 1)[0]) != dig:
            self._differ("has another position after action %d" % number)

    def _differ(self, what):
        """A disagreement: said on this board (and, by our `at`, on theirs)."""
        words = "the %s' board %s: not played on; start a new game on both boards" % (
            SIDE_NAMES[self.other], what)
        if words != self.conflict:
            self.conflict = words
            self._touch()
        return False

    def _new_game(self):
        """The controller started a new game: the room's next number (or the
        other side's, when it started one already)."""
        self.number = max(self.number + 1, self.theirs)
        self.sent = 0
        self.arrived = None
        self.conflict = ""
        self._keep()

    def _keep(self):
        if self.store is not None:
            try:
                self.store.save("%s\nroom %s\ngame %d\nid %s\n" % (STORE_HEAD, self.room,
                                                                    self.number, self.id))
            except OSError:
                pass  # (the number is found again from the other side's messages)

    def _load(self):
        """The room's game number kept (1 in a room other than the one kept),
        and this board's id (made and kept when the store has none)."""
        number = 1
        text = None
        room = self.room
        if self.store is not None:
            try:
                text = self.store.load()
            except OSError:
                pass
        for line in (text or "").split("\n"):
            if line.startswith("game ") and line[5:].isdigit() and len(line) < 12:
                number = max(1, int(line[5:]))
            elif line.startswith("id ") and is_id(line[3:]) and not is_id(self.id):
                self.id = line[3:]
            elif line.startswith("room "):
                room = line[5:]
        if room != self.room:
            number = 1  # (another room: its own count of games)
        if not is_id(self.id) or room != self.room:
            self.id = self.id if is_id(self.id) else new_id()
            self.number = number
            self._keep()
        return number
