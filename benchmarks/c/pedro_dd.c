/* Baseline for benchmarks/bench_dd.py: a plain C double-dummy alpha-beta for Pedro with a
 * small transposition table, timed on the very positions the numba solver solves.
 *
 * "Plain" on purpose: fail-soft alpha-beta with null windows bisecting [0, points left],
 * simple move ordering (high leads, the cheapest card that beats the other side, else the
 * lowest), a 2^14-entry always-replace table of bounds probed at trick starts, and none
 * of the numba solver's further techniques (equivalent cards, sure bounds, relative-rank
 * keys, history, the unrolled two-trick endgame).
 * It is the yardstick the issue names (about 0.67 ms a position on the reference
 * machine), measured in the same run as the numba solver so the ratio holds on a noisy VM.
 * Its values are written out, and the benchmark checks them against the numba solver's:
 * an independent check of both.
 *
 * Input (little-endian int64 words): n, then per position 72 words: the four hands in the
 * search layout (trumps at bits 48..61 in rank order, plain suits in lanes 0..2), the
 * trump mask, the maximising side's seat mask, the leader, 1 when a trump may be played
 * while able to follow, and the 64 card values.
 *
 *   cc -O2 -march=native -o pedro_dd pedro_dd.c && ./pedro_dd positions.bin values.bin
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORDS 72
#define TT_BITS 14
#define LANE 0xFFFFull

static uint64_t hands[4], tm, side;
static int trump_any, cpts[64];
static long nodes;

typedef struct { uint64_t h[4]; int32_t leader, lo, hi, used; } Entry;
static Entry tt[1u << TT_BITS];

static inline int lsb(uint64_t x) { return __builtin_ctzll(x); }
static inline int popc(uint64_t x) { return __builtin_popcountll(x); }
static inline uint64_t suit_of(int c) {
    uint64_t b = 1ull << c;
    return (b & tm) ? tm : (LANE << (16 * (c >> 4))) & ~tm;
}
static inline int power(int c, uint64_t led) {
    uint64_t b = 1ull << c;
    return (b & tm) ? 100 + c : (b & led) ? c : -1;
}
static inline uint64_t legal(uint64_t h, uint64_t led) {
    if (!led) return h;
    uint64_t f = h & led;
    if (!f) return h;
    if (trump_any && led != tm) f |= h & tm;
    return f;
}
static int points(uint64_t m) {
    int s = 0;
    for (; m; m &= m - 1) s += cpts[lsb(m)];
    return s;
}
static uint64_t hash(int leader) {
    uint64_t x = hands[0] * 0x9E3779B97F4A7C15ull;
    x ^= hands[1] * 0xC2B2AE3D27D4EB4Full + (x >> 29);
    x ^= hands[2] * 0x165667B19E3779F9ull + (x >> 31);
    x ^= hands[3] * 0xD6E8FEB86659FD93ull + (x >> 27);
    x ^= (uint64_t)(leader + 1) * 0xFF51AFD7ED558CCDull;
    return (x ^ (x >> 33)) & ((1u << TT_BITS) - 1);
}

/* Value for ``side`` of the rest of the deal; ``j`` cards of the trick already played. */
static int ab(int leader, int j, int seat, uint64_t led, int bseat, int bpow, int pts,
              uint64_t trick, int alpha, int beta);

static int trick_start(int leader, int alpha, int beta) {
    nodes++;
    if (!(hands[0] | hands[1] | hands[2] | hands[3])) return 0;
    while (!hands[leader]) leader = (leader + 1) & 3;
    Entry *e = &tt[hash(leader)];
    int hit = e->used && e->leader == leader && !memcmp(e->h, hands, sizeof hands);
    if (hit) {
        if (e->lo >= beta || e->lo == e->hi) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
    }
    int v = ab(leader, 0, leader, 0, -1, -1, 0, 0, alpha, beta);
    int lo = v <= alpha ? -1000000 : v, hi = v >= beta ? 1000000 : v;  /* fail-soft bounds */
    if (e->used && e->leader == leader && !memcmp(e->h, hands, sizeof hands)) {
        /* still ours (the search below may have replaced it): merge */
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
    }
    memcpy(e->h, hands, sizeof hands);
    e->leader = leader; e->lo = lo; e->hi = hi; e->used = 1;
    return v;
}

