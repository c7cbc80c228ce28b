/* fuzz_ipt_flow.c - libFuzzer / AFL++ harness for layer 3 of
   single/tdec_ipt.h: the instruction flow decoder (tdec_ipt_flow_*) over a
   small random code image, and the x86 length decoder on its bytes.

   Input: 9 control bytes, the section table, the sections' bytes, the trace.
     byte 0     bits 0-2 chunk schedule of the chunked decode (cc_sched_pick:
                0 one byte at a time, 1 one 2-way split, 2 fixed steps, 3-7
                seeded random lengths); bit 3 TDEC_IPT_F_TICKS; bit 4
                TDEC_IPT_F_IFLAGS; bit 5 also check tdec_ipt_image_read
                against the reference image, byte by byte; bit 6 also
                decode blocks (tdec_ipt_flow_next_block)
     byte 1     walk_limit - 1 (1..256)
     bytes 2-5  seed (u32 LE) of the schedule and of the garbage the read
                callback writes where it hands out nothing
     bytes 6-7  errata (u16 LE, TDEC_IPT_ERRATUM_*)
     byte 8     bits 0-1 sections - 1 (1..4); bits 2-3 the blocks' ends
                (TDEC_IPT_BLOCK_END_ON_CALL, _JUMP); bits 4-7 the most bytes
                one read hands out (0: no cap)
     then per section 10 bytes: vaddr (u64 LE), size (u16 LE); then each
     section's bytes in order (cut short where the input ends, and at
     2^64); the rest is the trace. Addresses no section holds are
     unmapped; where sections overlap the later one wins (libipt's image:
     the newest mapping).

   The trace is decoded twice with the same config: fed in one chunk (then
   finish()), and in the chunks of byte 0's schedule, each chunk its own
   exact allocation, scribbled over and freed at the next NEED_INPUT, where
   the decoder is also moved to another address (the old copy scribbled
   over) and asked again (NEED_INPUT again, nothing changed). After an error
   the decode resyncs (at most MAX_RESYNCS times) and goes on. The two
   transcripts (every item field by field, every status with err_reason,
   err_offset and err_ip, every resync's answer) must be identical, and an
   error or END must be sticky.

   Blocks (byte 0 bit 6): three more decodes with tdec_ipt_flow_next_block,
   in one chunk without a cache, in one chunk with a cache, chunked with a
   cache (a few entries, so that they collide, from the seed; zeroed memory
   for the first, then warm from it), and one of the instruction decoder,
   chunked with the warm cache. A cache changes nothing: the three block
   transcripts must be identical, and the last the first one's; the blocks'
   instructions with the events and statuses between them must be the
   instruction decoder's (whichever END_ON_* ends the blocks). Every block is
   walked with tdec_ipt_block_walk right away: ninsn instructions from ip,
   each where the one before leads without trace, the last at end_ip with
   the block's size and class, each checked as an instruction item is.

   The read callback serves the reference image: per read at most the
   bytes up to the end of the winning section, up to where a later section
   begins, and byte 8's cap; it writes garbage over the rest of the buffer it
   was given and marks every byte it hands out (in any decode of the
   input: a warm cache holds bytes an earlier one read). Every instruction item's
   bytes must all be mapped, handed out by the callback, and equal to the
   image at item.ip; its size and class must be what tdec_ipt_insn_decode
   says for them. Bounded work: at most READS_PER_CALL reads in one call of
   tdec_ipt_flow_next (blocks: BLOCK_READS_PER_CALL), and at most
   (8 * trace bytes + resyncs + 4) * (walk_limit + 2) items in a run (a TNT
   bit or any other trace byte lets at most walk_limit + 1 instructions
   run).

   The length decoder runs at the first 32 offsets of every section in each
   mode, with every size from 1 to 15: NEED_INPUT below some size, then one
   same answer for every size above (valid with equal info, or invalid),
   size within 1..15 and never above the bytes given.

   Every violation abort()s. fuzz/corpus/ipt_flow holds the ptt vectors of
   tests/data/ipt in this format (written by fuzz/ipt_flow_corpus.sh). */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/lib/check_common.h"

