/* Bit helpers for the kingsolve search core (ext/_core.pyx). */
#ifndef KINGSOLVE_BITS_H
#define KINGSOLVE_BITS_H
#include <stdint.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

static inline int ks_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int ks_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int ks_msb(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Parallel bit extract: the bits of x at the positions set in m, packed low. */
static inline uint64_t ks_pext(uint64_t x, uint64_t m) {
#ifdef __BMI2__
    return _pext_u64(x, m);
#else
    uint64_t r = 0, bb = 1;
    while (m) {
        if (x & m & (0 - m)) r |= bb;
        bb <<= 1;
        m &= m - 1;
    }
    return r;
#endif
}
#endif
