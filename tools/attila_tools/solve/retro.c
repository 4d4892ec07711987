/* Retrograde solver kernel for Attila: every play position of one layout.
 *
 * Built by `make` into tools/attila_tools/_retro.so and driven from Python
 * through ctypes (tools/attila_tools/retro.py); the pure Python reference is
 * tools/attila_tools/retro_ref.py and must give the very same table.
 *
 * A play position is (A, B, S): A the three knights of the side to move,
 * B the other side's three, S the scorched squares among the m = n - 6
 * squares without a knight. A turn removes one free square, so positions
 * fall into layers by |S| and every turn leads to the layer below (one more
 * scorched square). A position is won when some move and scorch lead to a
 * lost one; with no move it is lost.
 *
 * Table: one bit per position (1 = won for the side to move). The knight
 * placement (A, B) picks a row of `words` 64-bit words (B-major:
 * rank3(B) * C(n-3,3) + rank3(A among the squares not in B)); inside the row
 * the entry is S as a bit index over the row's m non-knight squares, in
 * square order (entry e: bit e & 63 of word e >> 6).
 *
 * One pass per layer s (m-1 down to 0). The pass walks the children C =
 * (B, A') of layer s+1 and pushes to their parents P = (A'-b+a, B), i.e.
 * takes the last move b <- a back. Two bit-parallel steps per child:
 *   won-after-scorch  W(U) = exists c not in U: C lost at U+c
 *   push              P won at S |= W(S seen from C), for S without b,
 * where seeing S from C drops b's index bit and inserts a's (both squares
 * are free in S). Block B of the table (all parents with B as the side
 * not to move) is written by one thread only, and the children's layer s+1
 * bits are final, so threads share nothing but relaxed word loads.
 */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define MAXN 22
#define MAXW (1 << (MAXN - 6 - 6))

/* M[k]: the bits of a word whose index has bit k clear. */
static const u64 M[6] = {
    0x5555555555555555ULL, 0x3333333333333333ULL, 0x0f0f0f0f0f0f0f0fULL,
    0x00ff00ff00ff00ffULL, 0x0000ffff0000ffffULL, 0x00000000ffffffffULL,
};

static u64 BINOM[MAXN + 1][4];

struct retro {
    int n, m, words, threads;
    uint32_t all;
    uint32_t knight[MAXN];
    long ntrip, nrest; /* C(n,3), C(n-3,3) */
    uint32_t *trip_n;  /* the 3-subsets of n squares, by rank */
    uint32_t *trip_r;  /* the 3-subsets of n-3 places, by rank */
    u64 *table;
    u64 layer_mask[7]; /* in-word entries by popcount, valid entries only */
    /* one pass */
    int s;
    int nwin;
    uint16_t win[MAXW];  /* words holding entries of layer s */
    u64 win_mask[MAXW];  /* their layer-s entries */
    long next_block;
    long done;
};

static inline int pop(u64 x) { return __builtin_popcountll(x); }
static inline int ctz(u64 x) { return __builtin_ctzll(x); }