#define CONTROL        9u
#define MAX_SECTIONS   4u
#define SECTION_HEADER 10u
#define MAX_RESYNCS    16u
#define MAX_TRACE      65536u
/* tdec_ipt__flow_reaches (erratum BDM64) decodes up to 256 instructions in
   one call, each up to 15 reads of one byte */
#define READS_PER_CALL (15u * (256u + 8u))
/* a block: up to walk_limit + 1 instructions the slow way or from the
   cache, whose fills walk no further than the walk limit lets a block go */
#define BLOCK_READS_PER_CALL(limit) (READS_PER_CALL + 15u * 3u * ((limit) + 2u))
#define DECODE_OFFSETS 32u /* per section: the length decoder has its own tests */

static void fail(const char *what)
{
    cc_abort("fuzz_ipt_flow", what);
}

/* ---- transcripts ---------------------------------------------------------------- */

/* A transcript: one hash per entry (an item, a status, a resync's answer). */
#define LOG_CAP 65536u
typedef struct transcript {
    uint64_t entry[LOG_CAP];
    size_t   n;
    uint64_t all; /* FNV-1a of every entry, those beyond LOG_CAP too */
} transcript;

static transcript whole, chunked, block_whole, block_cached, insn_flow, block_flow, insn_cached;

static void note(transcript *t, const uint64_t *v, size_t nv)
{
    uint64_t h = CC_FNV_BASIS;
    size_t i, b;
    for (i = 0; i < nv; i++)
        for (b = 0; b < 8; b++) h = (h ^ ((v[i] >> (8 * b)) & 0xffu)) * CC_FNV_PRIME;
    if (t->n < LOG_CAP) t->entry[t->n] = h;
    t->n++;
    t->all = (t->all ^ h) * CC_FNV_PRIME;
}

static void note_item(transcript *t, const tdec_ipt_flow_item *it)
{
    const tdec_ipt_event *e = &it->ev;
    uint64_t raw0 = 0, raw1 = 0, v[17];
    unsigned i;
    for (i = 0; i < 8; i++) {
        raw0 |= (uint64_t)it->raw[i] << (8 * i);
        raw1 |= (uint64_t)it->raw[8 + i] << (8 * i);
    }
    v[0] = 1;
    v[1] = it->kind;
    v[2] = (uint64_t)it->size | (uint64_t)it->iclass << 8 | (uint64_t)it->mode << 16 | (uint64_t)it->speculative << 24;
    v[3] = it->ip;
    v[4] = raw0;
    v[5] = raw1;
    v[6] = e->ip;
    v[7] = e->arg;
    v[8] = e->arg2;
    v[9] = e->tsc;
    v[10] = (uint64_t)e->lost_mtc | (uint64_t)e->lost_cyc << 32;
    v[11] = e->flags;
    v[12] = e->aux;
    v[13] = e->type;
    v[14] = (uint64_t)e->a;
    v[15] = (uint64_t)e->b;
    v[16] = it->end_ip ^ (uint64_t)it->ninsn << 48;
    note(t, v, 17);
}

/* An instruction of the flow (an item, or one of a block's). */
static void note_insn(transcript *t, uint64_t ip, unsigned size, unsigned iclass)
{
    uint64_t v[3];
    v[0] = 4;
    v[1] = ip;
    v[2] = (uint64_t)size | (uint64_t)iclass << 8;
    note(t, v, 3);
}

static void note_status(transcript *t, uint64_t what, tdec_status st, const tdec_ipt_flow_decoder *f)
{
    uint64_t v[6];
    v[0] = what;
    v[1] = (uint64_t)(int64_t)st;
    v[2] = f->st.err_reason;
    v[3] = f->st.err_offset;
    v[4] = f->err_ip;
    v[5] = f->enabled;
    note(t, v, 6);
}

/* ---- the image ---------------------------------------------------------------- */

