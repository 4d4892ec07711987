"""The opponent's search kernel in viper: attila.opponent.kernel in machine code.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/kernelv.py).
"""

import micropython
from array import array

from attila.compat import const

_DEBRUIJN = const(0x077CB531)  # slot of bit b: (b * _DEBRUIJN >> 27) & 31
_WIN = const(10000)
_INF = const(30000)
_BIAS = const(32768)
# The stack row, as in attila.opponent.search.
_NODES = const(0)
_PAUSE = const(1)
_SP = const(2)
_CUT = const(3)
_RESULT = const(4)
_WIDTH = const(5)
_H = const(6)
_ME = const(0)
_OPP = const(1)
_FREE = const(2)
_TILES = const(3)
_DEPTH = const(4)
_ALPHA = const(5)
_BETA = const(6)
_BEST = const(7)
_STATE = const(8)
_N = const(9)
_I = const(10)
_OREACH = const(11)
_GROUPS = const(12)
_ME1 = const(13)
_F1 = const(14)
_ORR = const(15)
_MYR = const(16)
_QUIET = const(17)
_ISO = const(18)
_BAD = const(19)
_G = const(20)
_CS = const(21)
_FW = const(22)
_STARTS = const(13)
_ENDS = const(14)
_NEW_PLAY = const(0)
_NEW_SETUP = const(1)
_PLAY = const(2)
_SETUP = const(3)
_MOVES = const(4)
_SCORCHES = const(5)
_PLACES = const(6)
_ROOT = const(7)
_ROOT_WAIT = const(8)
# The table row: knight masks by slot, then square indices by slot.
_IX = const(32)
MAX_SQUARES = const(30)


def tables(layout):
    """Knight masks by slot, then square indices by slot (the slot of a square's bit)."""
    t = array("i", bytes(4 * 64))
    for i in range(layout.size):
        k = ((1 << i) * _DEBRUIJN >> 27) & 31
        t[k] = layout.knight[i]
        t[_IX + k] = i
    return t


def row(n):
    """A row of n 32-bit ints for the kernel's pointers."""
    return array("i", bytes(4 * n))


def rows(plies, width):
    """The rows of moves, one after the other in one row (ply p from p * width)."""
    return row(plies * width)


@micropython.viper
def turns(S, A, T) -> int:
    """attila.opponent.kernel.turns over raw pointers."""
    s = ptr32(S)
    acts = ptr32(A)
    kn = ptr32(T)
    me = s[_H + _ME]
    opp = s[_H + _OPP]
    free = s[_H + _FREE]
    starts = s[_H + _STARTS]
    ends = s[_H + _ENDS]
    oreach = 0
    m = opp
    while m:
        a = m & -m
        m ^= a
        oreach |= kn[((a * _DEBRUIJN) >> 27) & 31]
    n = 0
    while starts:
        a = starts & -starts
        starts ^= a
        x = ((a * _DEBRUIJN) >> 27) & 31
        d = kn[x] & free & ends
        while d:
            b = d & -d
            d ^= b
            me1 = me ^ a ^ b
            f1 = (free | a) ^ b
            live = f1 | me1 | opp
            cs = 0
            dead = 0
            q = f1
            while q:
                c = q & -q
                q ^= c
                if kn[((c * _DEBRUIJN) >> 27) & 31] & live:
                    cs |= c
                else:
                    dead |= c
            cs |= dead & -dead
            orr = oreach & f1
            head = (1 << 18) | (kn[_IX + x] << 12) | (kn[_IX + (((b * _DEBRUIJN) >> 27) & 31)] << 6)
            q = cs & orr
            while q:
                c = q & -q
                q ^= c
                acts[n] = head | kn[_IX + (((c * _DEBRUIJN) >> 27) & 31)]
                n += 1
            q = cs & ~orr
            while q:
                c = q & -q
                q ^= c
                acts[n] = head | kn[_IX + (((c * _DEBRUIJN) >> 27) & 31)]
                n += 1
    return n


