/* Baseline for `bidlab bench`: a plain C Pedro playout doing the same work as the
 * numba kernel under the `random` policy and default rules: deal (counter-based
 * SplitMix64, each card a 16-bit Lemire draw from those left, cards.h), one bidding
 * round, trump, discard to trumps, draw off the top, dealer robs, 6 tricks with uniformly
 * random legal cards, score the 14 points and settle. It exists only to be timed beside
 * the kernel.
 *
 * Built with -DSPEED_FIRST it drops bidlab's streams for the cheapest sound choices a C
 * programmer would make: two 32-bit draws from each hash and a Fisher-Yates deal of a
 * byte array. Its deals are then not bidlab's (the checksums differ); it measures how
 * much of the time the reproducible streams cost.
 *
 *   cc -O2 -march=native [-DSPEED_FIRST] -o pedro_playout pedro_playout.c
 *   ./pedro_playout 2000000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef SPEED_FIRST  /* cards.h's random_card/random_subset draw with these */
typedef struct { uint64_t ctr, spare; int have; } fast_rng;  /* spare: an unused half */
static inline uint32_t fast_draw(fast_rng *r, uint32_t n);
#define POLICY_RNG fast_rng
#define POLICY_DRAW fast_draw
#endif

#include "cards.h"

#ifdef SPEED_FIRST
static inline uint32_t fast_bits(fast_rng *r) {
    if (r->have) { r->have = 0; return (uint32_t)(r->spare >> 32); }
    r->ctr += GOLDEN;
    r->spare = mix64(r->ctr);
    r->have = 1;
    return (uint32_t)r->spare;
}
static inline uint32_t fast_draw(fast_rng *r, uint32_t n) {  /* Lemire, exact */
    uint64_t m = (uint64_t)fast_bits(r) * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (-n) % n;
        while ((uint32_t)m < threshold) m = (uint64_t)fast_bits(r) * n;
    }
    return (uint32_t)(m >> 32);
}
/* Nine cards to each hand and the stock in order at stock[0..15], one stream for all. */
static const uint8_t DECK[52] = {
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27, 28, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 48, 49, 50, 51, 52, 53, 54, 55, 56,
    57, 58, 59, 60};
static inline void deal(uint64_t seed, uint64_t index, fast_rng *r, uint64_t h[4], int *stock) {
    uint8_t d[52];
    __builtin_memcpy(d, DECK, 52);
    r->ctr = stream_key(seed, index, DEAL_STREAM);
    r->have = 0;
    for (int i = 0; i < 51; i++) {
        int j = i + (int)fast_draw(r, 52 - i);
        uint8_t t = d[i]; d[i] = d[j]; d[j] = t;
    }
    for (int s = 0; s < 4; s++) {
        h[s] = 0;
        for (int k = 0; k < 9; k++) h[s] |= 1ull << d[9 * s + k];
    }
    for (int j = 0; j < 16; j++) stock[j] = d[36 + j];
}
#else
static inline void deal(uint64_t seed, uint64_t index, uint64_t *pctr, uint64_t h[4], int *stock) {
    uint64_t dctr = stream_key(seed, index, DEAL_STREAM);
    shuffle_cards(&dctr, deal_hands(&dctr, 0x1FFF1FFF1FFF1FFFull, 9, h), stock);
    *pctr = stream_key(seed, index, POLICY_STREAM);
}
#endif

#define TRUMPS (0x3FFFull << 48)
static inline uint64_t norm_mask(uint64_t m, int t) {  /* branch-free, as _pedro_core */
    int lp = (3 - t) * 16 + 3, left_lane = 3 - t - (3 - t > t);
    uint64_t tl = (m >> (16 * t)) & 0x1FFF, left = (m >> lp) & 1;
    uint64_t out = ((((tl >> 3) << 4) | (left << 3) | (tl & 7)) << 48);
    uint64_t below = (1ull << (16 * t)) - 1;  /* the lanes under the trump lane */
    uint64_t plain = ((m & below) | ((m >> 16) & ~below)) & 0x1FFF1FFF1FFFull;
    return out | (plain & ~(1ull << (16 * left_lane + 3)));
}