static int ab(int leader, int j, int seat, uint64_t led, int bseat, int bpow, int pts,
              uint64_t trick, int alpha, int beta) {
    while (j < 4 && !hands[seat]) { seat = (seat + 1) & 3; j++; }  /* a short hand is out */
    if (j == 4) {  /* the trick is complete */
        int v = trick_start(bseat, alpha - ((side >> bseat) & 1 ? pts : 0),
                            beta - ((side >> bseat) & 1 ? pts : 0));
        return v + ((side >> bseat) & 1 ? pts : 0);
    }
    nodes++;
    int maxi = (side >> seat) & 1, best = maxi ? -1000000 : 1000000;
    uint64_t h = hands[seat];
    /* ordering: on the lead the highest rank first; following, when the other side is
     * winning, the cheapest card that beats it; otherwise the lowest card */
    int mv[16], sc[16], n = 0;
    int friend = bseat >= 0 && ((side >> bseat) & 1) == ((side >> seat) & 1);
    for (uint64_t m = legal(h, led); m; m &= m - 1) {
        int c = lsb(m), r = c & 15, s;
        if (!led) s = r;
        else if (!friend && power(c, led) > bpow) s = 1000 - power(c, led);
        else s = -r;
        int i = n++;
        while (i > 0 && sc[i - 1] < s) { mv[i] = mv[i - 1]; sc[i] = sc[i - 1]; i--; }
        mv[i] = c; sc[i] = s;
    }
    for (int i = 0; i < n; i++) {
        int c = mv[i];
        uint64_t l2 = led ? led : suit_of(c);
        int p = power(c, l2), bs = bseat, bp = bpow;
        if (p > bp) { bs = seat; bp = p; }
        hands[seat] = h & ~(1ull << c);
        int v = ab(leader, j + 1, (seat + 1) & 3, l2, bs, bp, pts + cpts[c], trick | 1ull << c,
                   alpha, beta);
        hands[seat] = h;
        if (maxi) { if (v > best) best = v; if (best > alpha) alpha = best; }
        else { if (v < best) best = v; if (best < beta) beta = best; }
        if (alpha >= beta) break;
    }
    return best;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: pedro_dd positions.bin values.bin\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    int64_t n;
    if (fread(&n, 8, 1, f) != 1) return 2;
    int64_t *pos = malloc((size_t)n * WORDS * 8);
    if (fread(pos, 8, (size_t)n * WORDS, f) != (size_t)n * WORDS) return 2;
    fclose(f);
    int64_t *out = malloc((size_t)n * 3 * 8);  /* value, nodes, nanoseconds */
    for (int64_t k = 0; k < n; k++) {
        int64_t *p = pos + k * WORDS;
        for (int s = 0; s < 4; s++) hands[s] = (uint64_t)p[s];
        tm = (uint64_t)p[4]; side = (uint64_t)p[5];
        int leader = (int)p[6];
        trump_any = (int)p[7];
        for (int c = 0; c < 64; c++) cpts[c] = (int)p[8 + c];
        memset(tt, 0, sizeof tt);  /* each position solved cold, like the numba benchmark */
        nodes = 0;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        /* null-window bisection (MTD-style) of [0, points left]: each search asks
         * "at least t?" */
        int lo = 0, hi = points(hands[0] | hands[1] | hands[2] | hands[3]);
        while (lo < hi) {
            int t = lo + (hi - lo + 1) / 2, v = trick_start(leader, t - 1, t);
            if (v >= t) lo = v; else hi = v;
        }
        int v = lo;
        clock_gettime(CLOCK_MONOTONIC, &b);
        out[3 * k] = v;
        out[3 * k + 1] = nodes;
        out[3 * k + 2] = (b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec);
    }
    FILE *g = fopen(argv[2], "wb");
    if (!g || fwrite(out, 8, (size_t)n * 3, g) != (size_t)n * 3) { perror(argv[2]); return 2; }
    fclose(g);
    return 0;
}
