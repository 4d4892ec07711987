"""What online play says: the status line's brackets, the messages
not taken (loaded only when said)."""

from attila.game.rules import SIDE_NAMES
from attila.online.party import CONNECTING, COUNT_NAMES, MINUTE_MS, OFFLINE, UNKNOWN
from attila.ticks import ticks_diff

UNDONE = "UNDO: both boards have this action: it cannot be taken back online"


def words(party):
    """What a party adds to the status line: an UNDO just refused, then the
    link, the boards in the room, a disagreement ('': nothing)."""
    more = _state(party)
    if not party.refusing():
        return more
    return UNDONE + "; " + more if more else UNDONE


def _state(p):
    them = "the %s' board" % SIDE_NAMES[p.other]
    if p.conflict:
        return p.conflict
    if not p.linked:
        waits = p.why == CONNECTING or p.why.startswith("joining")  # (nothing failed yet)
        return "online: %s" % p.why + ("" if waits else "; trying again")
    seats = p.seats
    if seats.twin:
        return "another board plays the %s in this room: not played on until one of the " \
            "two leaves it" % SIDE_NAMES[p.side]
    if p.theirs > p.number:
        return "%s started a new game: start one here too (hold MENU)" % them
    if seats.crowd:
        return "two boards play the %s in this room: not played on until one of the two " \
            "leaves it" % SIDE_NAMES[p.other]
    if p.presence == UNKNOWN:
        return "waiting for %s to join room %s" % (them, p.room)
    if p.presence == OFFLINE:
        minutes = ticks_diff(p.now, p.since) // MINUTE_MS
        return "%s offline%s: waiting" % (them, " for %d min" % minutes if minutes else "")
    return ""


def counted(party):
    """The counts of messages not taken, in words ('' when none)."""
    out = []
    for k in range(len(COUNT_NAMES)):
        if party.counts[k]:
            out.append("%d %s" % (party.counts[k], COUNT_NAMES[k]))
    return ", ".join(out)
