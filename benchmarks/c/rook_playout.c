/* Baseline for benchmarks/bench_rook.py: a plain C Rook playout doing the same work as
 * the numba kernel (analyzer/games/_rook_engine.py) under the `random` policy and the
 * default rules (`rook` preset). Per hand i: dealer i % 4; deal the 53 cards (52 + the
 * Rook) 13 to each seat and 1 to the widow (counter-based SplitMix64, each card a 16-bit
 * Lemire draw from those left, cards.h); the auction (each call: pass, the lowest legal
 * bid or a uniform legal bid, a third each; bids 70..200 by 5; a pass is final; it ends
 * after three passes; three passes with no bid make the dealer declarer at 70); the
 * declarer takes the widow and drops a uniform card; every seat passes 3 uniform cards
 * (right for even i, left for odd i); a uniform trump among the 4 suits (the Rook is its
 * lowest trump); the declarer picks himself or his left to lead; 13 tricks of uniform
 * legal cards (must follow; the Rook is a trump, so it may not be played to a plain lead
 * by a seat holding that suit); points A15 K10 T10 5s 5, Rook 20, last trick 20, the
 * dropped card to the declarer's team; settle (made: +B, else -bid; opponents +O).
 *
 * The random streams are keyed as in analyzer/rng.py, so hand i of seed 1 is the numba
 * kernel's hand i and the checksums match `rook.run_batch(..., seed=1, random)`. It
 * exists only to be timed beside the kernel.
 *
 *   cc -O2 -march=native -o rook_playout rook_playout.c && ./rook_playout 2000000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cards.h"

/* Card layout: a 16-bit lane per suit C D H S, rank 2 at bit 0 .. A at bit 12; the Rook 63. */
#define ROOK_BIT 63
#define ROOK (1ull << ROOK_BIT)
#define LANE(s) (0x1FFFull << (16 * (s)))
#define COLUMN 0x0001000100010001ull
#define TOTAL 200      /* points in a hand, and the highest bid */
#define LAST_TRICK 20
#define ROOK_POINTS 20

static inline int points_of(uint64_t m) {
    return (m & ROOK ? ROOK_POINTS : 0) + 5 * popc(m & (COLUMN << 3)) + 10 * popc(m & (COLUMN << 8))
         + 10 * popc(m & (COLUMN << 11)) + 15 * popc(m & (COLUMN << 12));
}
static inline int card_points(int c) {
    if (c == ROOK_BIT) return ROOK_POINTS;
    switch (c & 15) { case 3: return 5; case 8: case 11: return 10; case 12: return 15; default: return 0; }
}

/* Hand `index` of `seed`; adds the two teams' scores to score[] and returns their points. */
static int play_hand(uint64_t seed, uint64_t index, long *score) {
    uint64_t dctr = stream_key(seed, index, DEAL_STREAM);
    uint64_t pctr = stream_key(seed, index, POLICY_STREAM);
    int dealer = (int)(index & 3), eldest = (dealer + 1) & 3;

    /* -- deal: 13 cards to each seat from the 53, the one left is the widow -------------- */
    uint64_t h[4];
    int widow = lsb(deal_hands(&dctr, 0x1FFF1FFF1FFF1FFFull | ROOK, 13, h));

    /* -- auction: round and round from eldest, skipping those who passed, to three passes */
    int high = 0, declarer = -1, passed = 0, n_passed = 0, seat = eldest;
    while (n_passed < 3) {
        if (passed >> seat & 1) { seat = (seat + 1) & 3; continue; }
        int lowest = high ? high + 5 : 70, b = 0;
        if (lowest <= TOTAL) {
            uint32_t r = uniform(&pctr, 3);
            if (r == 1) b = lowest;
            else if (r == 2) b = lowest + 5 * (int)uniform(&pctr, (TOTAL - lowest) / 5 + 1);
        }
        if (b) { high = b; declarer = seat; }
        else { passed |= 1 << seat; n_passed++; }
        seat = (seat + 1) & 3;
    }
    if (high == 0) { high = 70; declarer = dealer; }  /* the first three passed */
    int bid = high, decl_team = declarer & 1;

    /* -- widow and drop -------------------------------------------------------------- */
    uint64_t fourteen = h[declarer] | (1ull << widow);
    int drop = random_card(fourteen, &pctr);
    h[declarer] = fourteen & ~(1ull << drop);

    /* -- passing: 3 cards each, right (p -> p-1) on even hands, left on odd ------------ */
    int dir = (index & 1) ? 1 : -1;
    uint64_t given[4];
    for (int s = 0; s < 4; s++) given[s] = random_subset(h[s], 3, &pctr);
    for (int s = 0; s < 4; s++) h[s] = (h[s] & ~given[s]) | given[(s - dir) & 3];

    /* -- trump and the first leader ------------------------------------------------------ */
    int trump = (int)uniform(&pctr, 4);
    uint64_t tmask = LANE(trump) | ROOK;
    int leader = (declarer + (int)uniform(&pctr, 2)) & 3;

    /* -- play: power = 64 the Rook, 65 + 2 rank a real trump, rank the led suit, else -1 */
    uint64_t won[2] = {0, 0};
    int last_team = 0;
    for (int t = 0; t < 13; t++) {
        uint64_t led = 0, trick = 0;
        int best_seat = -1, best_pow = -1;
        for (int pos = 0; pos < 4; pos++) {
            int s = (leader + pos) & 3;
            uint64_t hh = h[s], legal = hh;
            if (led) { uint64_t f = hh & led; if (f) legal = f; }
            int c = (legal & (legal - 1)) ? random_card(legal, &pctr) : lsb(legal);
            uint64_t m = 1ull << c;
            if (!led) led = (m & tmask) ? tmask : LANE(c >> 4);
            int pw = (m & tmask) ? (c == ROOK_BIT ? 64 : 65 + 2 * (c & 15)) : (m & led) ? (c & 15) : -1;
            if (pw > best_pow) { best_pow = pw; best_seat = s; }
            trick |= m;
            h[s] = hh & ~m;
        }
        won[best_seat & 1] |= trick;
        leader = best_seat;
        last_team = best_seat & 1;
    }

    /* -- score and settle ----------------------------------------------------------------- */
    int p[2] = {points_of(won[0]), points_of(won[1])};
    p[last_team] += LAST_TRICK;
    p[decl_team] += card_points(drop);
    int B = p[decl_team], O = p[1 - decl_team];
    score[decl_team] += B >= bid ? B : -bid;
    score[1 - decl_team] += O;
    return B + O;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    struct timespec a, b;
    long score[2] = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        if (play_hand(1, (uint64_t)i, score) != TOTAL) {
            fprintf(stderr, "hand %ld: the points do not add up to %d\n", i, TOTAL);
            abort();
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    printf("%ld hands in %.4f s: %.0f hands/s checksum %ld %ld\n", n, s, n / s, score[0], score[1]);
    return 0;
}