static int play_deal(uint64_t seed, uint64_t index, int *net) {
    int deck[52];  /* the stock, in order, at deck[36..51] */
    POLICY_RNG pctr;  /* speed-first: the deal's stream goes on into the policy's */
    uint64_t h[4];
    deal(seed, index, &pctr, h, deck + 36);
    int dealer = (int)(index & 3), eldest = (dealer + 1) & 3, high = 0, bidder = -1;
    for (int k = 0; k < 4; k++) {
        int seat = (eldest + k) & 3, lowest = high + 1;
        if (lowest > 14) continue;
        int r = (int)POLICY_DRAW(&pctr, 15 - lowest + 1);
        if (r) { high = lowest + r - 1; bidder = seat; }
    }
    int maker = bidder >= 0 ? bidder : dealer, trump = (int)POLICY_DRAW(&pctr, 4);
    for (int s = 0; s < 4; s++) h[s] = norm_mask(h[s], trump);
    int spos = 36;
    for (int k = 0; k < 4; k++) {
        int seat = (eldest + k) & 3;
        uint64_t kept = h[seat] & TRUMPS;
        if (seat == dealer) {
            uint64_t stock = 0;
            for (int j = spos; j < 52; j++) stock |= 1ull << deck[j];
            stock = norm_mask(stock, trump);
            uint64_t pool = kept | (stock & TRUMPS);
            if (popc(pool) > 6) { h[seat] = random_subset(pool, 6, &pctr); continue; }
            int need = 6 - popc(kept), rem = popc(stock);
            if (need > rem) { need = rem; }  /* (short stock: simplified) */
            h[seat] = kept | random_subset(stock, need, &pctr);
        } else {
            if (popc(kept) > 6) kept = random_subset(kept, 6, &pctr);
            int need = 6 - popc(kept);
            if (need > 52 - spos) need = 52 - spos;
            uint64_t got = 0;
            for (int j = spos; j < spos + need; j++) got |= 1ull << deck[j];
            spos += need;
            h[seat] = kept | norm_mask(got, trump);
        }
    }
    uint64_t won[2] = {0, 0};
    int leader = maker;
    for (int t = 0; t < 6; t++) {
        int lead_lane = -1, best = -1, best_seat = -1; uint64_t trick = 0;
        for (int j = 0; j < 4; j++) {
            int seat = (leader + j) & 3; uint64_t hh = h[seat], legal = hh;
            if (!hh) continue;
            if (lead_lane >= 0) {
                uint64_t lm = lead_lane == 3 ? TRUMPS : 0x1FFFull << (16 * lead_lane);
                uint64_t f = hh & lm;
                if (f) legal = f | (hh & TRUMPS);
            }
            int c = lsb(nth(legal, (int)POLICY_DRAW(&pctr, popc(legal))));
            if (lead_lane < 0) lead_lane = c >> 4;
            int st = (c >= 48 || (c >> 4) == lead_lane) ? c : -1;
            if (st > best) { best = st; best_seat = seat; }
            h[seat] = hh & ~(1ull << c); trick |= 1ull << c;
        }
        won[best_seat & 1] |= trick; leader = best_seat;
    }
    /* High and Low to holder/winner, Jack, Game, both Pedros to the winner. */
    static const int bits[6] = {61, 48, 58, 57, 52, 51}, val[6] = {1, 1, 1, 1, 5, 5};
    int p[2] = {0, 0};
    for (int e = 0; e < 6; e++) {
        uint64_t b = 1ull << bits[e];
        if (won[0] & b) p[0] += val[e]; else if (won[1] & b) p[1] += val[e];
    }
    int mt = maker & 1, B = p[mt], O = p[1 - mt];
    *net += (high > 0 && B < high) ? -high : B;
    return B + O;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    struct timespec a, b; int net = 0; long total = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) total += play_deal(1, (uint64_t)i, &net);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    printf("%ld deals %.4f s %.0f deals/s checksum %ld %d\n", n, s, n / s, total, net);
    return 0;
}
