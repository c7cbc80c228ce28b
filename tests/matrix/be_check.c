/* be_check.c - decodes every XRay trace named on the command line and
   prints one line per file: "log NAME", item counts, the final status and
   a hash of every decoded field. The compile matrix (tests/matrix/matrix.mk)
   builds it natively, with -m32 and for the big-endian s390x, and
   tests/matrix/matrix.sh compares the three outputs byte for byte: the check
   the other formats make with their fuzz harness's hash lines, here until
   fuzz/fuzz_xray.c prints hash lines too.

   Each file is decoded four ways (whole buffer, 1-byte chunks, 7-byte
   chunks, 4093-byte chunks); the hashes must agree, otherwise the line
   says "CHUNK-MISMATCH" and the exit status is 1. Fragment data is hashed
   as one byte stream, so fragment boundaries do not change the hash. */
#define TDEC_XRAY_IMPLEMENTATION
#include "single/tdec_xray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bc_sum {
    uint64_t hash;
    unsigned long items, records, frags, gaps, frag_bytes;
    int status;
    uint64_t err_offset;
    uint32_t err_reason;
} bc_sum;

static void bc_mix(bc_sum *s, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) {
        s->hash ^= (uint8_t)(v >> (8 * i));
        s->hash *= 0x100000001b3ull;
    }
}

static void bc_item(bc_sum *s, const tdec_xray_item *it)
{
    const tdec_xray_record *r = &it->u.rec;
    size_t i;
    s->items++;
    switch (it->kind) {
    case TDEC_ITEM_RECORD:
        s->records++;
        bc_mix(s, it->kind);
        bc_mix(s, it->offset);
        bc_mix(s, r->type);
        bc_mix(s, r->action);
        bc_mix(s, r->fid);
        bc_mix(s, r->tid);
        bc_mix(s, r->pid);
        bc_mix(s, r->cpu);
        bc_mix(s, (uint64_t)r->delta);
        bc_mix(s, r->tsc);
        bc_mix(s, r->value);
        bc_mix(s, (uint64_t)r->wall_sec);
        bc_mix(s, r->wall_usec);
        bc_mix(s, r->event_type);
        bc_mix(s, r->meta_kind);
        bc_mix(s, r->raw_len);
        bc_mix(s, r->payload_size);
        for (i = 0; i < r->raw_len && i < sizeof r->raw; i++) bc_mix(s, r->raw[i]);
        break;
    case TDEC_ITEM_FRAGMENT:
        s->frags++;
        s->frag_bytes += (unsigned long)it->u.frag.len;
        for (i = 0; i < it->u.frag.len; i++) {
            s->hash ^= it->u.frag.data[i];
            s->hash *= 0x100000001b3ull;
        }
        break;
    default:
        s->gaps++;
        bc_mix(s, it->kind);
        bc_mix(s, it->offset);
        bc_mix(s, it->u.gap.len);
        bc_mix(s, it->u.gap.reason);
        break;
    }
}

/* Decodes buf in chunks of `chunk` bytes (0 = whole). */
static void bc_decode(const uint8_t *buf, size_t len, size_t chunk, bc_sum *s)
{
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st;
    size_t fed = 0, n;
    memset(s, 0, sizeof *s);
    s->hash = 0xcbf29ce484222325ull;
    st = tdec_xray_init(&d, NULL);
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            bc_item(s, &it);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed;
        if (chunk && n > chunk) n = chunk;
        st = n ? tdec_xray_feed(&d, buf + fed, n) : tdec_xray_finish(&d);
        fed += n;
    }
    s->status = (int)st;
    s->err_offset = d.st.err_offset;
    s->err_reason = d.st.err_reason;
}

static int bc_same(const bc_sum *a, const bc_sum *b)
{
    /* Fragment counts depend on the chunking; their bytes do not. */
    return a->hash == b->hash && a->records == b->records && a->gaps == b->gaps &&
           a->frag_bytes == b->frag_bytes && a->status == b->status &&
           a->err_offset == b->err_offset && a->err_reason == b->err_reason;
}

static uint8_t *bc_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) return NULL;
    for (;;) {
        if (n == cap) {
            uint8_t *nb;
            cap = cap ? cap * 2 : 65536;
            nb = (uint8_t *)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    static const size_t chunks[] = {1, 7, 4093};
    int i, bad = 0;
    size_t k;
    for (i = 1; i < argc; i++) {
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        size_t len = 0;
        uint8_t *buf = bc_read(argv[i], &len);
        bc_sum whole, part;
        int same = 1;
        if (!buf) {
            printf("log %s unreadable\n", name);
            bad = 1;
            continue;
        }
        bc_decode(buf, len, 0, &whole);
        for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
            bc_decode(buf, len, chunks[k], &part);
            if (!bc_same(&whole, &part)) same = 0;
        }
        printf("log %s bytes=%lu items=%lu records=%lu frags=%lu frag_bytes=%lu gaps=%lu status=%s",
               name, (unsigned long)len, whole.items, whole.records, whole.frags, whole.frag_bytes,
               whole.gaps, tdec_status_str((tdec_status)whole.status));
        if (whole.status < 0)
            printf(" err_offset=%llu reason=%lu", (unsigned long long)whole.err_offset,
                   (unsigned long)whole.err_reason);
        printf(" hash=%016llx%s\n", (unsigned long long)whole.hash, same ? "" : " CHUNK-MISMATCH");
        if (!same) bad = 1;
        free(buf);
    }
    return bad;
}
