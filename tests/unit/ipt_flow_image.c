/* ipt_flow_image.c - unit tests of layer 3 of single/tdec_ipt.h against
   hostile images and read callbacks: unmapped code reached by a direct
   jump, a TNT bit or a TIP (TDEC_IPT_ERR_NOMAP at libipt's IP and offset),
   an instruction running from a section into an unmapped page (BAD_INSN,
   as libipt's pt_insn_decode_retry turns -pte_nomap into -pte_bad_insn)
   or into an adjacent or newer section (decoded from both, as libipt's
   truncated instructions), endless straight-line code and a direct-jump
   loop (TDEC_IPT_ERR_WALK_LIMIT after walk_limit instructions, each call
   doing bounded work, with both decoders, with and without a cache), read
   callbacks that hand out one byte at a time, more than asked, or nothing
   in the middle of an instruction, and code that changes between two
   calls (read again; with a cache after tdec_ipt_flow_cache_invalidate).
   The expected errors, offsets and IPs are what libipt 2.0.5's
   pt_insn_next gives on the same traces and images (a callback saying it
   read more than asked has no libipt counterpart: nothing of that read is
   believed). Also: a cache's empty entries are no run of IP 0 in mode
   UNKNOWN, and a cache fill walks no further than the walk limit leaves. */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/lib/testlib.h"
#include "tests/lib/ipt_packets.h"
#include "tests/lib/ipt_flow_run.h"

/* A read callback over an image that misbehaves as told, and counts its
   calls. */
typedef struct reader {
    tdec_ipt_image *img;
    size_t          per_read;  /* most bytes one read hands out (0: no cap)   */
    uint64_t        cliff;     /* nothing is handed out from here on (0: none) */
    uint64_t        lie_at;    /* a read here says it handed out one byte more  */
                               /* than asked (0: none)                          */
    size_t          reads;     /* in the current call                          */
    size_t          max_reads; /* in any one call                              */
} reader;

static size_t reader_read(void *ctx, uint64_t asid, uint64_t addr, uint8_t *buf, size_t size)
{
    reader *r = (reader *)ctx;
    r->reads++;
    if (r->cliff && addr >= r->cliff) return 0;
    if (r->cliff && r->cliff - addr < size) size = (size_t)(r->cliff - addr);
    if (r->lie_at && addr == r->lie_at) return tdec_ipt_image_read(r->img, asid, addr, buf, size) ? size + 1 : 0;
    if (r->per_read && r->per_read < size) size = r->per_read;
    return tdec_ipt_image_read(r->img, asid, addr, buf, size);
}

/* The read counts of one call: the most any call made (between calls). */
static void count_reads(void *ctx)
{
    reader *r = (reader *)ctx;
    if (r->reads > r->max_reads) r->max_reads = r->reads;
    r->reads = 0;
}

/* A decode as h says (an instruction decoder without a cache unless it says
   otherwise), through reader r, of trace[0, n) fed whole, into items[]
   (cap of them): the number of items, *last the final status. */
static size_t decode(iptf_how *h, const uint8_t *trace, size_t n, reader *r, tdec_ipt_flow_item *items, size_t cap,
                     tdec_status *last, tdec_ipt_flow_decoder *f)
{
    iptf_out o = {NULL, 0, 0, NULL, 0, 0, TDEC_OK};
    o.items = items;
    o.cap = cap;
    h->read = reader_read;
    h->read_ctx = r;
    h->between = count_reads;
    h->ctx = r;
    r->reads = 0;
    r->max_reads = 0;
    iptf_run(h, trace, n, f, &o);
    *last = o.last;
    return o.n;
}

static void expect_error(tl_case *c, const char *what, tdec_status st, const tdec_ipt_flow_decoder *f, uint32_t reason,
                         uint64_t offset, uint64_t ip)
{
    TL_TRUE(c, st == TDEC_E_CORRUPT && f->st.err_reason == reason && f->st.err_offset == offset && f->err_ip == ip,
            "%s: status %d reason %u offset %llx ip %llx, want reason %u offset %llx ip %llx", what, (int)st,
            f->st.err_reason, (unsigned long long)f->st.err_offset, (unsigned long long)f->err_ip, reason,
            (unsigned long long)offset, (unsigned long long)ip);
}

