/* densemap.h - the bucket layout of an LLVM 14 llvm::DenseMap, to visit
   keys in the order llvm-xray's loops over such maps do (its output order
   depends on it: threads, stack frames, call-stack roots).

   The caller keeps the keys in its own array; the map holds their indices.
   Same hashing input, same insertion (and erase) sequence, same layout:
   64 buckets at the first insert, doubled when an insert would fill 3/4 of
   them (rehashed when tombstones leave 1/8 free), the old buckets moved
   over in bucket order, quadratic probing from hash & (buckets - 1). */
#ifndef TDEC_TOOLS_XRAY_DENSEMAP_H
#define TDEC_TOOLS_XRAY_DENSEMAP_H

#include <stdint.h>

typedef struct xray_densemap {
    uint32_t *buckets; /* index + 1 of a key, 0 empty, UINT32_MAX tombstone */
    uint32_t  nbuckets, count, tombstones;
} xray_densemap;

/* The caller's keys: hash (DenseMapInfo<K>::getHashValue) of key `index`,
   and whether key `index` equals the key being looked up. */
typedef struct xray_densemap_keys {
    uint32_t (*hash)(const void *ctx, uint32_t index);
    int (*equal)(const void *ctx, uint32_t index, const void *key);
    const void *ctx;
} xray_densemap_keys;

/* The index of `key` (hash h), or UINT32_MAX when it is not in the map. */
uint32_t xray_densemap_find(const xray_densemap *m, const xray_densemap_keys *k, uint32_t h, const void *key);

/* Inserts key `index` (hash h), known not to be in the map. 0: out of memory. */
int xray_densemap_insert(xray_densemap *m, const xray_densemap_keys *k, uint32_t index, uint32_t h);

/* Erases key `key` (hash h) if present. */
void xray_densemap_erase(xray_densemap *m, const xray_densemap_keys *k, uint32_t h, const void *key);

/* Iteration: *pos starts at 0; returns the next key's index, UINT32_MAX at the end. */
uint32_t xray_densemap_next(const xray_densemap *m, uint32_t *pos);

void xray_densemap_free(xray_densemap *m);

/* DenseMapInfo hashes: integers (Val * 37, truncated to 32 bits) and
   detail::combineHashValue for pairs. */
static inline uint32_t xray_densemap_hash_int(uint64_t v)
{
    return (uint32_t)(v * 37u);
}
uint32_t xray_densemap_hash_pair(uint32_t a, uint32_t b);

#endif