typedef struct image {
    tdec_ipt_section sec[MAX_SECTIONS];
    uint8_t          handed[MAX_SECTIONS][65536u / 8u]; /* bytes the callback handed out */
    size_t           count;
    size_t           cap;       /* most bytes one read hands out, 0: no cap */
    uint32_t         garbage;   /* xorshift32 of the garbage written */
    size_t           reads;     /* in the current call */
    size_t           max_reads; /* per call */
} image;

static image img;

/* The section addr reads from (the last holding it), or -1. */
static int winner(const image *m, uint64_t addr)
{
    size_t k;
    for (k = m->count; k > 0; k--)
        if (addr - m->sec[k - 1].vaddr < m->sec[k - 1].size) return (int)(k - 1);
    return -1;
}

/* How many bytes from addr (held by section w) read as w's: up to its end
   and to the first later section starting after addr. */
static uint64_t run_of(const image *m, int w, uint64_t addr)
{
    const tdec_ipt_section *s = &m->sec[w];
    uint64_t n = s->size - (addr - s->vaddr);
    size_t k;
    for (k = (size_t)w + 1; k < m->count; k++)
        if (m->sec[k].size && m->sec[k].vaddr > addr && m->sec[k].vaddr - addr < n) n = m->sec[k].vaddr - addr;
    return n;
}

static size_t read_code(void *ctx, uint64_t asid, uint64_t addr, uint8_t *buf, size_t size)
{
    image *m = (image *)ctx;
    size_t n = 0, i;
    uint64_t at;
    int w;
    (void)asid;
    if (buf == NULL) fail("read: NULL buffer");
    if (++m->reads > m->max_reads) fail("read: unbounded work in one call");
    w = winner(m, addr);
    if (w >= 0) {
        uint64_t run = run_of(m, w, addr);
        n = run < size ? (size_t)run : size;
        if (m->cap && n > m->cap) n = m->cap;
        at = addr - m->sec[w].vaddr;
        for (i = 0; i < n; i++) {
            buf[i] = m->sec[w].bytes[at + i];
            m->handed[w][(at + i) >> 3] |= (uint8_t)(1u << ((at + i) & 7u));
        }
    }
    for (i = n; i < size; i++) { /* what the decoder must not use */
        m->garbage ^= m->garbage << 13;
        m->garbage ^= m->garbage >> 17;
        m->garbage ^= m->garbage << 5;
        buf[i] = (uint8_t)m->garbage;
    }
    return n;
}

/* An instruction's bytes: mapped, handed out, the image's; its size and
   class the length decoder's. */
static void check_insn(const image *m, uint64_t ip, const uint8_t *raw, unsigned size, unsigned mode, unsigned iclass)
{
    tdec_ipt_insn_info info;
    uint32_t reason = 0;
    unsigned i;
    if (size == 0 || size > TDEC_IPT_INSN_MAX) fail("insn: size out of 1..15");
    for (i = 0; i < size; i++) {
        uint64_t addr = ip + i, at;
        int w = winner(m, addr);
        if (w < 0) fail("insn: a byte is not mapped");
        at = addr - m->sec[w].vaddr;
        if (!((unsigned)m->handed[w][at >> 3] >> (at & 7u) & 1u)) fail("insn: a byte the callback never handed out");
        if (m->sec[w].bytes[at] != raw[i]) fail("insn: raw bytes differ from the image");
    }
    if (tdec_ipt_insn_decode(raw, size, mode, &info, &reason) != TDEC_OK || info.size != size || info.iclass != iclass)
        fail("insn: not what tdec_ipt_insn_decode says of its bytes");
}