/* The IPs of items[0, n) are want[0, n) (instructions, or blocks' first). */
static void expect_ips(tl_case *c, const char *what, const tdec_ipt_flow_item *items, size_t n, const uint64_t *want,
                       size_t nwant)
{
    size_t k;
    TL_TRUE(c, n == nwant, "%s: %zu items, want %zu", what, n, nwant);
    for (k = 0; k < n && k < nwant; k++)
        TL_TRUE(c, items[k].kind != TDEC_IPT_FLOW_EVENT && items[k].ip == want[k], "%s: item %zu at %llx, want %llx",
                what, k, (unsigned long long)items[k].ip, (unsigned long long)want[k]);
}

static void test_unmapped(void)
{
    /* 1000: jmp 3000 */
    static const uint8_t jmp[] = {0xe9, 0xfb, 0x1f, 0x00, 0x00};
    /* 1000: nop; 1001: je 1013 */
    static const uint8_t jcc[] = {0x90, 0x74, 0x10};
    /* 1000: nop; 1001: jmp rax */
    static const uint8_t ind[] = {0x90, 0xff, 0xe0};
    static const uint8_t t_jmp[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), PGD_NOIP};
    static const uint8_t t_jcc[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), TNT1(0), PGD_NOIP};
    static const uint8_t t_tip[] = {PSB, FUP(0x1000), MODE64, PSBEND, TIP(0x5000), TNT1(1), PGD_NOIP};
    static const uint64_t ips_jmp[] = {0x1000}, ips_jcc[] = {0x1000, 0x1001};
    tdec_ipt_section sec = {0x1000, sizeof jmp, jmp, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    tdec_ipt_flow_item it[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "hostile image: unmapped code after a direct jump, a TNT bit and a TIP: NOMAP at libipt's IP and offset");
    n = decode(&h, t_jmp, sizeof t_jmp, &r, it, 8, &st, &f);
    expect_ips(&c, "jmp", it, n, ips_jmp, 1);
    expect_error(&c, "jmp", st, &f, TDEC_IPT_ERR_NOMAP, 0x1c, 0x3000);
    sec.bytes = jcc;
    sec.size = sizeof jcc;
    n = decode(&h, t_jcc, sizeof t_jcc, &r, it, 8, &st, &f);
    expect_ips(&c, "je", it, n, ips_jcc, 2);
    expect_error(&c, "je", st, &f, TDEC_IPT_ERR_NOMAP, 0x1d, 0x1013);
    sec.bytes = ind;
    sec.size = sizeof ind;
    n = decode(&h, t_tip, sizeof t_tip, &r, it, 8, &st, &f);
    expect_ips(&c, "jmp rax", it, n, ips_jcc, 2);
    expect_error(&c, "jmp rax", st, &f, TDEC_IPT_ERR_NOMAP, 0x23, 0x5000);
    /* the block decoder: one block, then the same error */
    h.blocks = 1;
    n = decode(&h, t_tip, sizeof t_tip, &r, it, 8, &st, &f);
    TL_TRUE(&c, n == 1 && it[0].kind == TDEC_IPT_FLOW_BLOCK && it[0].ip == 0x1000 && it[0].ninsn == 2,
            "blocks: %zu items", n);
    expect_error(&c, "blocks", st, &f, TDEC_IPT_ERR_NOMAP, 0x23, 0x5000);
    tl_end(&c);
}

