/* ipt_flow.c - unit tests of layer 3 of single/tdec_ipt.h (in progress):
   the image helper tdec_ipt_image_read and the instruction flow decoder
   tdec_ipt_flow_* on hand-made traces and images: a call and a compressed
   return, an empty return stack, unmapped code, the walk limit on an
   endless direct-jump loop, tick events, errata BDM64 and SKL014 (and the
   IP filter check), where tracing is expected to resume after a disable,
   and the same items from 1-byte feeds. The
   ptt vectors are tests/golden/ipt_flow.sh. */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/lib/testlib.h"
#include "tests/lib/ipt_packets.h"
#include "tests/lib/ipt_flow_run.h"

/* The cache run_cfg gives its decoder (none unless a test sets one). */
static void  *run_cache;
static size_t run_cache_size;

/* Runs the flow decoder over trace[0, n) fed `chunk` bytes at a time into
   items[]: the number of items, *last the final status. The IP filter:
   filter, if not NULL. */
static size_t run_cfg(const tdec_ipt_config *cfg, const tdec_ipt_addr_filter *filter, const uint8_t *trace,
                      size_t n, size_t chunk, tdec_ipt_image *img, uint32_t limit, tdec_ipt_flow_item *items, size_t cap,
                      tdec_status *last, tdec_ipt_flow_decoder *f)
{
    iptf_how h = iptf_default();
    iptf_out o = {NULL, 0, 0, NULL, 0, 0, TDEC_OK};
    h.cfg = cfg;
    h.filter = filter;
    h.read_ctx = img;
    h.limit = limit;
    h.cache = run_cache;
    h.cache_size = run_cache_size;
    h.chunk = chunk;
    o.items = items;
    o.cap = cap;
    iptf_run(&h, trace, n, f, &o);
    *last = o.last;
    return o.n;
}

/* run_cfg with the default configuration. */
static size_t run(const uint8_t *trace, size_t n, size_t chunk, tdec_ipt_image *img, uint32_t limit,
                  tdec_ipt_flow_item *items, size_t cap, tdec_status *last, tdec_ipt_flow_decoder *f)
{
    return run_cfg(NULL, NULL, trace, n, chunk, img, limit, items, cap, last, f);
}

static void expect_insn(tl_case *c, const tdec_ipt_flow_item *it, uint64_t ip)
{
    TL_TRUE(c, it->kind == TDEC_IPT_FLOW_INSN && it->ip == ip, "kind %u ip %llx, want insn %llx", it->kind,
            (unsigned long long)it->ip, (unsigned long long)ip);
}

/* Are two items the same, field by field (their padding aside)? */
static int same_item(const tdec_ipt_flow_item *x, const tdec_ipt_flow_item *y)
{
    const tdec_ipt_event *e = &x->ev, *g = &y->ev;
    return x->kind == y->kind && x->size == y->size && x->iclass == y->iclass && x->mode == y->mode &&
           x->speculative == y->speculative && x->ip == y->ip && x->end_ip == y->end_ip && x->ninsn == y->ninsn &&
           memcmp(x->raw, y->raw, sizeof x->raw) == 0 &&
           e->ip == g->ip && e->arg == g->arg && e->arg2 == g->arg2 && e->tsc == g->tsc &&
           e->lost_mtc == g->lost_mtc && e->lost_cyc == g->lost_cyc && e->flags == g->flags && e->aux == g->aux &&
           e->type == g->type && e->a == g->a && e->b == g->b;
}

/* Fed in 1-byte pieces with cfg, trace[0, size) gives the n items a[]. */
static void expect_alike_in_bytes(tl_case *c, const tdec_ipt_config *cfg, const uint8_t *trace, size_t size,
                                  tdec_ipt_image *img, const tdec_ipt_flow_item *a, size_t n)
{
    tdec_ipt_flow_item b[16];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t m, k;
    m = run_cfg(cfg, NULL, trace, size, 1, img, 0, b, 16, &st, &f);
    TL_EQI(c, st, TDEC_END);
    TL_EQU(c, m, n);
    for (k = 0; k < n && k < m; k++) TL_TRUE(c, same_item(&a[k], &b[k]), "item %zu", k);
}