/* A block's instructions, walked with tdec_ipt_block_walk. */
static void check_block(const image *m, const tdec_ipt_flow_decoder *f, const tdec_ipt_flow_item *b, transcript *flow)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[16];
    uint64_t ip = b->ip, at = b->ip, next;
    uint32_t k, reason = 0;
    if (b->ninsn == 0 || b->ninsn > 0xffffu) fail("block: ninsn out of 1..65535");
    for (k = 0; k < b->ninsn; k++) {
        at = ip;
        if (tdec_ipt_block_walk(f, b, &ip, &insn, raw, &reason) != TDEC_OK) fail("block: walk fails");
        check_insn(m, at, raw, insn.size, b->mode, insn.iclass);
        if (flow) note_insn(flow, at, insn.size, insn.iclass);
        /* all but the last go on without trace */
        if (k + 1 < b->ninsn && (tdec_ipt_insn_next_ip(&insn, at, &next, NULL) != TDEC_OK || ip != next))
            fail("block: the walk does not go where the instructions lead");
    }
    if (at != b->end_ip || insn.size != b->size || insn.iclass != b->iclass)
        fail("block: the walk does not end at end_ip with the block's last instruction");
}

/* tdec_ipt_image_read over the same sections, byte by byte, against the
   reference (the later section wins, reads stop where it ends or another
   begins). */
static void check_image_read(const image *m)
{
    tdec_ipt_image ti = {m->sec, m->count};
    uint8_t buf[TDEC_IPT_INSN_MAX];
    size_t k, got, i;
    for (k = 0; k < m->count; k++) {
        const tdec_ipt_section *s = &m->sec[k];
        uint64_t addrs[4] = {s->vaddr - 1, s->vaddr, s->vaddr + s->size / 2, s->vaddr + s->size - 1};
        for (i = 0; i < 4; i++) {
            uint64_t addr = addrs[i], want = 0;
            int w = winner(m, addr);
            size_t j;
            if (w >= 0) want = run_of(m, w, addr);
            if (want > sizeof buf) want = sizeof buf;
            got = tdec_ipt_image_read(&ti, 0, addr, buf, sizeof buf);
            if (got != want) fail("image_read: a read's length differs from the reference");
            for (j = 0; j < got; j++)
                if (buf[j] != m->sec[w].bytes[addr - m->sec[w].vaddr + j]) fail("image_read: bytes differ");
        }
    }
}

/* ---- the length decoder ----------------------------------------------------------- */

static void check_lengths(const uint8_t *code, size_t len)
{
    tdec_ipt_insn_info info, at_max;
    uint32_t mode, reason;
    size_t off, n, end;
    tdec_status st, st_max;
    for (off = 0; off < len && off < DECODE_OFFSETS; off++) {
        end = len - off < TDEC_IPT_INSN_MAX ? len - off : TDEC_IPT_INSN_MAX;
        for (mode = 0; mode < 4; mode++) {
            reason = 0;
            st_max = tdec_ipt_insn_decode(code + off, end, mode, &at_max, &reason);
            if (st_max == TDEC_NEED_INPUT && end == TDEC_IPT_INSN_MAX) fail("ild: NEED_INPUT with 15 bytes");
            if (st_max == TDEC_OK && (at_max.size == 0 || at_max.size > end)) fail("ild: size out of range");
            if (st_max != TDEC_OK && st_max != TDEC_NEED_INPUT && !(st_max == TDEC_E_CORRUPT && reason == TDEC_IPT_ERR_BAD_INSN))
                fail("ild: an unexpected answer");
            for (n = 1; n < end; n++) {
                reason = 0;
                st = tdec_ipt_insn_decode(code + off, n, mode, &info, &reason);
                if (st == TDEC_NEED_INPUT) {
                    if (st_max == TDEC_OK && n >= at_max.size) fail("ild: NEED_INPUT with the whole instruction");
                    continue;
                }
                if (st != st_max) fail("ild: a shorter input changes the answer");
                if (st == TDEC_OK &&
                    (info.size != at_max.size || info.iclass != at_max.iclass || info.kind != at_max.kind ||
                     info.flags != at_max.flags || info.disp != at_max.disp))
                    fail("ild: a shorter input changes the instruction");
            }
        }
    }
}

/* ---- the flow decoder ---------------------------------------------------------------- */

typedef struct config {
    tdec_ipt_config cfg;
    uint32_t        walk_limit;
    int             blocks;      /* decode with flow_next_block         */
    unsigned        ends;        /* its TDEC_IPT_BLOCK_END_ON_*         */
    size_t          cache_bytes; /* 0: no cache                         */
} config;