static void test_crossing(void)
{
    /* 1000: nop; 1001: call rel32, its last 3 bytes elsewhere or nowhere;
       1006: jmp rax */
    static const uint8_t head[] = {0x90, 0xe8, 0x00}, tail[] = {0x00, 0x00, 0x00, 0xff, 0xe0};
    /* a newer section over 1003..1008 of an older one: the call's last
       bytes, 01 00 00, are the newer ones: call 1106 */
    static const uint8_t older[] = {0x90, 0xe8, 0x00, 0x00, 0x00, 0x00, 0xf4, 0xf4, 0xf4};
    static const uint8_t newer[] = {0x01, 0x00, 0x00, 0xf4, 0xff, 0xe0};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, PGD_NOIP};
    static const uint8_t call[] = {0xe8, 0x00, 0x00, 0x00, 0x00};
    static const uint64_t ips[] = {0x1000, 0x1001, 0x1006}, one[] = {0x1000}, two[] = {0x1000, 0x1001};
    tdec_ipt_section secs[2] = {{0x1000, sizeof head, head, TDEC_IPT_ASID_ANY},
                                {0x1003, sizeof tail, tail, TDEC_IPT_ASID_ANY}};
    tdec_ipt_image img = {secs, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    tdec_ipt_flow_item it[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n, order;
    tl_case c;
    tl_begin(&c, "hostile image: an instruction running into an unmapped page (BAD_INSN), an adjacent or a newer section");
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    expect_ips(&c, "into nothing", it, n, one, 1);
    expect_error(&c, "into nothing", st, &f, TDEC_IPT_ERR_BAD_INSN, 0x1c, 0x1001);
    img.count = 2;
    for (order = 0; order < 2; order++) {
        secs[0] = (tdec_ipt_section){order ? 0x1003u : 0x1000u, order ? sizeof tail : sizeof head,
                                     order ? tail : head, TDEC_IPT_ASID_ANY};
        secs[1] = (tdec_ipt_section){order ? 0x1000u : 0x1003u, order ? sizeof head : sizeof tail,
                                     order ? head : tail, TDEC_IPT_ASID_ANY};
        n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
        TL_EQI(&c, st, TDEC_END);
        expect_ips(&c, "adjacent", it, n > 3 ? 3 : n, ips, 3);
        TL_TRUE(&c, n == 4 && it[3].kind == TDEC_IPT_FLOW_EVENT && it[3].ev.type == TDEC_IPT_EV_DISABLED,
                "adjacent, order %zu: disabled last", order);
        TL_TRUE(&c, n > 1 && it[1].size == 5 && memcmp(it[1].raw, call, 5) == 0 && it[1].iclass == TDEC_IPT_IC_CALL,
                "adjacent, order %zu: the call's bytes from both sections", order);
    }
    secs[0] = (tdec_ipt_section){0x1000, sizeof older, older, TDEC_IPT_ASID_ANY};
    secs[1] = (tdec_ipt_section){0x1003, sizeof newer, newer, TDEC_IPT_ASID_ANY};
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    expect_ips(&c, "newer", it, n, two, 2);
    expect_error(&c, "newer", st, &f, TDEC_IPT_ERR_NOMAP, 0x1c, 0x1106);
    tl_end(&c);
}

static void test_endless(void)
{
    static uint8_t nops[4096];
    static const uint8_t loop[] = {0xeb, 0xfe}; /* jmp . */
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, TIP(0x9000)};
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_section sec = {0x1000, sizeof nops, nops, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    static tdec_ipt_flow_item it[1024];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n, cache, k;
    tl_case c;
    tl_begin(&c, "hostile image: endless straight-line code and a jump loop end at the walk limit, with bounded work per call");
    h.limit = 100;
    memset(nops, 0x90, sizeof nops);
    n = decode(&h, trace, sizeof trace, &r, it, 1024, &st, &f);
    TL_EQU(&c, n, 100);
    expect_error(&c, "nops", st, &f, TDEC_IPT_ERR_WALK_LIMIT, 0x1b, 0x1000 + 100);
    TL_TRUE(&c, r.max_reads <= 1, "nops: %zu reads in one call", r.max_reads);
    h.blocks = 1;
    for (cache = 0; cache <= sizeof mem; cache += sizeof mem) {
        h.cache = mem;
        h.cache_size = cache;
        n = decode(&h, trace, sizeof trace, &r, it, 1024, &st, &f);
        TL_TRUE(&c, n == 1 && it[0].ninsn == 100 && it[0].end_ip == 0x1000 + 99, "blocks, cache %zu: %zu items", cache,
                n);
        expect_error(&c, "blocks", st, &f, TDEC_IPT_ERR_WALK_LIMIT, 0x1b, 0x1000 + 100);
        /* 100 instructions, and at most one run of the cache filled */
        /* 100 instructions the slow way or through the cache: a fill never
           walks more than the walk limit leaves */
        TL_TRUE(&c, r.max_reads <= 2 * 100 + 2, "blocks, cache %zu: %zu reads in one call", cache, r.max_reads);
    }
    sec.bytes = loop;
    sec.size = sizeof loop;
    h.limit = 1000;
    /* instructions without a cache, blocks with one, instructions with one
       (read from blocks) */
    for (k = 0; k < 3; k++) {
        h.blocks = k == 1;
        h.cache = k ? mem : NULL;
        h.cache_size = k ? sizeof mem : 0;
        n = decode(&h, trace, sizeof trace, &r, it, 1024, &st, &f);
        TL_TRUE(&c, h.blocks ? n == 1 && it[0].ninsn == 1000 : n == 1000, "jmp ., %zu: %zu items", k, n);
        expect_error(&c, "jmp .", st, &f, TDEC_IPT_ERR_WALK_LIMIT, 0x1b, 0x1000);
        TL_TRUE(&c, r.max_reads <= (k ? 2 * 1000u + 2 : 1u), "jmp ., %zu: %zu reads in one call", k, r.max_reads);
    }
    tl_end(&c);
}

static void test_callbacks(void)
{
    /* 1000: nop; 1001: je 1000 (taken once); 1003: mov rax, imm64; 100d: jmp rax */
    static const uint8_t code[] = {0x90, 0x74, 0xfd, 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xe0};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), TNT1(0), PGD_NOIP};
    static const uint64_t ips[] = {0x1000, 0x1001, 0x1000, 0x1001, 0x1003, 0x100d}, some[] = {0x1000, 0x1001, 0x1000, 0x1001};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    tdec_ipt_flow_item a[8], b[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n, m, k;
    tl_case c;
    tl_begin(&c, "hostile callbacks: one byte a read, more than asked, nothing in the middle of an instruction");
    n = decode(&h, trace, sizeof trace, &r, a, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    expect_ips(&c, "image", a, n > 6 ? 6 : n, ips, 6);
    r.per_read = 1;
    m = decode(&h, trace, sizeof trace, &r, b, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, m, n);
    for (k = 0; k < n && k < m; k++)
        TL_TRUE(&c, a[k].kind == b[k].kind && a[k].ip == b[k].ip && a[k].size == b[k].size &&
                        memcmp(a[k].raw, b[k].raw, sizeof a[k].raw) == 0,
                "one byte a read: item %zu", k);
    TL_TRUE(&c, r.max_reads <= 15, "one byte a read: %zu reads in one call", r.max_reads);
    /* a callback saying it read more than asked is not believed */
    r.per_read = 0;
    r.lie_at = 0x1000;
    n = decode(&h, trace, sizeof trace, &r, a, 8, &st, &f);
    TL_EQU(&c, n, 0);
    expect_error(&c, "more than asked", st, &f, TDEC_IPT_ERR_NOMAP, 0x1c, 0x1000);
    /* ... nor in the middle of an instruction (the mov at 1003 read 2 bytes
       at a time) */
    r.per_read = 2;
    r.lie_at = 0x1005;
    n = decode(&h, trace, sizeof trace, &r, a, 8, &st, &f);
    expect_ips(&c, "more than asked, inside", a, n, some, 4);
    expect_error(&c, "more than asked, inside", st, &f, TDEC_IPT_ERR_BAD_INSN, 0x1e, 0x1003);
    /* nothing from 0x1008 on: the mov is cut */
    r.per_read = 0;
    r.lie_at = 0;
    r.cliff = 0x1008;
    n = decode(&h, trace, sizeof trace, &r, a, 8, &st, &f);
    expect_ips(&c, "cut", a, n, some, 4);
    expect_error(&c, "cut", st, &f, TDEC_IPT_ERR_BAD_INSN, 0x1e, 0x1003);
    tl_end(&c);
}

/* The code of test_code_change and what it becomes after the first item. */
static uint8_t patched[4];

static void patch(size_t item, tdec_ipt_flow_decoder *f, void *ctx)
{
    static const uint8_t nops_then_jmp[] = {0x90, 0x90, 0xff, 0xe0};
    (void)ctx;
    if (item != 0) return;
    memcpy(patched, nops_then_jmp, sizeof patched);
    tdec_ipt_flow_cache_invalidate(f);
}

static void test_code_change(void)
{
    /* 1000: jne 1000; 1002: jmp rax. After the first item: 1000: nop;
       1001: nop; 1002: jmp rax */
    static const uint8_t code[] = {0x75, 0xfe, 0xff, 0xe0};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), PGD_NOIP};
    static const uint64_t unchanged[] = {0x1000, 0x1000}, changed[] = {0x1000, 0x1000, 0x1001, 0x1002};
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_section sec = {0x1000, sizeof patched, patched, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    tdec_ipt_flow_item it[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "hostile image: code changing between two calls is read again (a cache after invalidate)");
    /* unchanged: jne taken, then the disable binds to the next jne */
    memcpy(patched, code, sizeof patched);
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    expect_ips(&c, "unchanged", it, n > 2 ? 2 : n, unchanged, 2);
    TL_TRUE(&c, n == 3 && it[2].kind == TDEC_IPT_FLOW_EVENT && it[2].ev.type == TDEC_IPT_EV_DISABLED, "disabled");
    memcpy(patched, code, sizeof patched);
    h.after = patch;
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    expect_ips(&c, "changed", it, n > 4 ? 4 : n, changed, 4);
    TL_TRUE(&c, n == 5 && it[4].kind == TDEC_IPT_FLOW_EVENT && it[4].ev.type == TDEC_IPT_EV_DISABLED, "disabled");
    /* blocks, with a cache that has seen the old code at 1000 */
    memcpy(patched, code, sizeof patched);
    h.blocks = 1;
    h.cache = mem;
    h.cache_size = sizeof mem;
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_TRUE(&c, n == 3 && it[0].ip == 0x1000 && it[0].ninsn == 1 && it[1].ip == 0x1000 && it[1].ninsn == 3 &&
                    it[1].end_ip == 0x1002,
            "blocks: %zu items", n);
    tl_end(&c);
}

