/* densemap.c - keys in LLVM 14 DenseMap layout; see densemap.h. */
#include "tools/cli/xray/densemap.h"

#include <stdlib.h>

#define DM_TOMBSTONE UINT32_MAX

uint32_t xray_hash_int(uint64_t key)
{
    return (uint32_t)(key * 37u);
}

uint32_t xray_hash_pair(uint64_t key)
{
    uint64_t k = (uint64_t)xray_hash_int(key >> 32) << 32 | xray_hash_int(key & UINT32_MAX);
    k += ~(k << 32);
    k ^= k >> 22;
    k += ~(k << 13);
    k ^= k >> 8;
    k += k << 3;
    k ^= k >> 15;
    k += ~(k << 27);
    k ^= k >> 31;
    return (uint32_t)k;
}

/* LookupBucketFor: 1 and the bucket holding key, else 0 and where it would
   go: the first tombstone on its probe path, or the empty bucket ending it. */
static int dm_lookup(const xray_keymap *m, uint64_t key, uint32_t *bucket)
{
    uint32_t mask = m->nbuckets - 1, b = m->hash(key) & mask, step = 1, v;
    int have_tomb = 0;
    for (;;) {
        v = m->buckets[b];
        if (v == 0) {
            if (!have_tomb) *bucket = b;
            return 0;
        }
        if (v == DM_TOMBSTONE) {
            if (!have_tomb) *bucket = b;
            have_tomb = 1;
        } else if (m->keys[v - 1] == key) {
            *bucket = b;
            return 1;
        }
        b = (b + step++) & mask;
    }
}

uint32_t xray_keymap_find(const xray_keymap *m, uint64_t key)
{
    uint32_t b;
    if (m->nbuckets == 0 || !dm_lookup(m, key, &b)) return UINT32_MAX;
    return m->buckets[b] - 1;
}

/* grow(AtLeast): max(64, the next power of two >= AtLeast) buckets, the
   old entries inserted again in bucket order. */
static int dm_grow(xray_keymap *m, uint32_t at_least)
{
    uint32_t n = 64, i, b, *old = m->buckets, old_n = m->nbuckets;
    while (n < at_least) n *= 2;
    if (!(m->buckets = calloc(n, sizeof *m->buckets))) {
        m->buckets = old;
        return 0;
    }
    m->nbuckets = n;
    m->tombstones = 0;
    for (i = 0; i < old_n; i++) {
        if (old[i] == 0 || old[i] == DM_TOMBSTONE) continue;
        dm_lookup(m, m->keys[old[i] - 1], &b);
        m->buckets[b] = old[i];
    }
    free(old);
    return 1;
}

uint32_t xray_keymap_add(xray_keymap *m, uint64_t key)
{
    uint32_t b;
    if ((uint64_t)(m->count + 1) * 4 >= (uint64_t)m->nbuckets * 3) {
        if (!dm_grow(m, m->nbuckets * 2)) return UINT32_MAX;
    } else if (m->nbuckets - (m->count + 1 + m->tombstones) <= m->nbuckets / 8) {
        if (!dm_grow(m, m->nbuckets)) return UINT32_MAX;
    }
    if (m->nkeys >= UINT32_MAX - 1 || !xray_grow((void **)&m->keys, m->nkeys, &m->keys_cap, sizeof *m->keys))
        return UINT32_MAX;
    m->keys[m->nkeys++] = key;
    dm_lookup(m, key, &b);
    if (m->buckets[b] == DM_TOMBSTONE) m->tombstones--;
    m->buckets[b] = (uint32_t)m->nkeys;
    m->count++;
    return (uint32_t)m->nkeys - 1;
}

void xray_keymap_erase(xray_keymap *m, uint64_t key)
{
    uint32_t b;
    if (m->nbuckets == 0 || !dm_lookup(m, key, &b)) return;
    m->buckets[b] = DM_TOMBSTONE;
    m->count--;
    m->tombstones++;
}

uint32_t xray_keymap_next(const xray_keymap *m, uint32_t *pos)
{
    while (*pos < m->nbuckets) {
        uint32_t v = m->buckets[(*pos)++];
        if (v != 0 && v != DM_TOMBSTONE) return v - 1;
    }
    return UINT32_MAX;
}

void xray_keymap_free(xray_keymap *m)
{
    free(m->buckets);
    free(m->keys);
    m->buckets = NULL;
    m->keys = NULL;
    m->nbuckets = m->count = m->tombstones = 0;
    m->nkeys = m->keys_cap = 0;
}

int xray_grow(void **items, size_t n, size_t *cap, size_t size)
{
    void *p;
    size_t c;
    if (n < *cap) return 1;
    c = *cap ? *cap * 2 : 64;
    if (!(p = realloc(*items, c * size))) return 0;
    *items = p;
    *cap = c;
    return 1;
}
