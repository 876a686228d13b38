/* What the C baselines share with analyzer/rng.py and analyzer/bits.py: the counter-based
 * SplitMix64 streams, exact Lemire draws, and dealing from a card mask. Keep it in step
 * with those modules: the baselines draw from the same streams, so they play the very
 * same deals as the numba kernels and their checksums can be compared. */
#ifndef BIDLAB_CARDS_H
#define BIDLAB_CARDS_H
#include <stdint.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

static const uint64_t GOLDEN = 0x9E3779B97F4A7C15ull;
static const uint64_t SEED_SALT = 0x5EEDB1D1AB000001ull, STREAM_SALT = 0xD1B54A32D192ED03ull;
enum { POLICY_STREAM = 1, DEAL_STREAM = 1 << 16 };

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint64_t stream_key(uint64_t seed, uint64_t index, uint64_t stream) {
    uint64_t key = mix64(mix64(seed ^ SEED_SALT) + index * GOLDEN);
    return mix64(key ^ (stream * STREAM_SALT));
}
static inline uint32_t uniform(uint64_t *ctr, uint32_t n) { /* Lemire, exact */
    for (;;) {
        *ctr += GOLDEN;
        uint64_t m = (mix64(*ctr) >> 32) * (uint64_t)n;
        uint32_t low = (uint32_t)m;
        if (low >= n || low >= (uint32_t)(-n) % n) return (uint32_t)(m >> 32);
    }
}
static inline uint32_t draw16(uint64_t chunk, uint32_t n, uint64_t *ctr) { /* rng._draw16 */
    uint32_t m = (uint32_t)chunk * n;
    if ((m & 0xFFFF) < n) {
        uint32_t threshold = (65536 - n) % n;
        while ((m & 0xFFFF) < threshold) { *ctr += GOLDEN; m = (uint32_t)(mix64(*ctr) & 0xFFFF) * n; }
    }
    return m >> 16;
}
static inline int popc(uint64_t m) { return __builtin_popcountll(m); }
static inline int lsb(uint64_t m) { return __builtin_ctzll(m); }
/* PDEP where it is fast; the loop where it is microcode (AMD before Zen 3: build with
 * -DSLOW_PDEP), as analyzer/bits.py chooses for the kernels: the same work on each CPU. */
#if defined(__BMI2__) && !defined(SLOW_PDEP)
static inline uint64_t nth(uint64_t m, int k) { return _pdep_u64(1ull << k, m); }
#else
static inline uint64_t nth(uint64_t m, int k) { while (k--) m &= m - 1; return m & -m; }
#endif
/* The policy's draws: bidlab's stream (a counter, one hash a draw) unless the including
 * file brings its own generator type and draw function first. */
#ifndef POLICY_RNG
#define POLICY_RNG uint64_t
#define POLICY_DRAW uniform
#endif
static inline int random_card(uint64_t m, POLICY_RNG *ctr) {
    return lsb(nth(m, (int)POLICY_DRAW(ctr, (uint32_t)popc(m))));
}
static uint64_t random_subset(uint64_t m, int k, POLICY_RNG *ctr) { /* selection sampling */
    int n = popc(m); uint64_t out = 0;
    while (k > 0) { uint64_t low = m & -m; m ^= low; if ((int)POLICY_DRAW(ctr, n) < k) { out |= low; k--; } n--; }
    return out;
}
/* rng.deal_hands: `size` cards of `pool` to each of h[0..3], each hand from fresh hashes */
static inline uint64_t deal_hands(uint64_t *ctr, uint64_t pool, int size, uint64_t h[4]) {
    uint32_t n = (uint32_t)popc(pool);
    for (int s = 0; s < 4; s++) {
        uint64_t hand = 0;
        for (int k = 0; k < size;) {
            *ctr += GOLDEN;
            uint64_t r = mix64(*ctr);
            for (int q = 0; q < 4 && k < size; q++, k++) {
                uint64_t c = nth(pool, (int)draw16((r >> (16 * q)) & 0xFFFF, n--, ctr));
                pool ^= c;
                hand |= c;
            }
        }
        h[s] = hand;
    }
    return pool;
}
/* rng.shuffle_cards: the cards of `pool` in random order into a[]; returns how many */
static inline int shuffle_cards(uint64_t *ctr, uint64_t pool, int *a) {
    int n = popc(pool);
    for (int i = 0; i < n - 1;) {
        *ctr += GOLDEN;
        uint64_t r = mix64(*ctr);
        for (int q = 0; q < 4 && i < n - 1; q++, i++) {
            uint64_t c = nth(pool, (int)draw16((r >> (16 * q)) & 0xFFFF, (uint32_t)(n - i), ctr));
            pool ^= c;
            a[i] = lsb(c);
        }
    }
    if (n > 0) a[n - 1] = lsb(pool);
    return n;
}
#endif