/* The code of test_changed_block, and how it changes after the first
   item: 1001 becomes jmp rax, or unmapped. */
static uint8_t block_code[4];
static tdec_ipt_section block_sec;

static void jump_early(size_t item, tdec_ipt_flow_decoder *f, void *ctx)
{
    (void)ctx;
    if (item != 0) return;
    block_code[1] = 0xff;
    block_code[2] = 0xe0;
    tdec_ipt_flow_cache_invalidate(f);
}

static void unmap_tail(size_t item, tdec_ipt_flow_decoder *f, void *ctx)
{
    (void)f;
    (void)ctx;
    if (item == 0) block_sec.size = 1;
}

static void test_changed_block(void)
{
    /* 1000: nop; 1001: nop; 1002: jmp rax: a block of 3, to the TIP, twice */
    static const uint8_t code[] = {0x90, 0x90, 0xff, 0xe0};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, TIP(0x1000), PGD_NOIP};
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_image img = {&block_sec, 1};
    iptf_how h = iptf_default();
    iptf_step steps[8];
    iptf_out o = {NULL, 0, 0, steps, 8, 0, TDEC_OK};
    tdec_ipt_flow_decoder f;
    tl_case c;
    tl_begin(&c, "hostile image: a block's code changed before it is read again: block_walk's NOSYNC or NOMAP (ptxed's "
                 "[fetch error]), the instruction decoder's NOSYNC");
    block_sec = (tdec_ipt_section){0x1000, sizeof block_code, block_code, TDEC_IPT_ASID_ANY};
    h.read_ctx = &img;
    h.blocks = 1;
    /* unchanged: 1000, 1001, 1002 twice, then disabled */
    memcpy(block_code, code, sizeof block_code);
    iptf_run(&h, trace, sizeof trace, &f, &o);
    TL_TRUE(&c, o.last == TDEC_END && o.nsteps == 7 && steps[0].ip == 0x1000 && steps[1].ip == 0x1001 &&
                    steps[2].ip == 0x1002 && steps[5].kind == IPTF_INSN && steps[6].kind == IPTF_EVENT,
            "unchanged: %zu steps, %d", o.nsteps, (int)o.last);
    /* 1001 is an indirect jump now, the block's last instruction is at 1002 */
    h.after = jump_early;
    memcpy(block_code, code, sizeof block_code);
    iptf_run(&h, trace, sizeof trace, &f, &o);
    TL_TRUE(&c, o.nsteps >= 2 && steps[0].kind == IPTF_INSN && steps[0].ip == 0x1000 && steps[1].kind == IPTF_FETCH &&
                    steps[1].ip == 0x1001 && steps[1].what == TDEC_IPT_ERR_NOSYNC,
            "jmp rax at 1001: %zu steps, the second kind %u ip %llx reason %u", o.nsteps, steps[1].kind,
            (unsigned long long)steps[1].ip, steps[1].what);
    /* 1001 is no longer mapped */
    h.after = unmap_tail;
    memcpy(block_code, code, sizeof block_code);
    iptf_run(&h, trace, sizeof trace, &f, &o);
    TL_TRUE(&c, o.nsteps >= 2 && steps[1].kind == IPTF_FETCH && steps[1].ip == 0x1001 &&
                    steps[1].what == TDEC_IPT_ERR_NOMAP,
            "unmapped 1001: the second kind %u ip %llx reason %u", steps[1].kind, (unsigned long long)steps[1].ip,
            steps[1].what);
    /* the instruction decoder with a cache reads its blocks again: the
       error at the instruction that changed, where libipt's decoder is */
    block_sec.size = sizeof block_code;
    memcpy(block_code, code, sizeof block_code);
    h.blocks = 0;
    h.cache = mem;
    h.cache_size = sizeof mem;
    h.after = jump_early;
    iptf_run(&h, trace, sizeof trace, &f, &o);
    TL_TRUE(&c, o.last == TDEC_E_CORRUPT && f.st.err_reason == TDEC_IPT_ERR_NOSYNC && f.err_ip == 0x1001 &&
                    o.nsteps == 1 && steps[0].ip == 0x1000,
            "instructions: %zu steps, %d reason %u ip %llx", o.nsteps, (int)o.last, f.st.err_reason,
            (unsigned long long)f.err_ip);
    tl_end(&c);
}