static uint64_t cache_mem[512]; /* 8-byte aligned */

/* finish()'s answer: NEED_INPUT, or the end or error next() meets at once
   (the transcript has that from next()). */
static int ends_feeding(tdec_status st)
{
    return st != TDEC_OK && st != TDEC_E_ARG && st != TDEC_E_SEQUENCE;
}

static tdec_status next_item(const config *c, tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *it)
{
    return c->blocks ? tdec_ipt_flow_next_block(f, it, c->ends) : tdec_ipt_flow_next(f, it);
}

/* The decoder, moved between two places at each NEED_INPUT. */
static tdec_ipt_flow_decoder place[2];

static void run(const config *c, const cc_sched *sched, const uint8_t *trace, size_t len, transcript *t,
                transcript *flow)
{
    tdec_ipt_flow_decoder *f = &place[0];
    tdec_ipt_flow_item it;
    cc_feed feed;
    size_t resyncs = 0, items = 0, bound;
    tdec_status st;
    int at = 0, finished = 0;
    t->n = 0;
    t->all = CC_FNV_BASIS;
    if (flow) {
        flow->n = 0;
        flow->all = CC_FNV_BASIS;
    }
    bound = (8u * len + MAX_RESYNCS + 4u) * ((size_t)c->walk_limit + 2u);
    /* with a cache, the instruction decoder reads a block at a time too */
    img.max_reads = c->blocks || c->cache_bytes ? BLOCK_READS_PER_CALL(c->walk_limit) : READS_PER_CALL;
    if (tdec_ipt_flow_init(f, &c->cfg, read_code, &img, c->walk_limit) != TDEC_NEED_INPUT) fail("init refused");
    if (tdec_ipt_flow_set_cache(f, c->cache_bytes ? cache_mem : NULL, c->cache_bytes) != TDEC_OK)
        fail("set_cache refused");
    if (!cc_feed_init(&feed, trace, len, sched, CC_FEED_FRESH)) abort();
    for (;;) {
        img.reads = 0;
        st = next_item(c, f, &it);
        if (st == TDEC_OK) {
            if (++items > bound) fail("unbounded: more items than the trace allows");
            if (it.kind == (c->blocks ? TDEC_IPT_FLOW_BLOCK : TDEC_IPT_FLOW_INSN)) {
                if (c->blocks) {
                    check_block(&img, f, &it, flow);
                } else {
                    check_insn(&img, it.ip, it.raw, it.size, it.mode, it.iclass);
                    if (flow) note_insn(flow, it.ip, it.size, it.iclass);
                }
            } else if (it.kind == TDEC_IPT_FLOW_EVENT) {
                if (flow) note_item(flow, &it);
            } else {
                fail("an item of another kind");
            }
            note_item(t, &it);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            if (finished) fail("NEED_INPUT after finish");
            /* moved elsewhere, the decoder says the same again */
            place[at ^ 1] = *f;
            memset(f, 0x5a, sizeof *f);
            at ^= 1;
            f = &place[at];
            img.reads = 0;
            if (next_item(c, f, &it) != TDEC_NEED_INPUT) fail("NEED_INPUT is not stable");
            if (cc_feed_next(&feed)) {
                st = tdec_ipt_flow_feed(f, feed.chunk, feed.chunk_len);
            } else {
                st = tdec_ipt_flow_finish(f);
                finished = 1;
            }
            if (finished ? !ends_feeding(st) : st != TDEC_NEED_INPUT) fail("feed or finish refused at NEED_INPUT");
            continue;
        }
        note_status(t, 2, st, f);
        if (flow) note_status(flow, 2, st, f);
        img.reads = 0;
        if (next_item(c, f, &it) != st) fail("an end or error is not sticky");
        if (st == TDEC_END || st == TDEC_E_ARG || resyncs == MAX_RESYNCS) break;
        resyncs++;
        st = tdec_ipt_flow_resync(f);
        note_status(t, 3, st, f);
        if (flow) note_status(flow, 3, st, f);
        if (st != TDEC_NEED_INPUT) break;
    }
    cc_feed_free(&feed);
}

