/* densemap.h - keys in the layout of an LLVM 14 llvm::DenseMap, to visit
   them in the order llvm-xray's loops over such maps do (its output order
   depends on it: threads, stack frames, call-stack roots), and to find
   them again. Same hash, same insertions and erasures, same layout: 64
   buckets at the first insert, doubled when an insert would fill 3/4 of
   them (rehashed in place when tombstones leave 1/8 free), the old buckets
   moved over in bucket order, quadratic probing from hash & (buckets - 1).

   A key is 64 bits (a pair: first << 32 | second); each key added gets the
   next index (0, 1, ...), which the caller uses for its own arrays. */
#ifndef TDEC_TOOLS_XRAY_DENSEMAP_H
#define TDEC_TOOLS_XRAY_DENSEMAP_H

#include <stddef.h>
#include <stdint.h>

/* DenseMapInfo<K>::getHashValue of a key. */
typedef uint32_t (*xray_keymap_hash)(uint64_t key);

typedef struct xray_keymap {
    xray_keymap_hash hash;
    uint32_t        *buckets; /* index + 1, 0 empty, UINT32_MAX tombstone */
    uint32_t         nbuckets, count, tombstones;
    uint64_t        *keys;    /* by index                                  */
    size_t           nkeys, keys_cap;
} xray_keymap;

/* An empty map hashing with `hash`. */
#define XRAY_KEYMAP(hash) {(hash), NULL, 0, 0, 0, NULL, 0, 0}

/* The hashes: an integer key (unsigned, int, a pid widened to uint64:
   Val * 37, its low 32 bits), and a pair of them (detail::combineHashValue
   of both halves' hashes). */
uint32_t xray_hash_int(uint64_t key);
uint32_t xray_hash_pair(uint64_t key);

/* key's index, or UINT32_MAX when it is not in the map. */
uint32_t xray_keymap_find(const xray_keymap *m, uint64_t key);

/* Adds key (not in the map): its index, or UINT32_MAX when out of memory. */
uint32_t xray_keymap_add(xray_keymap *m, uint64_t key);

/* Erases key if present (its index is not given again). */
void xray_keymap_erase(xray_keymap *m, uint64_t key);

/* Iteration in bucket order: *pos starts at 0; the next key's index, or
   UINT32_MAX at the end. */
uint32_t xray_keymap_next(const xray_keymap *m, uint32_t *pos);

void xray_keymap_free(xray_keymap *m);

/* Room for one more element in *items (n used of *cap, each `size`
   bytes), doubling: 1, or 0 when out of memory. */
int xray_grow(void **items, size_t n, size_t *cap, size_t size);

#endif
