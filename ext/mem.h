/* Memory for the transposition table of the kingsolve search core.

   The table is large (up to hundreds of MB) and read at random, so nearly
   every probe also misses the TLB.  On Linux it is mapped anonymously (zeroed
   and committed page by page on first touch, like calloc) and marked for
   transparent huge pages, which removes most of those misses; elsewhere it is
   plain calloc.  ks_table_free takes the size given to ks_table_alloc.

   With `populate` every page is committed at once (MAP_POPULATE).  Left to
   first touch, a page the search reads before it writes is faulted twice:
   first onto the shared zero page, then, at the first write, onto its own,
   and that second fault flushes the page's old mapping from the TLB of every
   core running a thread of the process, by interrupts that are costly in a
   virtual machine.  A ru4 table made on two threads spent most of its system
   time there, far less populated (benchmarks/README.md). */
#ifndef KINGSOLVE_MEM_H
#define KINGSOLVE_MEM_H
#include <stddef.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>

static inline void* ks_table_alloc(size_t size, int populate) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
    if (populate)
        flags |= MAP_POPULATE;
#endif
    void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
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
static inline void* ks_table_alloc(size_t size, int populate) { (void)populate; return calloc(1, size); }
static inline void ks_table_free(void* p, size_t size) { (void)size; free(p); }
#endif
#endif
