/* Baseline for `bidlab bench`: a plain C Pedro playout doing the same work as the
 * numba kernel under the `random` policy and default rules: deal (counter-based
 * SplitMix64, each card a 16-bit Lemire draw from those left, cards.h), one bidding round, trump, discard to trumps,
 * draw off the top, dealer robs, 6 tricks with uniformly random legal cards,
 * score the 14 points and settle. It exists only to be timed beside the kernel.
 *
 *   cc -O2 -march=native -o pedro_playout pedro_playout.c && ./pedro_playout 2000000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cards.h"

#define TRUMPS (0x3FFFull << 48)
static uint64_t norm_mask(uint64_t m, int t) {
    int lp = (3 - t) * 16 + 3;
    uint64_t tl = (m >> (16 * t)) & 0x1FFF, left = (m >> lp) & 1;
    uint64_t out = ((((tl >> 3) << 4) | (left << 3) | (tl & 7)) << 48);
    for (int s = 0, k = 0; s < 4; s++) if (s != t) {
        uint64_t lane = (m >> (16 * s)) & 0x1FFF;
        if (s == 3 - t) lane &= ~8ull;
        out |= lane << (16 * k++);
    }
    return out;
}

static int play_deal(uint64_t seed, uint64_t index, int *net) {
    int deck[52];  /* the stock, in order, at deck[36..51] */
    uint64_t dctr = stream_key(seed, index, DEAL_STREAM);
    uint64_t pctr = stream_key(seed, index, POLICY_STREAM);
    uint64_t h[4];
    shuffle_cards(&dctr, deal_hands(&dctr, 0x1FFF1FFF1FFF1FFFull, 9, h), deck + 36);
    int dealer = (int)(index & 3), eldest = (dealer + 1) & 3, high = 0, bidder = -1;
    for (int k = 0; k < 4; k++) {
        int seat = (eldest + k) & 3, lowest = high + 1;
        if (lowest > 14) continue;
        int r = (int)uniform(&pctr, 15 - lowest + 1);
        if (r) { high = lowest + r - 1; bidder = seat; }
    }
    int maker = bidder >= 0 ? bidder : dealer, trump = (int)uniform(&pctr, 4);
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
            int c = lsb(nth(legal, (int)uniform(&pctr, popc(legal))));
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
