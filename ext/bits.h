/* Bit helpers for the kingsolve search core (ext/_core.pyx). */
#ifndef KINGSOLVE_BITS_H
#define KINGSOLVE_BITS_H
#include <stdint.h>

static inline int ks_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int ks_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int ks_msb(uint64_t x) { return 63 - __builtin_clzll(x); }
/* Start loading the cache line at p (a hint; never faults). */
static inline void ks_prefetch(const void* p) { __builtin_prefetch(p); }

/* Parallel bit extract: the bits of x at the positions set in m, packed low.
   On x86-64 the BMI2 instruction is used when the running CPU has it (checked
   once, ks_init_cpu); elsewhere a loop over the bits of m. */
static inline uint64_t ks_pext_soft(uint64_t x, uint64_t m) {
    uint64_t r = 0, bb = 1;
    while (m) {
        if (x & m & (0 - m)) r |= bb;
        bb <<= 1;
        m &= m - 1;
    }
    return r;
}

/* Parallel bit deposit: the low bits of x spread to the positions set in m
   (the inverse of ks_pext on m). */
static inline uint64_t ks_pdep_soft(uint64_t x, uint64_t m) {
    uint64_t r = 0, bb = 1;
    while (m) {
        if (x & bb) r |= m & (0 - m);
        bb <<= 1;
        m &= m - 1;
    }
    return r;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
static int ks_have_bmi2 = 0;
__attribute__((target("bmi2"))) static inline uint64_t ks_pext_hw(uint64_t x, uint64_t m) {
    return __builtin_ia32_pext_di(x, m);
}
__attribute__((target("bmi2"))) static inline uint64_t ks_pdep_hw(uint64_t x, uint64_t m) {
    return __builtin_ia32_pdep_di(x, m);
}
static inline uint64_t ks_pext(uint64_t x, uint64_t m) {
    return ks_have_bmi2 ? ks_pext_hw(x, m) : ks_pext_soft(x, m);
}
static inline uint64_t ks_pdep(uint64_t x, uint64_t m) {
    return ks_have_bmi2 ? ks_pdep_hw(x, m) : ks_pdep_soft(x, m);
}
static inline void ks_init_cpu(void) {
    __builtin_cpu_init();
    ks_have_bmi2 = __builtin_cpu_supports("bmi2");
}
static inline int ks_fast_pext(void) { return ks_have_bmi2; }
#else
static inline uint64_t ks_pext(uint64_t x, uint64_t m) { return ks_pext_soft(x, m); }
static inline uint64_t ks_pdep(uint64_t x, uint64_t m) { return ks_pdep_soft(x, m); }
static inline void ks_init_cpu(void) {}
static inline int ks_fast_pext(void) { return 0; }
#endif
#endif