@micropython.viper
def run(S, R, A, T) -> int:
    """attila.opponent.kernel.run over raw pointers."""
    s = ptr32(S)
    r = ptr32(R)
    acts = ptr32(A)
    kn = ptr32(T)
    W = s[_WIDTH]
    nodes = s[_NODES]
    pause = s[_PAUSE]
    sp = s[_SP]
    cut = s[_CUT]
    # Every local is a machine int (viper types a local by its first assignment).
    f = st = me = opp = free = depth = tiles = push = nxt = ev = sgn = v = m = a = b = 0
    c = d = e = o = p = q = x = y = n = i = j = g = row = key = f1 = me1 = orr = 0
    oreach = myr0 = myr = live = quiet = iso = bad = landing = cs = after = 0
    while True:
        f = _H + sp * _FW
        st = s[f + _STATE]
        if st <= _NEW_SETUP:
            nodes += 1
            s[f + _STATE] = st + 2
            if nodes >= pause:
                s[_NODES] = nodes
                s[_SP] = sp
                s[_CUT] = cut
                return 0
            continue
        push = -1
        nxt = 0
        ev = 0
        v = 0
        if st == _SCORCHES:
            cs = s[f + _CS]
            g = s[f + _G]
            while cs == 0 and g < s[f + _GROUPS]:
                if g == 0:
                    cs = s[f + _ORR]
                elif g == 1:
                    cs = s[f + _ISO]
                    cs &= -cs
                elif g == 2:
                    cs = s[f + _QUIET] & ~s[f + _ISO]
                else:
                    cs = s[f + _MYR] & ~s[f + _ORR]
                g += 1
            if cs == 0:
                s[f + _STATE] = _MOVES
                continue
            c = cs & -cs
            s[f + _CS] = cs ^ c
            s[f + _G] = g
            if c & s[f + _BAD]:
                v = _WIN - sp - 2
                sp += 1
            else:
                push = _NEW_PLAY
                me = s[f + _OPP]
                opp = s[f + _ME1]
                free = s[f + _F1] ^ c
                tiles = s[f + _TILES] - 1
        elif st == _MOVES:
            me = s[f + _ME]
            opp = s[f + _OPP]
            free = s[f + _FREE]
            i = s[f + _I]
            if i >= s[f + _N]:
                v = s[f + _BEST] - _BIAS
            else:
                s[f + _I] = i + 1
                x = r[sp * W + i]
                a = 1 << ((x >> 6) & 63)
                b = 1 << (x & 63)
                me1 = me ^ a ^ b
                f1 = (free | a) ^ b
                orr = s[f + _OREACH] & f1
                myr0 = 0
                m = me1
                while m:
                    c = m & -m
                    m ^= c
                    myr0 |= kn[((c * _DEBRUIJN) >> 27) & 31]
                myr = myr0 & f1
                live = f1 | me1 | opp
                quiet = f1 & ~orr & ~myr
                iso = 0
                q = quiet
                while q:
                    c = q & -q
                    q ^= c
                    if (kn[((c * _DEBRUIJN) >> 27) & 31] & live) == 0:
                        iso |= c
                if s[f + _GROUPS] == 2:
                    cut = 1
                    if iso:
                        iso &= -iso
                    elif quiet:
                        iso = quiet & -quiet
                    else:
                        iso = myr & ~orr
                        iso &= -iso
                bad = 0
                landing = 0
                m = opp
                while m:
                    o = m & -m
                    m ^= o
                    d = kn[((o * _DEBRUIJN) >> 27) & 31] & f1
                    while d:
                        p = d & -d
                        d ^= p
                        e = myr0 & ((f1 | o) ^ p)
                        y = e & (e - 1)
                        if y == 0:
                            if landing != 0 and landing != p:
                                bad = f1
                            landing = p
                        elif (y & (y - 1)) == 0:
                            bad |= e
                if landing:
                    bad |= f1 & ~landing
                s[f + _ME1] = me1
                s[f + _F1] = f1
                s[f + _ORR] = orr
                s[f + _MYR] = myr
                s[f + _QUIET] = quiet
                s[f + _ISO] = iso
                s[f + _BAD] = bad
                s[f + _G] = 0
                s[f + _CS] = 0
                s[f + _STATE] = _SCORCHES
                continue
        elif st == _PLAY:
            me = s[f + _ME]
            opp = s[f + _OPP]
            free = s[f + _FREE]
            depth = s[f + _DEPTH]
            tiles = s[f + _TILES]
            if tiles <= 0:
                v = sp - _WIN
            else:
                oreach = 0
                m = opp
                while m:
                    a = m & -m
                    m ^= a
                    oreach |= kn[((a * _DEBRUIJN) >> 27) & 31]
                row = sp * W
                n = 0
                m = me
                while m:
                    a = m & -m
                    m ^= a
                    x = ((a * _DEBRUIJN) >> 27) & 31
                    d = kn[x] & free
                    while d:
                        b = d & -d
                        d ^= b
                        f1 = (free | a) ^ b
                        orr = oreach & f1
                        if (orr & (orr - 1)) == 0:
                            m = 0
                            d = 0
                            n = -1
                        elif depth > 0:
                            y = ((b * _DEBRUIJN) >> 27) & 31
                            key = 15
                            q = orr
                            while q:
                                q &= q - 1
                                key += 16
                            q = kn[y] & f1
                            while q:
                                q &= q - 1
                                key -= 1
                            r[row + n] = (key << 12) | (kn[_IX + x] << 6) | kn[_IX + y]
                            n += 1
                        else:
                            n += 1
                if n < 0 or (n != 0 and tiles == 1):
                    v = _WIN - sp - 1
                elif n == 0:
                    v = sp - _WIN
                elif depth <= 0:
                    ev = 1
                else:
                    x = 0
                    q = free
                    while q:
                        q &= q - 1
                        x += 1
                    if x > tiles:
                        x = tiles
                    if depth >= x:
                        s[f + _GROUPS] = 4
                    else:
                        s[f + _GROUPS] = 2
                    s[f + _OREACH] = oreach
                    nxt = _MOVES
        elif st == _SETUP:
            me = s[f + _ME]
            opp = s[f + _OPP]
            free = s[f + _FREE]
            depth = s[f + _DEPTH]
            # The no-trap rule (attila.game.rules.placement_bits), inline.
            cs = 0
            q = free
            while q:
                c = q & -q
                q ^= c
                after = free ^ c
                if (kn[((c * _DEBRUIJN) >> 27) & 31] & after) == 0:
                    continue
                m = me | opp
                while m:
                    a = m & -m
                    if (kn[((a * _DEBRUIJN) >> 27) & 31] & after) == 0:
                        break
                    m ^= a
                if m == 0:
                    cs |= c
            if cs == 0:
                v = sp - _WIN
            elif depth <= 0:
                ev = 1
            else:
                row = sp * W
                n = 0
                while cs:
                    c = cs & -cs
                    cs ^= c
                    x = ((c * _DEBRUIJN) >> 27) & 31
                    key = 0
                    q = kn[x] & free
                    while q:
                        q &= q - 1
                        key += 4
                    q = kn[x] & opp
                    while q:
                        q &= q - 1
                        key += 6
                    if key < 63:
                        key = 63 - key
                    else:
                        key = 0
                    r[row + n] = (key << 6) | kn[_IX + x]
                    n += 1
                nxt = _PLACES
        elif st == _PLACES or st == _ROOT:
            me = s[f + _ME]
            opp = s[f + _OPP]
            free = s[f + _FREE]
            tiles = s[f + _TILES]
            if st == _ROOT:
                x = acts[s[f + _I]]
                s[f + _STATE] = _ROOT_WAIT
            else:
                i = s[f + _I]
                x = -1
                if i < s[f + _N]:
                    s[f + _I] = i + 1
                    x = r[sp * W + i] & 63
            if x < 0:
                v = s[f + _BEST] - _BIAS
            elif (x >> 18) == 0:
                # A placement; setup goes on until both sides have placed.
                c = 1 << (x & 63)
                me1 = me | c
                me = opp
                opp = me1
                free ^= c
                q = me | opp
                y = 0
                while q:
                    q &= q - 1
                    y += 1
                if y < 6:
                    push = _NEW_SETUP
                else:
                    push = _NEW_PLAY
            else:
                # A turn of the root: a-b, c.
                a = 1 << ((x >> 12) & 63)
                b = 1 << ((x >> 6) & 63)
                c = 1 << (x & 63)
                push = _NEW_PLAY
                me1 = me ^ a ^ b
                me = opp
                opp = me1
                free = ((free | a) ^ b) ^ c
                tiles -= 1
        if nxt:
            # Moves or placements in the row, best first: insertion sort.
            i = row + 1
            while i < row + n:
                y = r[i]
                j = i - 1
                while j >= row and r[j] > y:
                    r[j + 1] = r[j]
                    j -= 1
                r[j + 1] = y
                i += 1
            s[f + _N] = n
            s[f + _I] = 0
            s[f + _BEST] = _BIAS - _INF
            s[f + _STATE] = nxt
            continue
        if ev:
            # The mobility evaluation: exits, knights that can move, a spare exit.
            cut = 1
            v = 6
            sgn = 1
            m = me
            while True:
                while m:
                    a = m & -m
                    m ^= a
                    q = kn[((a * _DEBRUIJN) >> 27) & 31] & free
                    x = 0
                    while q:
                        q &= q - 1
                        x += 1
                    if x:
                        x = 8 * x + 30 + (12 if x > 1 else 0)
                        v += sgn * x
                if sgn < 0:
                    break
                sgn = -1
                m = opp
        if push >= 0:
            c = f + _FW
            s[c + _ME] = me
            s[c + _OPP] = opp
            s[c + _FREE] = free
            s[c + _TILES] = tiles
            s[c + _DEPTH] = s[f + _DEPTH] - 1
            s[c + _ALPHA] = 2 * _BIAS - s[f + _BETA]
            s[c + _BETA] = 2 * _BIAS - s[f + _ALPHA]
            s[c + _STATE] = push
            sp += 1
            continue
        while True:
            sp -= 1
            if sp == 0:
                s[_RESULT] = v + _BIAS
                s[_NODES] = nodes
                s[_SP] = sp
                s[_CUT] = cut
                return 1
            f = _H + sp * _FW
            q = _BIAS - v
            if q > s[f + _BEST]:
                s[f + _BEST] = q
                if q > s[f + _ALPHA]:
                    s[f + _ALPHA] = q
                    if q >= s[f + _BETA]:
                        v = q - _BIAS
                        continue
            break
    return 0
