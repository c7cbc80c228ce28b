/* densemap.c - LLVM 14 DenseMap bucket layout; see densemap.h. */
#include "tools/cli/xray/densemap.h"

#include <stdlib.h>

#define DM_TOMBSTONE UINT32_MAX

uint32_t xray_densemap_hash_pair(uint32_t a, uint32_t b)
{
    uint64_t k = (uint64_t)a << 32 | b;
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

/* LookupBucketFor: the bucket holding key (found: 1), else where it would
   go: the first tombstone on its probe path, or the empty bucket ending it. */
static int dm_lookup(const xray_densemap *m, const xray_densemap_keys *k, uint32_t h, const void *key,
                     uint32_t index, uint32_t *bucket)
{
    uint32_t mask = m->nbuckets - 1, b = h & mask, step = 1, v;
    int have_tomb = 0;
    for (;;) {
        v = m->buckets[b];
        if (v != 0 && v != DM_TOMBSTONE && (key ? k->equal(k->ctx, v - 1, key) : v - 1 == index)) {
            *bucket = b;
            return 1;
        }
        if (v == 0) {
            if (!have_tomb) *bucket = b;
            return 0;
        }
        if (v == DM_TOMBSTONE && !have_tomb) {
            have_tomb = 1;
            *bucket = b;
        }
        b = (b + step++) & mask;
    }
}

uint32_t xray_densemap_find(const xray_densemap *m, const xray_densemap_keys *k, uint32_t h, const void *key)
{
    uint32_t b;
    if (m->nbuckets == 0 || !dm_lookup(m, k, h, key, 0, &b)) return UINT32_MAX;
    return m->buckets[b] - 1;
}

/* grow(AtLeast): max(64, next power of two >= AtLeast) buckets, the old
   entries re-inserted in bucket order. */
static int dm_grow(xray_densemap *m, const xray_densemap_keys *k, uint32_t at_least)
{
    uint32_t n = 64, i, b, *old = m->buckets, old_n = m->nbuckets;
    while (n < at_least) n *= 2;
    m->buckets = calloc(n, sizeof *m->buckets);
    if (!m->buckets) {
        m->buckets = old;
        return 0;
    }
    m->nbuckets = n;
    m->tombstones = 0;
    for (i = 0; i < old_n; i++) {
        if (old[i] == 0 || old[i] == DM_TOMBSTONE) continue;
        dm_lookup(m, k, k->hash(k->ctx, old[i] - 1), NULL, old[i] - 1, &b);
        m->buckets[b] = old[i];
    }
    free(old);
    return 1;
}

int xray_densemap_insert(xray_densemap *m, const xray_densemap_keys *k, uint32_t index, uint32_t h)
{
    uint32_t b;
    if ((uint64_t)(m->count + 1) * 4 >= (uint64_t)m->nbuckets * 3) {
        if (!dm_grow(m, k, m->nbuckets * 2)) return 0;
    } else if (m->nbuckets - (m->count + 1 + m->tombstones) <= m->nbuckets / 8) {
        if (!dm_grow(m, k, m->nbuckets)) return 0;
    }
    dm_lookup(m, k, h, NULL, index, &b);
    if (m->buckets[b] == DM_TOMBSTONE) m->tombstones--;
    m->buckets[b] = index + 1;
    m->count++;
    return 1;
}

void xray_densemap_erase(xray_densemap *m, const xray_densemap_keys *k, uint32_t h, const void *key)
{
    uint32_t b;
    if (m->nbuckets == 0 || !dm_lookup(m, k, h, key, 0, &b)) return;
    m->buckets[b] = DM_TOMBSTONE;
    m->count--;
    m->tombstones++;
}

uint32_t xray_densemap_next(const xray_densemap *m, uint32_t *pos)
{
    while (*pos < m->nbuckets) {
        uint32_t v = m->buckets[(*pos)++];
        if (v != 0 && v != DM_TOMBSTONE) return v - 1;
    }
    return UINT32_MAX;
}

void xray_densemap_free(xray_densemap *m)
{
    free(m->buckets);
    m->buckets = NULL;
    m->nbuckets = m->count = m->tombstones = 0;
}