static void compare(const transcript *a, const transcript *b, const char *what)
{
    size_t k;
    char msg[CC_MSG];
    for (k = 0; k < a->n && k < b->n && k < LOG_CAP; k++)
        if (a->entry[k] != b->entry[k]) {
            snprintf(msg, sizeof msg, "%s differ at entry %zu", what, k);
            fail(msg);
        }
    if (a->n != b->n || a->all != b->all) {
        snprintf(msg, sizeof msg, "%s differ at the end", what);
        fail(msg);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static config c;
    static size_t cut;
    static const cc_sched one_chunk = {NULL, 0, 0, 0};
    cc_sched sched;
    size_t nsec, k, at, left;
    uint32_t seed;
    if (size < CONTROL) return 0;
    memset(&c, 0, sizeof c);
    seed = cc_u32le(data + 2);
    c.cfg.flags = (data[0] & 0x08u ? TDEC_IPT_F_TICKS : 0u) | (data[0] & 0x10u ? TDEC_IPT_F_IFLAGS : 0u);
    c.cfg.errata = ((uint32_t)data[6] | (uint32_t)data[7] << 8) & 0x3ffu;
    c.walk_limit = 1u + data[1];
    nsec = 1u + (data[8] & 3u);
    memset(&img, 0, sizeof img);
    img.cap = data[8] >> 4;
    img.garbage = seed | 1u;
    at = CONTROL;
    for (k = 0; k < nsec && size - at >= SECTION_HEADER; k++, at += SECTION_HEADER) {
        uint64_t vaddr = 0;
        unsigned b;
        for (b = 0; b < 8; b++) vaddr |= (uint64_t)data[at + b] << (8 * b);
        img.sec[k].vaddr = vaddr;
        img.sec[k].size = (uint64_t)data[at + 8] | (uint64_t)data[at + 9] << 8;
        img.sec[k].asid = TDEC_IPT_ASID_ANY;
    }
    img.count = k;
    for (k = 0; k < img.count; k++) {
        left = size - at;
        if (img.sec[k].size > left) img.sec[k].size = left;
        /* sections end within the address space */
        if (img.sec[k].vaddr + img.sec[k].size < img.sec[k].vaddr) img.sec[k].size = 0 - img.sec[k].vaddr;
        img.sec[k].bytes = data + at;
        at += (size_t)img.sec[k].size;
        check_lengths(img.sec[k].bytes, (size_t)img.sec[k].size);
    }
    if (data[0] & 0x20u) check_image_read(&img);
    if (size - at > MAX_TRACE) return 0;
    sched = cc_sched_pick(data[0], seed, size - at, &cut);
    run(&c, &one_chunk, data + at, size - at, &whole, &insn_flow);
    run(&c, &sched, data + at, size - at, &chunked, NULL);
    compare(&whole, &chunked, "whole and chunked decodes");
    if (data[0] & 0x40u) {
        c.blocks = 1;
        c.ends = (data[8] >> 2) & 3u;
        run(&c, &one_chunk, data + at, size - at, &block_whole, &block_flow);
        compare(&insn_flow, &block_flow, "the instruction decoder's flow and the blocks' instructions");
        c.cache_bytes = 8u * (1u + seed % 512u); /* a few entries or none */
        memset(cache_mem, 0, sizeof cache_mem); /* empty; then warm for the next decodes */
        run(&c, &one_chunk, data + at, size - at, &block_cached, NULL);
        compare(&block_whole, &block_cached, "blocks without and with a cache");
        run(&c, &sched, data + at, size - at, &chunked, NULL);
        compare(&block_whole, &chunked, "whole and chunked block decodes");
        c.blocks = 0;
        run(&c, &sched, data + at, size - at, &insn_cached, NULL);
        compare(&whole, &insn_cached, "instructions without and with a cache");
    }
    return 0;
}