static inline u64 load(const u64 *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void store(u64 *p, u64 v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

static inline long rank3(uint32_t m) {
    int x = ctz(m);
    m &= m - 1;
    int y = ctz(m);
    m &= m - 1;
    int z = ctz(m);
    return (long)(BINOM[x][1] + BINOM[y][2] + BINOM[z][3]);
}

/* The bits of a renumbered over the squares not in b. */
static inline uint32_t squeeze(uint32_t a, uint32_t b) {
    uint32_t out = 0;
    while (a) {
        int i = ctz(a);
        a &= a - 1;
        out |= 1u << (i - pop(b & ((1u << i) - 1)));
    }
    return out;
}

/* Entries of a word with index bit q clear, packed into the low 32 bits. */
static inline u64 compact(u64 x, int q) {
    x &= M[q];
    for (int k = q; k < 5; k++) x = (x | (x >> (1 << k))) & M[k + 1];
    return x;
}

/* The inverse: 32 entries spread to the places with index bit p clear. */
static inline u64 spread(u64 y, int p) {
    y &= M[5];
    for (int k = 4; k >= p; k--) y = (y | (y << (1 << k))) & M[k];
    return y;
}

static inline unsigned drop_bit(unsigned h, int k) {
    return (h & ((1u << k) - 1)) | ((h >> (k + 1)) << k);
}

static inline unsigned insert0(unsigned r, int k) {
    return (r & ((1u << k) - 1)) | ((r >> k) << (k + 1));
}

static void fill_triples(uint32_t *out, int u) {
    long r = 0;
    /* colex order: rank = C(x,1) + C(y,2) + C(z,3) */
    for (int z = 2; z < u; z++)
        for (int y = 1; y < z; y++)
            for (int x = 0; x < y; x++) {
                uint32_t m = (1u << x) | (1u << y) | (1u << z);
                out[rank3(m)] = m;
                r++;
            }
    (void)r;
}

struct unmove {
    long parent;
    int p, q;
};

/* The won-after-scorch words of child row t, layer-s words only. */
static void after_scorch(const struct retro *R, const u64 *t, u64 *w) {
    int m = R->m, inword = m < 6 ? m : 6;
    for (int i = 0; i < R->nwin; i++) {
        unsigned h = R->win[i];
        u64 lost = ~load(t + h), acc = 0;
        for (int j = 0; j < inword; j++) acc |= (lost >> (1 << j)) & M[j];
        for (int j = 6; j < m; j++) {
            unsigned bit = 1u << (j - 6);
            if (!(h & bit)) acc |= ~load(t + (h | bit));
        }
        w[h] = acc;
    }
}

/* Parent row |= the child's won-after-scorch entries seen from the parent. */
static void push(const struct retro *R, const u64 *w, u64 *row, int p, int q) {
    for (int i = 0; i < R->nwin; i++) {
        unsigned h = R->win[i];
        u64 v;
        if (p >= 6) {
            if (h >> (p - 6) & 1) continue; /* b scorched: no such parent */
            unsigned r = drop_bit(h, p - 6);
            if (q >= 6)
                v = w[insert0(r, q - 6)];
            else
                v = compact(w[2 * r], q) | compact(w[2 * r + 1], q) << 32;
        } else {
            u64 half;
            if (q >= 6)
                half = w[insert0(h >> 1, q - 6)] >> (32 * (h & 1));
            else
                half = compact(w[h], q);
            v = spread(half, p);
        }
        v &= R->win_mask[i];
        if (v) store(row + h, load(row + h) | v);
    }
}

static void *worker(void *arg) {
    struct retro *R = arg;
    int n = R->n;
    u64 *w = calloc((size_t)R->words, sizeof(u64));
    struct unmove *um = malloc(sizeof(struct unmove) * 3 * 8);
    if (!w || !um) {
        free(w);
        free(um);
        return (void *)1;
    }
    for (;;) {
        long bi = __atomic_fetch_add(&R->next_block, 1, __ATOMIC_RELAXED);
        if (bi >= R->ntrip) break;
        uint32_t B = R->trip_n[bi];
        int rest[MAXN], k = 0;
        for (int i = 0; i < n; i++)
            if (!(B >> i & 1)) rest[k++] = i;
        for (long r = 0; r < R->nrest; r++) {
            uint32_t tr = R->trip_r[r], A1 = 0;
            while (tr) {
                A1 |= 1u << rest[ctz(tr)];
                tr &= tr - 1;
            }
            uint32_t NC = R->all & ~(A1 | B);
            int nu = 0;
            for (uint32_t bs = A1; bs; bs &= bs - 1) {
                int b = ctz(bs);
                for (uint32_t as = R->knight[b] & NC; as; as &= as - 1) {
                    int a = ctz(as);
                    uint32_t A = (A1 ^ (1u << b)) | (1u << a);
                    uint32_t NP = R->all & ~(A | B);
                    um[nu].parent = bi * R->nrest + rank3(squeeze(A, B));
                    um[nu].p = pop(NP & ((1u << b) - 1));
                    um[nu].q = pop(NC & ((1u << a) - 1));
                    nu++;
                }
            }
            if (!nu) continue;
            long child = rank3(A1) * R->nrest + rank3(squeeze(B, A1));
            after_scorch(R, R->table + child * R->words, w);
            for (int i = 0; i < nu; i++)
                push(R, w, R->table + um[i].parent * R->words, um[i].p, um[i].q);
        }
        __atomic_fetch_add(&R->done, 1, __ATOMIC_RELAXED);
    }
    free(w);
    free(um);
    return NULL;
}

/* ---- the API (ctypes) ---------------------------------------------------- */

/* A solver for a layout of n squares (knight[i]: jump mask of square i).
 * NULL when n is out of range or the table does not fit in memory. */
struct retro *retro_new(int n, const uint32_t *knight, int threads) {
    if (n < 7 || n > MAXN) return NULL;
    for (int i = 0; i <= MAXN; i++) {
        BINOM[i][0] = 1;
        for (int j = 1; j < 4; j++) BINOM[i][j] = i ? BINOM[i - 1][j - 1] + BINOM[i - 1][j] : 0;
    }
    struct retro *R = calloc(1, sizeof *R);
    if (!R) return NULL;
    R->n = n;
    R->m = n - 6;
    R->words = R->m > 6 ? 1 << (R->m - 6) : 1;
    R->threads = threads < 1 ? 1 : threads;
    R->all = (uint32_t)((1ULL << n) - 1);
    memcpy(R->knight, knight, sizeof(uint32_t) * (size_t)n);
    R->ntrip = (long)BINOM[n][3];
    R->nrest = (long)BINOM[n - 3][3];
    R->trip_n = malloc(sizeof(uint32_t) * (size_t)R->ntrip);
    R->trip_r = malloc(sizeof(uint32_t) * (size_t)R->nrest);
    R->table = calloc((size_t)R->ntrip * (size_t)R->nrest * (size_t)R->words, sizeof(u64));
    if (!R->trip_n || !R->trip_r || !R->table) {
        free(R->trip_n);
        free(R->trip_r);
        free(R->table);
        free(R);
        return NULL;
    }
    fill_triples(R->trip_n, n);
    fill_triples(R->trip_r, n - 3);
    u64 valid = R->m >= 6 ? ~0ULL : (1ULL << (1 << R->m)) - 1;
    for (int c = 0; c <= 6; c++) {
        u64 mask = 0;
        for (int b = 0; b < 64; b++)
            if (pop((u64)b) == c) mask |= 1ULL << b;
        R->layer_mask[c] = mask & valid;
    }
    return R;
}

void retro_free(struct retro *R) {
    if (!R) return;
    free(R->trip_n);
    free(R->trip_r);
    free(R->table);
    free(R);
}

u64 *retro_table(struct retro *R) { return R->table; }

long long retro_words(struct retro *R) {
    return (long long)R->ntrip * R->nrest * R->words;
}

/* Blocks finished in the running pass (of ntrip = C(n,3)). */
long retro_done(struct retro *R) { return __atomic_load_n(&R->done, __ATOMIC_RELAXED); }

/* Solve layer s from layer s+1. 0 on success. */
int retro_pass(struct retro *R, int s) {
    if (s < 0 || s >= R->m) return -1;
    R->s = s;
    R->nwin = 0;
    for (int h = 0; h < R->words; h++) {
        int c = s - pop((u64)h);
        if (c < 0 || c > 6 || !R->layer_mask[c]) continue;
        R->win[R->nwin] = (uint16_t)h;
        R->win_mask[R->nwin] = R->layer_mask[c];
        R->nwin++;
    }
    R->next_block = 0;
    R->done = 0;
    pthread_t tid[64];
    int nt = R->threads > 64 ? 64 : R->threads, started = 0, bad = 0;
    for (int i = 1; i < nt; i++) {
        if (pthread_create(&tid[started], NULL, worker, R)) break;
        started++;
    }
    if (worker(R)) bad = 1;
    for (int i = 0; i < started; i++) {
        void *ret;
        pthread_join(tid[i], &ret);
        if (ret) bad = 1;
    }
    return bad || R->next_block < R->ntrip ? -2 : 0;
}
