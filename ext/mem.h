/* Memory for the transposition table of the kingsolve search core.

   The table is large (up to hundreds of MB) and read at random, so nearly
   every probe also misses the TLB.  On Linux it is mapped anonymously (zeroed
   and committed page by page on first touch, like calloc) and marked for
   transparent huge pages, which removes most of those misses; elsewhere it is
   plain calloc.  ks_table_free takes the size given to ks_table_alloc. */
#ifndef KINGSOLVE_MEM_H
#define KINGSOLVE_MEM_H
#include <stddef.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>

static inline void* ks_table_alloc(size_t size) {
    void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);   /* advice only: ignored where THP is off */
#endif
    return p;
}

static inline void ks_table_free(void* p, size_t size) {
    if (p != NULL)
        munmap(p, size);
}
#else
static inline void* ks_table_alloc(size_t size) { return calloc(1, size); }
static inline void ks_table_free(void* p, size_t size) { (void)size; free(p); }
#endif
#endif