static void test_cache_empty(void)
{
    /* 0: nop; 1: nop; 2: jmp rax, three times to 0, in mode UNKNOWN (no
       MODE.exec) with the cache's memory all zero; then the code becomes
       0: jmp rax and the cache is invalidated */
    static const uint8_t code[] = {0x90, 0x90, 0xff, 0xe0}, changed[] = {0xff, 0xe0, 0x90, 0x90};
    static const uint8_t trace[] = {PSB, FUP(0), PSBEND, TIP(0), TIP(0), TIP(0), PGD_NOIP};
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    static uint8_t now[4];
    tdec_ipt_section sec = {0, sizeof now, now, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    reader r = {&img, 0, 0, 0, 0, 0};
    iptf_how h = iptf_default();
    tdec_ipt_flow_item it[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n, k;
    tl_case c;
    tl_begin(&c, "cache: an empty entry is no run of IP 0 in mode UNKNOWN, nor one invalidated");
    h.blocks = 1;
    h.cache = mem;
    h.cache_size = sizeof mem;
    memcpy(now, code, sizeof now);
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 5);
    for (k = 0; k < 4 && k < n; k++)
        TL_TRUE(&c, it[k].kind == TDEC_IPT_FLOW_BLOCK && it[k].ip == 0 && it[k].ninsn == 3 && it[k].end_ip == 2 &&
                        it[k].size == 2,
                "block %zu: ip %llx ninsn %u end %llx size %u", k, (unsigned long long)it[k].ip, it[k].ninsn,
                (unsigned long long)it[k].end_ip, it[k].size);
    memcpy(now, changed, sizeof now);
    tdec_ipt_flow_cache_invalidate(&f);
    n = decode(&h, trace, sizeof trace, &r, it, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 5);
    for (k = 0; k < 4 && k < n; k++)
        TL_TRUE(&c, it[k].kind == TDEC_IPT_FLOW_BLOCK && it[k].ip == 0 && it[k].ninsn == 1 && it[k].end_ip == 0,
                "changed, block %zu: ip %llx ninsn %u end %llx", k, (unsigned long long)it[k].ip, it[k].ninsn,
                (unsigned long long)it[k].end_ip);
    tl_end(&c);
}

int main(void)
{
    test_unmapped();
    test_crossing();
    test_endless();
    test_callbacks();
    test_code_change();
    test_changed_block();
    test_cache_empty();
    return tl_exit_code();
}
