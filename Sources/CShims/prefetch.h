#ifndef GROVE_CSHIMS_PREFETCH_H
#define GROVE_CSHIMS_PREFETCH_H
/* The compiler's cache prefetch hint, which Swift does not expose: asks for the cache line of
   `address` ahead of a read, so that its miss overlaps with other work. Never faults. */
static inline void grove_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
#endif