static void test_call_ret(void)
{
    /* 1000: call 1007; 1005: jmp rax; 1007: ret (compressed: a TNT bit) */
    static const uint8_t code[] = {0xe8, 0x02, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xc3};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_item a[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: call, compressed return, disable at the indirect jump; 1-byte feeds alike");
    n = run(trace, sizeof trace, 4096, &img, 0, a, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 4);
    if (n == 4) {
        expect_insn(&c, &a[0], 0x1000);
        expect_insn(&c, &a[1], 0x1007);
        expect_insn(&c, &a[2], 0x1005);
        TL_TRUE(&c, a[3].kind == TDEC_IPT_FLOW_EVENT && a[3].ev.type == TDEC_IPT_EV_DISABLED, "disabled");
        TL_EQU(&c, a[1].iclass, TDEC_IPT_IC_RETURN);
        TL_EQU(&c, a[0].mode, TDEC_IPT_MODE_64);
    }
    TL_EQU(&c, f.enabled, 0);
    expect_alike_in_bytes(&c, NULL, trace, sizeof trace, &img, a, n);
    tl_end(&c);
}

static void test_errors(void)
{
    static const uint8_t ret[] = {0xc3};
    static const uint8_t loop[] = {0xeb, 0xfe}; /* jmp . */
    static const uint8_t t_ret[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), PGD_NOIP};
    static const uint8_t t_nomap[] = {PSB, FUP(0x5000), MODE64, PSBEND, PGD_NOIP};
    static const uint8_t t_loop[] = {PSB, FUP(0x1000), MODE64, PSBEND, PGD(0x2000)};
    tdec_ipt_section sec = {0x1000, 1, ret, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_item it[4];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: empty return stack (after the return, at the IP after it), unmapped code, the walk limit");
    n = run(t_ret, sizeof t_ret, 4096, &img, 0, it, 4, &st, &f);
    /* the return ran: it comes first, the error after it (libipt's block),
       at the IP after it (ptxed's diagnose: not a query error) */
    TL_TRUE(&c, n == 1 && it[0].ip == 0x1000 && st == TDEC_E_CORRUPT && f.st.err_reason == TDEC_IPT_ERR_RETSTACK_EMPTY &&
                    f.err_ip == 0x1001, "ret: %zu %d %u", n, (int)st, f.st.err_reason);
    n = run(t_nomap, sizeof t_nomap, 4096, &img, 0, it, 4, &st, &f);
    TL_TRUE(&c, n == 0 && st == TDEC_E_CORRUPT && f.st.err_reason == TDEC_IPT_ERR_NOMAP && f.err_ip == 0x5000,
            "nomap: %zu %d %u", n, (int)st, f.st.err_reason);
    TL_EQI(&c, tdec_ipt_flow_resync(&f), TDEC_NEED_INPUT);
    sec.bytes = loop;
    sec.size = sizeof loop;
    n = run(t_loop, sizeof t_loop, 4096, &img, 3, it, 4, &st, &f);
    TL_TRUE(&c, n == 3 && st == TDEC_E_CORRUPT && f.st.err_reason == TDEC_IPT_ERR_WALK_LIMIT,
            "loop: %zu %d %u", n, (int)st, f.st.err_reason);
    TL_TRUE(&c, tdec_ipt_reason_str(TDEC_IPT_ERR_WALK_LIMIT)[0] != '\0', "reason text");
    tl_end(&c);
}

static void expect_tick(tl_case *c, const tdec_ipt_flow_item *it, uint64_t ip, uint64_t tsc)
{
    TL_TRUE(c, it->kind == TDEC_IPT_FLOW_EVENT && it->ev.type == TDEC_IPT_EV_TICK && it->ev.ip == ip &&
                   it->ev.tsc == tsc && (it->ev.flags & TDEC_IPT_EVF_HAS_TSC),
            "kind %u type %u ip %llx tsc %llx, want tick at %llx, tsc %llx", it->kind, it->ev.type,
            (unsigned long long)it->ev.ip, (unsigned long long)it->ev.tsc, (unsigned long long)ip,
            (unsigned long long)tsc);
}

static void test_ticks(void)
{
    /* 1000, 1002, 1004: je +0 (each a TNT bit); 1006: jmp rax (disable) */
    static const uint8_t code[] = {0x74, 0x00, 0x74, 0x00, 0x74, 0x00, 0xff, 0xe0};
    static const uint8_t trace[] = {PSB,     TSC(0x100), FUP(0x1000), MODE64,     PSBEND,  TSC(0x200),
                                    TNT1(1), TNT1(0),    TSC(0x300),  TNT1(1),    PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_config cfg;
    tdec_ipt_flow_item a[10];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: ticks where libipt master puts them (a TNT bit with a new time: after its branch, at the "
                 "successor; a TNT read after an old one's last bit: before the branch using it), none when off; "
                 "1-byte feeds alike");
    n = run(trace, sizeof trace, 4096, &img, 0, a, 10, &st, &f);
    TL_TRUE(&c, n == 5 && st == TDEC_END, "without ticks: %zu items, %d", n, (int)st);
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = TDEC_IPT_F_TICKS;
    n = run_cfg(&cfg, NULL, trace, sizeof trace, 4096, &img, 0, a, 10, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 7);
    if (n == 7) {
        /* what libipt master's ptxed --event:tick --event:ip prints */
        expect_insn(&c, &a[0], 0x1000);
        expect_tick(&c, &a[1], 0x1002, 0x200);
        expect_insn(&c, &a[2], 0x1002); /* same time: no tick after it, but the next TNT's */
        expect_tick(&c, &a[3], 0x1004, 0x300);
        expect_insn(&c, &a[4], 0x1004);
        expect_insn(&c, &a[5], 0x1006);
        TL_TRUE(&c, a[6].kind == TDEC_IPT_FLOW_EVENT && a[6].ev.type == TDEC_IPT_EV_DISABLED, "disabled");
    }
    expect_alike_in_bytes(&c, &cfg, trace, sizeof trace, &img, a, n);
    tl_end(&c);
}

/* Decodes trace with ticks on, with both decoders, fed whole and in 1-byte
   pieces: the instructions and events are want ("insn IP", "tick IP TSC",
   "event TYPE", a line each). */
static void expect_ticks(tl_case *c, const uint8_t *trace, size_t n, tdec_ipt_image *img, const char *want)
{
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_flow_decoder f;
    tdec_ipt_flow_item items[16];
    iptf_step steps[16];
    tdec_ipt_config cfg;
    iptf_how h = iptf_default();
    iptf_out o = {items, 16, 0, steps, 16, 0, TDEC_OK};
    char got[512];
    size_t len, k;
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = TDEC_IPT_F_TICKS;
    h.cfg = &cfg;
    h.read_ctx = img;
    for (h.blocks = 0; h.blocks < 2; h.blocks++)
        for (h.chunk = 0; h.chunk < 2; h.chunk++) {
            memset(mem, 0, sizeof mem);
            h.cache = h.blocks ? mem : NULL;
            h.cache_size = h.blocks ? sizeof mem : 0;
            iptf_run(&h, trace, n, &f, &o);
            for (len = 0, k = 0, got[0] = 0; k < o.nsteps && len < sizeof got - 40; k++) {
                const iptf_step *st = &steps[k];
                if (st->kind == IPTF_INSN)
                    len += (size_t)snprintf(got + len, sizeof got - len, "insn %llx\n", (unsigned long long)st->ip);
                else if (st->kind == IPTF_EVENT && st->what == TDEC_IPT_EV_TICK)
                    len += (size_t)snprintf(got + len, sizeof got - len, "tick %llx\n", (unsigned long long)st->ip);
                else
                    len += (size_t)snprintf(got + len, sizeof got - len, "event %u\n", st->what);
            }
            TL_TRUE(c, o.last == TDEC_END && strcmp(got, want) == 0, "%s decoder, chunk %zu: %d, got\n%swant\n%s",
                    h.blocks ? "block" : "insn", h.chunk, (int)o.last, got, want);
        }
}

static void test_ticks_libipt(void)
{
    /* 1000: je +0; 1002: jmp rax; 1004: je +0; 1006: jmp rax. A TIP
       deferred behind a TNT with a bit left gives no tick (libipt puts
       the TNT back) */
    static const uint8_t dcode[] = {0x74, 0x00, 0xff, 0xe0, 0x74, 0x00, 0xff, 0xe0};
    static const uint8_t deferred[] = {PSB,  TSC(0x100),  FUP(0x1000), MODE64,  PSBEND, TSC(0x200),
                                       0x0c, TSC(0x300), TIP(0x1004), PGD_NOIP}; /* 0x0c: TNT "!." */
    /* 1000: call 1008; 1005: je +0; 1007: hlt; 1008: ret (compressed): a
       tick at the return's target, then at the je's successor */
    static const uint8_t rcode[] = {0xe8, 0x03, 0x00, 0x00, 0x00, 0x74, 0x00, 0xf4, 0xc3};
    static const uint8_t ret[] = {PSB,        FUP(0x1000), MODE64,  PSBEND,      TSC(0x200), TNT1(1),
                                  TSC(0x300), TNT1(0),     FUP(0x1007), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof dcode, dcode, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tl_case c;
    tl_begin(&c, "flow: ticks as libipt master's: none for a deferred TIP, a compressed return's at its target; both "
                 "decoders, 1-byte feeds alike");
    /* what libipt master's ptxed --event:tick --event:ip prints */
    expect_ticks(&c, deferred, sizeof deferred, &img, "insn 1000\ntick 1002\ninsn 1002\ninsn 1004\ninsn 1006\nevent 1\n");
    sec.bytes = rcode;
    sec.size = sizeof rcode;
    expect_ticks(&c, ret, sizeof ret, &img, "insn 1000\ninsn 1008\ntick 1005\ninsn 1005\ntick 1007\nevent 2\n");
    tl_end(&c);
}

static void test_bdm64(void)
{
    /* 1000: je 1005; 1002: nop; 1003: je 1009; 1005, 1006: hlt; 1007,
       1008: nop; 1009: hlt. The je at 1000 is not taken, then the
       transaction aborts at 1005, which cannot be reached from 1002 */
    static const uint8_t code[] = {0x74, 0x03, 0x90, 0x74, 0x04, 0xf4, 0xf4, 0x90, 0x90, 0xf4};
    static const uint8_t trace[] = {PSB,       MODE64,      TSX_BEGIN,   FUP(0x1000), PSBEND,     TNT1(0),
                                    TSX_ABORT, FUP(0x1005), TIP(0x1007), FUP(0x1008), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_config cfg;
    tdec_ipt_flow_item a[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: erratum BDM64 goes on at the abort's IP after a branch; without it, on from the branch");
    n = run(trace, sizeof trace, 4096, &img, 0, a, 8, &st, &f);
    TL_TRUE(&c, n >= 2 && a[1].kind == TDEC_IPT_FLOW_INSN && a[1].ip == 0x1002, "without BDM64: %zu items", n);
    memset(&cfg, 0, sizeof cfg);
    cfg.errata = TDEC_IPT_ERRATUM_BDM64;
    n = run_cfg(&cfg, NULL, trace, sizeof trace, 4096, &img, 0, a, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 5);
    if (n == 5) {
        expect_insn(&c, &a[0], 0x1000);
        TL_EQU(&c, a[0].speculative, 1);
        TL_TRUE(&c, a[1].kind == TDEC_IPT_FLOW_EVENT && a[1].ev.type == TDEC_IPT_EV_TSX &&
                        (a[1].ev.flags & TDEC_IPT_EVF_ABORTED), "aborted");
        TL_TRUE(&c, a[2].kind == TDEC_IPT_FLOW_EVENT && a[2].ev.type == TDEC_IPT_EV_ASYNC_BRANCH, "interrupt");
        expect_insn(&c, &a[3], 0x1007);
        TL_EQU(&c, a[3].speculative, 0);
        TL_TRUE(&c, a[4].kind == TDEC_IPT_FLOW_EVENT && a[4].ev.type == TDEC_IPT_EV_ASYNC_DISABLED, "disabled");
    }
    expect_alike_in_bytes(&c, &cfg, trace, sizeof trace, &img, a, n);
    tl_end(&c);
}

/* Is it an enabled event at ip, resumed or not? */
static void expect_enabled(tl_case *c, const tdec_ipt_flow_item *it, uint64_t ip, int resumed)
{
    TL_TRUE(c, it->kind == TDEC_IPT_FLOW_EVENT && it->ev.type == TDEC_IPT_EV_ENABLED && it->ev.ip == ip &&
                   ((it->ev.flags & TDEC_IPT_EVF_RESUMED) != 0) == resumed,
            "kind %u type %u ip %llx flags %x, want enabled at %llx%s", it->kind, it->ev.type,
            (unsigned long long)it->ev.ip, it->ev.flags, (unsigned long long)ip, resumed ? ", resumed" : "");
}

static void test_resume(void)
{
    /* 1000: call rax; 1002: nop; 1003: jmp rax. A disable with an IP (an
       IP filter's TIP.PGD at the branch target) that binds to an indirect
       branch expects tracing to resume after it if it is a call, else
       nowhere, as libipt (master and 2.0.5) sets it: the enable at 1002
       is resumed, the one at 1000 is not, although the disable's IP was
       1000 (the real-execution corpus, tests/data/ipt/exec, has both) */
    static const uint8_t code[] = {0xff, 0xd0, 0x90, 0xff, 0xe0};
    static const uint8_t call[] = {PSB, FUP(0x1000), MODE64, PSBEND, PGD(0x5000), PGE(0x1002), PGD_NOIP};
    static const uint8_t jump[] = {PSB, FUP(0x1003), MODE64, PSBEND, PGD(0x1000), PGE(0x1000), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_item a[8];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: where a disable with an IP bound to an indirect call or jump expects tracing to resume");
    n = run(call, sizeof call, 4096, &img, 0, a, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 6);
    if (n == 6) {
        expect_insn(&c, &a[0], 0x1000);
        TL_TRUE(&c, a[1].kind == TDEC_IPT_FLOW_EVENT && a[1].ev.type == TDEC_IPT_EV_DISABLED && a[1].ev.ip == 0x5000,
                "disabled at 5000");
        expect_enabled(&c, &a[2], 0x1002, 1);
        expect_insn(&c, &a[3], 0x1002);
        expect_insn(&c, &a[4], 0x1003);
    }
    expect_alike_in_bytes(&c, NULL, call, sizeof call, &img, a, n);
    n = run(jump, sizeof jump, 4096, &img, 0, a, 8, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 5);
    if (n == 5) {
        expect_insn(&c, &a[0], 0x1003);
        expect_enabled(&c, &a[2], 0x1000, 0);
        expect_insn(&c, &a[3], 0x1000);
    }
    expect_alike_in_bytes(&c, NULL, jump, sizeof jump, &img, a, n);
    tl_end(&c);
}

static void test_skl014(void)
{
    /* 1000: jmp 1003 (inside the filter); 1003: call 2000 (outside); 1008:
       hlt. The suppressed disable binds to the call with SKL014 and a
       filter; without, the walk goes on to the unmapped 2000 */
    static const uint8_t code[] = {0xeb, 0x01, 0xf4, 0xe8, 0xf8, 0x0f, 0x00, 0x00, 0xf4};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_addr_filter filter = {0x21, 0, {0x1000, 0x1004, 0, 0}, {0x1fff, 0x1004, 0, 0}};
    tdec_ipt_config cfg;
    tdec_ipt_flow_item a[4];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: erratum SKL014 binds a suppressed disable to a direct branch leaving the filter; the filter check");
    TL_EQI(&c, tdec_ipt_filter_check(&filter, 0x1003), 1);
    TL_EQI(&c, tdec_ipt_filter_check(&filter, 0x1004), 0); /* the stop range wins */
    TL_EQI(&c, tdec_ipt_filter_check(&filter, 0x1fff), 1);
    TL_EQI(&c, tdec_ipt_filter_check(&filter, 0x2000), 0);
    TL_EQI(&c, tdec_ipt_filter_check(&filter, 0xfff), 0);
    memset(&cfg, 0, sizeof cfg);
    cfg.errata = TDEC_IPT_ERRATUM_SKL014;
    n = run_cfg(&cfg, NULL, trace, sizeof trace, 4096, &img, 0, a, 4, &st, &f);
    TL_TRUE(&c, n == 2 && st == TDEC_E_CORRUPT && f.st.err_reason == TDEC_IPT_ERR_NOMAP && f.err_ip == 0x2000,
            "without a filter: %d %u %llx", (int)st, f.st.err_reason, (unsigned long long)f.err_ip);
    TL_EQI(&c, tdec_ipt_flow_set_filter(&f, NULL), TDEC_E_ARG);
    n = run_cfg(&cfg, &filter, trace, sizeof trace, 1, &img, 0, a, 4, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 3);
    if (n == 3) {
        expect_insn(&c, &a[0], 0x1000);
        expect_insn(&c, &a[1], 0x1003);
        TL_TRUE(&c, a[2].kind == TDEC_IPT_FLOW_EVENT && a[2].ev.type == TDEC_IPT_EV_DISABLED, "disabled");
    }
    tl_end(&c);
}

static void test_skd022(void)
{
    /* 1000: nop; 1001: vmlaunch; 1004: hlt. An async disable (FUP 1001 +
       TIP.PGD) at the VMLAUNCH: with SKD022 a synchronous disable that binds
       to it (libipt 2.0.5's pt_insn decoder on this trace: insn 1000, insn
       1001, disabled with its IP suppressed); without, or at another
       instruction, the async disable at 1001 */
    static const uint8_t code[] = {0x90, 0x0f, 0x01, 0xc2, 0xf4};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, FUP(0x1001), PGD_NOIP};
    static const uint8_t at_nop[] = {PSB, FUP(0x1000), MODE64, PSBEND, FUP(0x1000), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_config cfg;
    tdec_ipt_flow_item a[4];
    tdec_ipt_flow_decoder f;
    tdec_status st;
    size_t n;
    tl_case c;
    tl_begin(&c, "flow: erratum SKD022 turns an async disable at VMLAUNCH into a disable bound to it; 1-byte feeds alike");
    n = run(trace, sizeof trace, 4096, &img, 0, a, 4, &st, &f);
    TL_TRUE(&c, n == 2 && st == TDEC_END && a[1].kind == TDEC_IPT_FLOW_EVENT &&
                    a[1].ev.type == TDEC_IPT_EV_ASYNC_DISABLED && a[1].ev.arg == 0x1001,
            "without SKD022: %zu items, %d", n, (int)st);
    memset(&cfg, 0, sizeof cfg);
    cfg.errata = TDEC_IPT_ERRATUM_SKD022;
    n = run_cfg(&cfg, NULL, at_nop, sizeof at_nop, 4096, &img, 0, a, 4, &st, &f);
    TL_TRUE(&c, n == 1 && st == TDEC_END && a[0].ev.type == TDEC_IPT_EV_ASYNC_DISABLED,
            "at a nop: %zu items, %d", n, (int)st);
    n = run_cfg(&cfg, NULL, trace, sizeof trace, 4096, &img, 0, a, 4, &st, &f);
    TL_EQI(&c, st, TDEC_END);
    TL_EQU(&c, n, 3);
    if (n == 3) {
        expect_insn(&c, &a[0], 0x1000);
        expect_insn(&c, &a[1], 0x1001);
        TL_TRUE(&c, a[2].kind == TDEC_IPT_FLOW_EVENT && a[2].ev.type == TDEC_IPT_EV_DISABLED &&
                        (a[2].ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED),
                "disabled, no IP");
    }
    TL_EQU(&c, f.enabled, 0);
    expect_alike_in_bytes(&c, &cfg, trace, sizeof trace, &img, a, n);
    tl_end(&c);
}

/* Decodes trace as ptxed --resync-on-error does, fed `chunk` bytes at a
   time: a line per item, error ("error REASON @OFFSET IP"), resync
   ("resync on"/"resync off", "resync error ..."), and the end. */
static void run_resync(const uint8_t *trace, size_t n, size_t chunk, tdec_ipt_image *img, char *log, size_t cap)
{
    static tdec_ipt_flow_decoder f;
    static iptf_step steps[64];
    iptf_how h = iptf_default();
    iptf_out o = {NULL, 0, 0, steps, 64, 0, TDEC_OK};
    size_t len = 0, k;
    h.read_ctx = img;
    h.chunk = chunk;
    h.on_error = IPTF_RESYNC_EVENT;
    iptf_run(&h, trace, n, &f, &o);
    log[0] = 0;
    for (k = 0; k < o.nsteps && len < cap - 80; k++) {
        const iptf_step *s = &steps[k];
        if (s->kind == IPTF_INSN)
            len += (size_t)snprintf(log + len, cap - len, "insn %llx\n", (unsigned long long)s->ip);
        else if (s->kind == IPTF_EVENT)
            len += (size_t)snprintf(log + len, cap - len, "event %u\n", s->what);
        else if (s->kind == IPTF_RESYNC)
            len += (size_t)snprintf(log + len, cap - len, "resync %s\n", s->what ? "on" : "off");
        else
            len += (size_t)snprintf(log + len, cap - len, "%serror %u @%llx %llx\n", s->resyncing ? "resync " : "",
                                    s->what, (unsigned long long)s->offset, (unsigned long long)s->ip);
    }
    snprintf(log + len, cap - len, "end %d\n", (int)o.last);
}

static void expect_resync(tl_case *c, const uint8_t *trace, size_t n, tdec_ipt_image *img, const char *want)
{
    char whole[1024], bytes[1024];
    run_resync(trace, n, 4096, img, whole, sizeof whole);
    run_resync(trace, n, 1, img, bytes, sizeof bytes);
    TL_TRUE(c, strcmp(whole, want) == 0, "got\n%swant\n%s", whole, want);
    TL_TRUE(c, strcmp(bytes, whole) == 0, "1-byte feeds:\n%s", bytes);
}

static void test_resync_event(void)
{
    /* 1000: jmp 3000 (unmapped); 1005: nop; 1006: hlt */
    static const uint8_t code[] = {0xe9, 0xfb, 0x1f, 0x00, 0x00, 0x90, 0xf4};
    static const uint8_t t_tip[] = {PSB, FUP(0x1000), MODE64, PSBEND, TIP(0x1005), FUP16(0x1006), PGD_NOIP};
    static const uint8_t t_ptw[] = {PSB, FUP(0x1000), MODE64, PSBEND, PTW_NOIP(0xabcd)};
    /* a PSB+ at 1005 that the walk from 1000 cannot reach */
    static const uint8_t t_psb[] = {PSB, FUP(0x1000), MODE64, PSBEND, PSB, FUP(0x1005), MODE64, PSBEND,
                                    FUP16(0x1006), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_decoder f;
    tdec_ipt_flow_item it;
    tl_case c;
    tl_begin(&c, "flow resync_event: at a TIP, past a PTWRITE without IP to the end, from a PSB+; 1-byte feeds alike");
    /* the TIP gives the IP and is used up; the async disable follows */
    expect_resync(&c, t_tip, sizeof t_tip, &img,
                  "insn 1000\nerror 13 @1b 3000\nresync on\ninsn 1005\nevent 2\nend 2\n");
    /* the PTWRITE is handed out (libipt's -pte_event_ignored); then the
       end: no event to go on at ("resync error", end of trace), the PSB
       resync finds nothing more */
    expect_resync(&c, t_ptw, sizeof t_ptw, &img,
                  "insn 1000\nerror 13 @21 3000\nevent 16\nresync error 7 @21 3000\nend 2\n");
    /* the second PSB+'s exec-mode status at 1005 cannot be reached; resync
       starts again from that PSB+ (tracing on at 1005) */
    expect_resync(&c, t_psb, sizeof t_psb, &img,
                  "insn 1000\nerror 13 @34 3000\nresync on\ninsn 1005\nevent 2\nend 2\n");
    TL_EQI(&c, tdec_ipt_flow_init(&f, NULL, tdec_ipt_image_read, &img, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_flow_resync_event(&f, &it), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_flow_resync_event(&f, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_flow_resync_event(NULL, &it), TDEC_E_ARG);
    tl_end(&c);
}

/* Decodes trace with the block decoder (blocks) or the instruction decoder,
   offsets asked before each item as ptxed --offset does, fed `chunk` bytes
   at a time: the steps' offsets and IPs are want[] ("OFFSET IP" for an
   instruction, "OFFSET event TYPE" for an event, a line each). */
static void expect_offsets(tl_case *c, const uint8_t *trace, size_t n, tdec_ipt_image *img, int blocks, size_t chunk,
                           const char *want)
{
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_flow_decoder f;
    iptf_step steps[16];
    iptf_how h = iptf_default();
    iptf_out o = {NULL, 0, 0, steps, 16, 0, TDEC_OK};
    char got[512];
    size_t len = 0, k;
    memset(mem, 0, sizeof mem);
    h.read_ctx = img;
    h.blocks = blocks;
    h.cache = mem;
    h.cache_size = sizeof mem;
    h.chunk = chunk;
    h.offsets = 1;
    iptf_run(&h, trace, n, &f, &o);
    got[0] = 0;
    for (k = 0; k < o.nsteps && len < sizeof got - 40; k++)
        len += (size_t)snprintf(got + len, sizeof got - len, "%llx %s%llx\n", (unsigned long long)steps[k].offset,
                                steps[k].kind == IPTF_EVENT ? "event " : "",
                                steps[k].kind == IPTF_EVENT ? (unsigned long long)steps[k].what : (unsigned long long)steps[k].ip);
    TL_TRUE(c, o.last == TDEC_END && strcmp(got, want) == 0, "%s decoder, chunk %zu: %d, got\n%swant\n%s",
            blocks ? "block" : "insn", chunk, (int)o.last, got, want);
}

static void test_offsets(void)
{
    /* 1000: call 1007; 1005: jmp rax; 1007: ret (compressed) */
    static const uint8_t callret[] = {0xe8, 0x02, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xc3};
    static const uint8_t t_callret[] = {PSB, FUP(0x1000), MODE64, PSBEND, TNT1(1), PGD_NOIP};
    /* 1000: nop; 1001: call far [rax], a PIP bound to it; 1004: hlt */
    static const uint8_t farcall[] = {0x90, 0xff, 0x18, 0xf4, 0x90, 0x90, 0xf4};
    static const uint8_t t_pip[] = {PSB, FUP(0x1000), MODE64, PSBEND, PIP(0xcdcdc0), TIP(0x1004), FUP16(0x1005), PGD_NOIP};
    tdec_ipt_section sec = {0x1000, sizeof callret, callret, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    size_t chunk;
    int blocks;
    tl_case c;
    tl_begin(&c, "flow offset: libipt's (ptxed --offset): past the PSB+ status events, past an instruction's successor "
                 "after the event bound to it; any chunks");
    /* what libipt master's ptxed --offset prints on these traces */
    for (chunk = 1; chunk <= 4096; chunk += 4095) {
        /* the block decoder only: libipt's instruction decoder, walking
           the call the first time, ends its block there (docs/ipt.md) */
        expect_offsets(&c, t_callret, sizeof t_callret, &img, 1, chunk, "1c 1000\n1c 1007\n1d 1005\n1d event 1\n");
        sec.bytes = farcall;
        sec.size = sizeof farcall;
        for (blocks = 0; blocks < 2; blocks++)
            expect_offsets(&c, t_pip, sizeof t_pip, &img, blocks, chunk, "23 1000\n23 1001\n23 event 4\n2d 1004\n2d event 2\n");
        sec.bytes = callret;
        sec.size = sizeof callret;
    }
    tl_end(&c);
}

static void test_image(void)
{
    static const uint8_t old[] = {1, 2, 3, 4}, fresh[] = {9, 9}, other[] = {7};
    tdec_ipt_section secs[3] = {{0x100, 4, old, TDEC_IPT_ASID_ANY},
                                {0x101, 2, fresh, TDEC_IPT_ASID_ANY},
                                {0x200, 1, other, 0xc000}};
    tdec_ipt_image img = {secs, 3};
    uint8_t buf[8] = {0};
    tl_case c;
    tl_begin(&c, "image: the last section wins, reads stop at its end or where a later one begins, address spaces");
    /* the newer section at 0x101 cuts the old one, as in libipt's image */
    TL_EQU(&c, tdec_ipt_image_read(&img, 0, 0x100, buf, 8), 1);
    TL_EQU(&c, buf[0], 1);
    TL_EQU(&c, tdec_ipt_image_read(&img, 0, 0x101, buf, 8), 2);
    TL_TRUE(&c, buf[0] == 9 && buf[1] == 9, "the newer section");
    TL_EQU(&c, tdec_ipt_image_read(&img, 0, 0x103, buf, 8), 1);
    TL_EQU(&c, buf[0], 4);
    TL_EQU(&c, tdec_ipt_image_read(&img, 0, 0x104, buf, 8), 0);
    TL_EQU(&c, tdec_ipt_image_read(&img, 0, 0x200, buf, 8), 0);
    TL_EQU(&c, tdec_ipt_image_read(&img, 0xc000, 0x200, buf, 8), 1);
    TL_EQU(&c, tdec_ipt_image_read(NULL, 0, 0x100, buf, 8), 0);
    tl_end(&c);
}

/* Runs the block decoder (cache: mem[0, cache_size), ends: TDEC_IPT_BLOCK_
   END_ON_*) over trace[0, n) fed `chunk` bytes at a time into items[]; the
   blocks' instructions, read again with tdec_ipt_block_walk, into ips[]
   (*nips of them, at most 64). */
static size_t run_blocks(const uint8_t *trace, size_t n, size_t chunk, tdec_ipt_image *img, void *mem,
                         size_t cache_size, unsigned ends, tdec_ipt_flow_item *items, size_t cap, uint64_t *ips,
                         size_t *nips, tdec_status *last)
{
    tdec_ipt_flow_decoder f;
    iptf_step steps[64];
    iptf_how h = iptf_default();
    iptf_out o = {NULL, 0, 0, steps, 64, 0, TDEC_OK};
    size_t k;
    h.read_ctx = img;
    h.blocks = 1;
    h.ends = ends;
    h.cache = mem;
    h.cache_size = cache_size;
    h.chunk = chunk;
    o.items = items;
    o.cap = cap;
    iptf_run(&h, trace, n, &f, &o);
    *nips = 0;
    for (k = 0; k < o.nsteps; k++)
        if (steps[k].kind == IPTF_INSN || steps[k].kind == IPTF_FETCH) ips[(*nips)++] = steps[k].ip;
    *last = o.last;
    return o.n;
}

static void test_blocks(void)
{
    /* 1000: mov ecx, 3; 1005: dec ecx; 1007: jnz 1005; 1009: call 1010;
       100e: jmp rax; 1010: nop; 1011: ret */
    static const uint8_t code[] = {0xb9, 0x03, 0x00, 0x00, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xe8,
                                   0x02, 0x00, 0x00, 0x00, 0xff, 0xe0, 0x90, 0xc3};
    static const uint8_t trace[] = {PSB,     FUP(0x1000), MODE64,  PSBEND,       TNT1(1), TNT1(1),
                                    TNT1(0), TNT1(1),     TIP(0x1000), PGD_NOIP};
    /* the blocks libipt gives: first IP, instructions; then [disabled] */
    static const uint64_t want_ip[] = {0x1000, 0x1005, 0x1005, 0x1009, 0x100e, 0x1000};
    static const uint32_t want_n[] = {3, 2, 2, 3, 1, 3};
    static const uint64_t call_ip[] = {0x1000, 0x1005, 0x1005, 0x1009, 0x1010, 0x100e, 0x1000};
    static const uint32_t call_n[] = {3, 2, 2, 1, 2, 1, 3};
    static uint64_t mem[64 * TDEC_IPT_CACHE_ENTRY / 8];
    static const size_t cache_sizes[] = {0, TDEC_IPT_CACHE_ENTRY, 2 * TDEC_IPT_CACHE_ENTRY + 8, sizeof mem};
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_item it[16], insns[32];
    tdec_ipt_flow_decoder f;
    uint64_t ips[64];
    size_t n, m, nips, k, c1, chunk;
    tdec_status st;
    tl_case c;
    tl_begin(&c, "blocks: ends as libipt's (trace used, event, end-on-call), with and without a cache, in any chunks");
    m = run(trace, sizeof trace, sizeof trace, &img, 0, insns, 32, &st, &f);
    TL_EQU(&c, m, 15); /* 14 instructions and [disabled] */
    for (c1 = 0; c1 < 4; c1++)
        for (chunk = 1; chunk <= sizeof trace; chunk += sizeof trace - 1) {
            n = run_blocks(trace, sizeof trace, chunk, &img, mem, cache_sizes[c1], 0, it, 16, ips, &nips, &st);
            TL_EQI(&c, st, TDEC_END);
            TL_EQU(&c, n, 7);
            for (k = 0; k < 6 && k < n; k++)
                TL_TRUE(&c, it[k].kind == TDEC_IPT_FLOW_BLOCK && it[k].ip == want_ip[k] && it[k].ninsn == want_n[k],
                        "cache %zu chunk %zu: block %zu at %llx of %u", cache_sizes[c1], chunk, k,
                        (unsigned long long)it[k].ip, it[k].ninsn);
            TL_TRUE(&c, n == 7 && it[6].kind == TDEC_IPT_FLOW_EVENT && it[6].ev.type == TDEC_IPT_EV_DISABLED,
                    "disabled last");
            TL_TRUE(&c, it[3].end_ip == 0x1011 && it[3].iclass == TDEC_IPT_IC_RETURN && it[4].end_ip == 0x100e,
                    "end_ip and class of the last instruction");
            /* the blocks' instructions are the instruction decoder's */
            TL_EQU(&c, nips, 14);
            for (k = 0; k < nips && k + 1 < m; k++)
                TL_TRUE(&c, ips[k] == insns[k].ip, "instruction %zu: %llx, insn decoder %llx", k,
                        (unsigned long long)ips[k], (unsigned long long)insns[k].ip);
        }
    /* with a cache, instructions come from blocks: the same items */
    for (c1 = 1; c1 < 4; c1++) {
        tdec_ipt_flow_item cached[32];
        memset(mem, 0, sizeof mem);
        run_cache = mem;
        run_cache_size = cache_sizes[c1];
        n = run(trace, sizeof trace, 1, &img, 0, cached, 32, &st, &f);
        run_cache = NULL;
        TL_TRUE(&c, n == m && st == TDEC_END, "instructions with cache %zu: %zu items", cache_sizes[c1], n);
        for (k = 0; k < n && k < m; k++) TL_TRUE(&c, same_item(&cached[k], &insns[k]), "cache %zu: item %zu", cache_sizes[c1], k);
    }
    n = run_blocks(trace, sizeof trace, 3, &img, mem, sizeof mem, TDEC_IPT_BLOCK_END_ON_CALL, it, 16, ips, &nips, &st);
    TL_EQU(&c, n, 8);
    for (k = 0; k < 7 && k < n; k++)
        TL_TRUE(&c, it[k].ip == call_ip[k] && it[k].ninsn == call_n[k], "end-on-call: block %zu", k);
    TL_EQI(&c, tdec_ipt_flow_set_cache(&f, (char *)mem + 4, 96), TDEC_E_ARG);
    tl_end(&c);

    tl_begin(&c, "blocks: code changed under a warm cache is seen after tdec_ipt_flow_cache_invalidate");
    {
        uint8_t changed[sizeof code];
        tdec_ipt_section sec2 = {0x1000, sizeof code, changed, TDEC_IPT_ASID_ANY};
        tdec_ipt_image img2 = {&sec2, 1};
        memcpy(changed, code, sizeof code);
        n = run_blocks(trace, sizeof trace, sizeof trace, &img2, mem, sizeof mem, 0, it, 16, ips, &nips, &st);
        TL_TRUE(&c, n == 7 && it[0].ninsn == 3, "warm: %zu items, first block %u", n, it[0].ninsn);
        memset(changed + 5, 0x90, 2); /* dec ecx (the loop's body) becomes two nops */
        TL_EQI(&c, tdec_ipt_flow_set_cache(&f, mem, sizeof mem), TDEC_OK);
        tdec_ipt_flow_cache_invalidate(&f);
        n = run_blocks(trace, sizeof trace, sizeof trace, &img2, mem, sizeof mem, 0, it, 16, ips, &nips, &st);
        TL_TRUE(&c, n >= 2 && it[1].ip == 0x1005 && it[1].ninsn == 3 && ips[4] == 0x1005 && ips[5] == 0x1006,
                "after invalidate: second block %u", n > 1 ? it[1].ninsn : 0);
    }
    tl_end(&c);
}

static void test_block_loop(void)
{
    /* 1000: nop; 1001: jmp 1000, until the walk limit */
    static const uint8_t code[] = {0x90, 0xeb, 0xfd};
    static const uint8_t trace[] = {PSB, FUP(0x1000), MODE64, PSBEND, PGD(0x2000)};
    static uint64_t mem[4 * TDEC_IPT_CACHE_ENTRY / 8];
    tdec_ipt_section sec = {0x1000, sizeof code, code, TDEC_IPT_ASID_ANY};
    tdec_ipt_image img = {&sec, 1};
    tdec_ipt_flow_item it[2];
    uint64_t ips[64];
    size_t n, nips, k, cache;
    tdec_status st;
    tl_case c;
    tl_begin(&c, "blocks: a loop of direct jumps passes end_ip before the block ends; block_walk follows it");
    for (cache = 0; cache <= sizeof mem; cache += sizeof mem) {
        n = run_blocks(trace, sizeof trace, sizeof trace, &img, mem, cache, 0, it, 2, ips, &nips, &st);
        TL_EQU(&c, n, 2);
        TL_TRUE(&c, it[0].kind == TDEC_IPT_FLOW_BLOCK && it[0].ip == 0x1000 && it[0].ninsn == 65535 &&
                        it[0].end_ip == 0x1000,
                "cache %zu: kind %u ip %llx ninsn %u end %llx", cache, it[0].kind, (unsigned long long)it[0].ip,
                it[0].ninsn, (unsigned long long)it[0].end_ip);
        TL_EQU(&c, nips, 64);
        for (k = 0; k < nips; k++)
            TL_TRUE(&c, ips[k] == 0x1000 + (k & 1u), "cache %zu: instruction %zu at %llx", cache, k,
                    (unsigned long long)ips[k]);
    }
    tl_end(&c);
}

/* The instructions and events the flow decoder gives for trace[0, n)
   (blocks read again, with a cache, or instructions one by one without)
   before its first error or end, into steps[] (at most cap); the count. */
static size_t prefix_steps(const uint8_t *trace, size_t n, tdec_ipt_image *img, int blocks, iptf_step *steps,
                           size_t cap)
{
    static uint64_t mem[256 * TDEC_IPT_CACHE_ENTRY / 8];
    static tdec_ipt_flow_decoder f;
    iptf_how h = iptf_default();
    iptf_out o = {NULL, 0, 0, NULL, 0, 0, TDEC_OK};
    h.read_ctx = img;
    h.limit = 4096;
    h.blocks = blocks;
    if (blocks) {
        memset(mem, 0, sizeof mem);
        h.cache = mem;
        h.cache_size = sizeof mem;
    }
    o.steps = steps;
    o.steps_cap = cap;
    iptf_run(&h, trace, n, &f, &o);
    return o.nsteps;
}

/* Are steps a[0, n) the first n of b (kind, event type or IP)? Else the
   index of the first that differs, in *at. */
static int steps_begin(const iptf_step *a, size_t n, const iptf_step *b, size_t nb, size_t *at)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (k >= nb || a[k].kind != b[k].kind || a[k].what != b[k].what || a[k].ip != b[k].ip) break;
    *at = k;
    return k == n;
}

/* Every prefix of every vector of tests/data/ipt (INDEX.tsv) with a code
   image: the instructions and events decoded from the first L bytes, up to
   the first error or the end, are the first of the whole trace's (what the
   cut leaves undecided is not given out); modulo the end: the events after
   the prefix's last instruction may be the end's own (an overflow whose
   conflict with later packets the whole trace sees, a disable the whole
   trace binds further on). */
static void test_prefixes(void)
{
    static const char *const dirs[2] = {"tests/data/ipt", "../tests/data/ipt"};
    static iptf_step whole[4096], part[4096];
    const char *dir = tl_find_dir(dirs, 2, "INDEX.tsv");
    char path[512], name[128], line[2048];
    unsigned long long org;
    size_t len, clen, nw, np, L, at, vectors = 0, runs = 0, events = 0, compared = 0;
    uint8_t *trace, *code;
    int blocks, bad = 0;
    FILE *index;
    tl_case c;
    tl_begin(&c, "every prefix of every vector: its instructions and events begin the whole trace's (both decoders)");
    TL_TRUE(&c, dir != NULL, "no tests/data/ipt/INDEX.tsv");
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir ? dir : ".");
    index = dir ? fopen(path, "r") : NULL;
    while (index && fgets(line, sizeof line, index) && !bad) {
        if (sscanf(line, "%127s %*s %*s %llx", name, &org) != 2) continue;
        snprintf(path, sizeof path, "%s/%s/%s.bin", dir, name, name);
        code = tl_read_file(path, &clen);
        snprintf(path, sizeof path, "%s/%s/%s.pt", dir, name, name);
        trace = code ? tl_read_file(path, &len) : NULL;
        if (trace) {
            tdec_ipt_section sec = {org, clen, code, TDEC_IPT_ASID_ANY};
            tdec_ipt_image img = {&sec, 1};
            vectors++;
            for (blocks = 0; blocks < 2 && !bad; blocks++) {
                nw = prefix_steps(trace, len, &img, blocks, whole, 4096);
                for (at = 0; at < nw; at++) events += whole[at].kind == IPTF_EVENT;
                for (L = 0; L < len && !bad; L++) {
                    np = prefix_steps(trace, L, &img, blocks, part, 4096);
                    while (np > 0 && part[np - 1].kind == IPTF_EVENT) np--;
                    for (at = 0; at < np; at++) compared += part[at].kind == IPTF_EVENT;
                    runs++;
                    if (!steps_begin(part, np, whole, nw, &at)) {
                        TL_TRUE(&c, 0, "%s, %s decoder, first %zu bytes: step %zu of %zu (kind %u what %u ip %llx) is not "
                                "the whole trace's (%zu steps)", name, blocks ? "block" : "insn", L, at, np,
                                part[at].kind, part[at].what, (unsigned long long)part[at].ip, nw);
                        bad = 1;
                    }
                }
            }
        }
        free(trace);
        free(code);
    }
    if (index) fclose(index);
    TL_TRUE(&c, vectors >= 140, "%zu vectors with an image", vectors);
    TL_TRUE(&c, events >= 600 && compared >= 2000, "%zu events in the whole traces, %zu compared in prefixes", events,
            compared);
    printf("  %zu vectors, %zu prefix runs, %zu events, %zu compared in prefixes\n", vectors, runs, events, compared);
    tl_end(&c);
}

static void test_sizes(void)
{
    tl_case c;
    tl_begin(&c, "flow sizes (MEMORY, LP64)");
    if (sizeof(void *) == 8) {
        TL_EQU(&c, sizeof(tdec_ipt_flow_decoder), 3544);
        TL_EQU(&c, sizeof(tdec_ipt_flow_item), 104);
        TL_EQU(&c, sizeof(tdec_ipt__cached), TDEC_IPT_CACHE_ENTRY);
        TL_EQU(&c, sizeof(tdec_ipt_section), 32);
    }
    tl_end(&c);
}

int main(void)
{
    test_call_ret();
    test_errors();
    test_ticks();
    test_ticks_libipt();
    test_bdm64();
    test_skl014();
    test_skd022();
    test_resync_event();
    test_resume();
    test_offsets();
    test_image();
    test_blocks();
    test_block_loop();
    test_prefixes();
    test_sizes();
    return tl_exit_code();
}
