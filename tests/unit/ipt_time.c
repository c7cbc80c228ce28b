/* ipt_time.c - tests of the Intel PT timing types and the errata table
   (in single/tdec_ipt.h).

   Sections:
     1. tdec_ipt__udiv64 against the host's 64-bit division;
     2. unit cases, each with its expected values worked out by hand from
        libipt's algorithm (libipt/src/pt_time.c) in the
        comment beside it;
     3. the CPU errata table: hand-picked CPUs from libipt's pt_cpu_errata(),
        and every CPU listed in the vectors' INDEX.tsv against the errata
        sets pttc/libipt enabled for them (column 6).
   The timing columns ptdump prints (--time, --tcal, --time-delta) are
   checked against ptdump's own output through the CLI, by
   tests/golden/ipt.sh.

   Usage: build/unit/ipt_time [vector-dir]; default tests/data/ipt (run from the
   repository root). */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/lib/testlib.h"

#include <inttypes.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* helpers                                                             */

/* Sets *p to a packet of the kind, payload and aux; returns p, to be passed
   on in the same line. */
static const tdec_ipt_packet *pk(tdec_ipt_packet *p, unsigned kind, uint64_t payload, uint32_t aux)
{
    memset(p, 0, sizeof *p);
    p->kind = (uint8_t)kind;
    p->payload = payload;
    p->aux = aux;
    return p;
}

static tdec_ipt_config mkcfg(unsigned mtc_freq, unsigned nom_freq, uint32_t eax, uint32_t ebx)
{
    tdec_ipt_config c;
    memset(&c, 0, sizeof c);
    c.mtc_freq = (uint8_t)mtc_freq;
    c.nom_freq = (uint8_t)nom_freq;
    c.cpuid_0x15_eax = eax;
    c.cpuid_0x15_ebx = ebx;
    return c;
}

/* A value function's result in libipt's convention: 0, or the negated
   reason (RC_BAD when the status does not go with the reason: TDEC_OK
   exactly when the reason is 0, else one of the three error statuses the
   header gives these functions). Called as RC(function, arguments...). */
#define RC_BAD 0x7fffffff
#define RC(f, ...) rc(#f, f(__VA_ARGS__, &g_why), &g_why)
static uint32_t g_why;

static int rc(const char *f, tdec_status st, const uint32_t *why)
{
    int ok = *why == 0 ? st == TDEC_OK
                       : st == TDEC_E_ARG || st == TDEC_E_CORRUPT || st == TDEC_E_SEQUENCE;
    if (!ok) {
        fprintf(stderr, "%s: status %d with reason %u\n", f, (int)st, (unsigned)*why);
        return RC_BAD;
    }
    return -(int)*why;
}

/* The TSC as query_tsc reports it; *st gets the status. */
static uint64_t qtsc(const tdec_ipt_time *t, int *st)
{
    uint64_t v = 0xdeadbeefull;
    *st = RC(tdec_ipt_time_query_tsc, t, &v, NULL, NULL);
    return v;
}

static uint64_t qfcr(const tdec_ipt_tcal *c, int *st)
{
    uint64_t v = 0xdeadbeefull;
    *st = RC(tdec_ipt_tcal_query_fcr, c, &v);
    return v;
}

static uint64_t rng64(uint64_t *s)
{
    uint64_t x = *s; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* ------------------------------------------------------------------ */
/* 1. division                                                         */

static void test_udiv64(void)
{
    static const uint64_t edge[] = {0,
                                    1,
                                    2,
                                    3,
                                    7,
                                    255,
                                    256,
                                    0xffffu,
                                    0x10000u,
                                    0x7fffffffu,
                                    0x80000000u,
                                    0xffffffffu,
                                    0x100000000ull,
                                    0x100000001ull,
                                    0x1ffffffffull,
                                    0xffffffff00000000ull,
                                    0x8000000000000000ull,
                                    0x8000000000000001ull,
                                    0x7fffffffffffffffull,
                                    0xfffffffffffffffeull,
                                    0xffffffffffffffffull,
                                    0x00ffffffffffffffull,
                                    0x0100000000000000ull,
                                    0x123456789abcdef0ull};
    const size_t ne = sizeof edge / sizeof edge[0];
    tl_case c;
    size_t i, j;
    uint64_t s = 0x9e3779b97f4a7c15ull, n, d, q;
    unsigned long count = 0;

    tl_begin(&c, "udiv64: edge values against the host's division");
    for (i = 0; i < ne; i++)
        for (j = 0; j < ne; j++) {
            n = edge[i];
            d = edge[j];
            if (d == 0) continue;
            q = tdec_ipt__udiv64(n, d);
            TL_TRUE(&c, q == n / d, "%" PRIx64 " / %" PRIx64 " = %" PRIx64, n, d, q);
            /* neighbours of the edges */
            q = tdec_ipt__udiv64(n - 1u, d);
            TL_TRUE(&c, q == (n - 1u) / d, "%" PRIx64 " / %" PRIx64, n - 1u, d);
            count += 2;
        }
    /* n = k * d + r around exact multiples */
    for (i = 0; i < 20000; i++) {
        d = rng64(&s) >> (rng64(&s) & 63u);
        if (d == 0) d = 1;
        q = rng64(&s) >> (rng64(&s) & 63u);
        n = q * d; /* may wrap: still a valid input */
        TL_TRUE(&c, tdec_ipt__udiv64(n, d) == n / d, "%" PRIx64 " / %" PRIx64, n, d);
        TL_TRUE(&c, tdec_ipt__udiv64(n + 1u, d) == (n + 1u) / d, "%" PRIx64 "+1 / %" PRIx64, n, d);
        TL_TRUE(&c, tdec_ipt__udiv64(n - 1u, d) == (n - 1u) / d, "%" PRIx64 "-1 / %" PRIx64, n, d);
        count += 3;
    }
    TL_TRUE(&c, count > 60000, "count %lu", count);
    tl_end(&c);

    tl_begin(&c, "udiv64: 2,000,000 random pairs of every bit length");
    for (i = 0; i < 2000000; i++) {
        n = rng64(&s) >> (rng64(&s) & 63u);
        d = rng64(&s) >> (rng64(&s) & 63u);
        if (d == 0) continue;
        q = tdec_ipt__udiv64(n, d);
        if (!TL_TRUE(&c, q == n / d, "%" PRIx64 " / %" PRIx64 " = %" PRIx64, n, d, q)) break;
    }
    tl_end(&c);

    tl_begin(&c, "udiv64: division by zero gives 0 (never used)");
    TL_EQU(&c, tdec_ipt__udiv64(12345, 0), 0);
    TL_EQU(&c, tdec_ipt__udiv64(UINT64_MAX, 0), 0);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 2. unit cases                                                       */

static void test_basics(void)
{
    tl_case c;
    tdec_ipt_time t, t0;
    tdec_ipt_tcal k;
    tdec_ipt_config cfg = mkcfg(4, 0, 2, 1);
    tdec_ipt_packet p;
    uint64_t v;
    uint32_t lm, lc, cbr;
    int st;

    tl_begin(&c, "sizes: time 48, tcal 64 bytes, fcr shift 8");
    TL_EQU(&c, sizeof(tdec_ipt_time), 48);
    TL_EQU(&c, sizeof(tdec_ipt_tcal), 64);
    TL_EQI(&c, TDEC_IPT_TCAL_FCR_SHR, 8);
    tl_end(&c);

    tl_begin(&c, "time: fresh time has no TSC (outputs still written) and no CBR");
    memset(&t, 0xa5, sizeof t);
    tdec_ipt_time_init(&t);
    v = 77;
    lm = lc = 99;
    TL_EQI(&c, RC(tdec_ipt_time_query_tsc, &t, &v, &lm, &lc), -TDEC_IPT_ERR_NO_TIME);
    TL_EQU(&c, v, 0);
    TL_EQU(&c, lm, 0);
    TL_EQU(&c, lc, 0);
    cbr = 1234;
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, &t, &cbr), -TDEC_IPT_ERR_NO_CBR);
    TL_EQU(&c, cbr, 1234); /* untouched */
    tl_end(&c);

    tl_begin(&c, "time: NULL arguments are internal errors, wrong kinds invalid");
    pk(&p, TDEC_IPT_TSC, 5, 0);
    TL_EQI(&c, RC(tdec_ipt_time_query_tsc, NULL, &v, NULL, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_query_tsc, &t, NULL, NULL, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, NULL, &cbr), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, &t, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_update_tsc, NULL, &p, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_update_tsc, &t, NULL, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, NULL, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, &p, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, &p, NULL), -TDEC_IPT_ERR_INTERNAL);
    /* libipt checks the config even when there is no calibration */
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, &p, NULL, 0), -TDEC_IPT_ERR_INTERNAL);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, &p, &cfg, 0), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_time_update_tsc, &t, pk(&p, TDEC_IPT_MTC, 5, 0), &cfg),
           -TDEC_IPT_ERR_INVALID);
    TL_TRUE(&c, memcmp(&t, &t0, sizeof t) == 0, "state changed");
    tl_end(&c);

    /* The header's table: the status says whose error it is, the reason
       which (libipt's code); reason may be NULL, and is 0 with TDEC_OK. */
    tl_begin(&c, "value functions: status by whose error, libipt's code in *reason");
    {
        tdec_ipt_config nocfg = mkcfg(8, 0, 0, 0);
        tdec_ipt_last_ip l;
        uint32_t why = 77;
        tdec_ipt_time_init(&t);
        tdec_ipt_last_ip_init(&l);
        TL_EQI(&c, tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), NULL, &why),
               TDEC_OK);
        TL_EQU(&c, why, 0);
        TL_EQI(&c, tdec_ipt_time_update_tsc(&t, &p, NULL, NULL), TDEC_OK);
        TL_EQI(&c, tdec_ipt_time_query_tsc(NULL, &v, NULL, NULL, &why), TDEC_E_ARG);
        TL_EQU(&c, why, TDEC_IPT_ERR_INTERNAL);
        TL_EQI(&c, tdec_ipt_time_update_cbr(&t, &p, NULL, &why), TDEC_E_ARG);
        TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
        TL_EQI(&c, tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &nocfg, NULL),
               TDEC_OK);
        TL_EQI(&c, tdec_ipt_time_update_mtc(&t, pk(&p, TDEC_IPT_MTC, 0x13, 0), &nocfg, &why),
               TDEC_E_ARG);
        TL_EQU(&c, why, TDEC_IPT_ERR_BAD_CONFIG);
        TL_EQI(&c, tdec_ipt_time_update_cbr(&t, pk(&p, TDEC_IPT_CBR, 0, 0), NULL, &why),
               TDEC_E_CORRUPT);
        TL_EQU(&c, why, TDEC_IPT_ERR_BAD_PACKET);
        TL_EQI(&c, tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &nocfg, &why),
               TDEC_E_CORRUPT);
        TL_EQU(&c, why, TDEC_IPT_ERR_BAD_CONTEXT);
        TL_EQI(&c, tdec_ipt_time_query_cbr(&t, &cbr, &why), TDEC_E_SEQUENCE);
        TL_EQU(&c, why, TDEC_IPT_ERR_NO_CBR);
        tdec_ipt_time_init(&t);
        TL_EQI(&c, tdec_ipt_time_query_tsc(&t, &v, NULL, NULL, &why), TDEC_E_SEQUENCE);
        TL_EQU(&c, why, TDEC_IPT_ERR_NO_TIME);
        TL_EQI(&c, tdec_ipt_last_ip_query(&l, &v, &why), TDEC_E_SEQUENCE);
        TL_EQU(&c, why, TDEC_IPT_ERR_NOIP);
        pk(&p, TDEC_IPT_TIP, 0x1000, 0);
        p.sub = TDEC_IPT_IPC_FULL;
        TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_OK);
        p.sub = TDEC_IPT_IPC_SUPPRESSED;
        TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_OK);
        TL_EQI(&c, tdec_ipt_last_ip_query(&l, &v, &why), TDEC_E_SEQUENCE);
        TL_EQU(&c, why, TDEC_IPT_ERR_IP_SUPPRESSED);
        p.sub = 5; /* a reserved compression */
        TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_E_CORRUPT);
        TL_EQU(&c, why, TDEC_IPT_ERR_BAD_PACKET);
    }
    tl_end(&c);

    tl_begin(&c, "time: TSC sets the time and clears the loss counters (cfg unused)");
    tdec_ipt_time_init(&t);
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 10, 0), &cfg, 0),
           0); /* no fcr: lost */
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, &p, &cfg, 0), 0);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, lc, 2);
    TL_EQI(&c, RC(tdec_ipt_time_update_tsc, &t, pk(&p, TDEC_IPT_TSC, 0xdedededeull, 0), NULL), 0);
    TL_EQI(&c, RC(tdec_ipt_time_query_tsc, &t, &v, &lm, &lc), 0);
    TL_EQU(&c, v, 0xdedededeull);
    TL_EQU(&c, lm, 0);
    TL_EQU(&c, lc, 0);
    tl_end(&c);

    tl_begin(&c, "time: CBR 0 is a bad packet, CBR payload used as 8 bits");
    tdec_ipt_time_init(&t);
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, pk(&p, TDEC_IPT_CBR, 0, 0), NULL),
           -TDEC_IPT_ERR_BAD_PACKET);
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, &t, &cbr), -TDEC_IPT_ERR_NO_CBR);
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, pk(&p, TDEC_IPT_CBR, 0x38, 0), NULL), 0);
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, &t, &cbr), 0);
    TL_EQU(&c, cbr, 0x38);
    /* libipt's ratio is a uint8_t: 0x100 is 0 there, 0x142 is 0x42 */
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, pk(&p, TDEC_IPT_CBR, 0x100, 0), NULL),
           -TDEC_IPT_ERR_BAD_PACKET);
    TL_EQI(&c, RC(tdec_ipt_time_query_cbr, &t, &cbr), 0);
    TL_EQU(&c, cbr, 0x38); /* kept */
    TL_EQI(&c, RC(tdec_ipt_time_update_cbr, &t, pk(&p, TDEC_IPT_CBR, 0x142, 0), NULL), 0);
    tdec_ipt_time_query_cbr(&t, &cbr, NULL);
    TL_EQU(&c, cbr, 0x42);
    tl_end(&c);

    tl_begin(&c, "tcal: fresh calibration has no fcr; set_fcr; NULLs");
    memset(&k, 0x5a, sizeof k);
    tdec_ipt_tcal_init(&k);
    v = qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQU(&c, v, 0xdeadbeefull); /* untouched */
    TL_EQI(&c, RC(tdec_ipt_tcal_set_fcr, &k, 0), 0); /* 0 is a valid (useless) fcr */
    v = qfcr(&k, &st);
    TL_EQI(&c, st, 0);
    TL_EQU(&c, v, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_set_fcr, &k, 300), 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_set_fcr, &k, 200), 0);
    TL_EQU(&c, qfcr(&k, &st), 200);
    TL_EQU(&c, k.min_fcr, 0);
    TL_EQU(&c, k.max_fcr, 300);
    TL_EQI(&c, RC(tdec_ipt_tcal_query_fcr, NULL, &v), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_query_fcr, &k, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_set_fcr, NULL, 1), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 1, 0), NULL),
           -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, NULL, &p, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cyc, &k, NULL, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_tsc, &k, NULL, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, NULL, &p, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_psb, &k, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_ovf, &k, NULL), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_ovf, NULL, &cfg), -TDEC_IPT_ERR_INTERNAL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cyc, &k, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_tma, &k, &p, &cfg), -TDEC_IPT_ERR_INVALID);
    /* libipt's pt_tcal_update_tma checks nothing */
    TL_EQI(&c, RC(tdec_ipt_tcal_update_tma, NULL, NULL, NULL), 0);
    TL_EQU(&c, qfcr(&k, &st), 200); /* none of the failures changed it */
    tl_end(&c);
}

static void test_time(void)
{
    tl_case c;
    tdec_ipt_time t, t0;
    tdec_ipt_config cfg;
    tdec_ipt_packet p;
    uint64_t v;
    uint32_t lm, lc;
    int st;

    /* TMA must follow a TSC (pt_time_update_tma: -pte_bad_context). */
    tl_begin(&c, "time: TMA before TSC and a second TMA are bad context, no change");
    cfg = mkcfg(8, 0, 1, 4);
    tdec_ipt_time_init(&t);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &cfg),
           -TDEC_IPT_ERR_BAD_CONTEXT);
    TL_TRUE(&c, memcmp(&t, &t0, sizeof t) == 0, "changed");
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &cfg), 0);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, &p, &cfg), -TDEC_IPT_ERR_BAD_CONTEXT);
    TL_TRUE(&c, memcmp(&t, &t0, sizeof t) == 0, "changed");
    /* an MTC state only a caller can make: have_mtc without the TMA */
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    t.have_mtc = 1;
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &cfg),
           -TDEC_IPT_ERR_INTERNAL);
    tl_end(&c);

    /* mtc_freq 8, ratio ebx/eax = 4. TSC 0x1000; TMA ctc 0x1234 fc 0x10:
       base = 0x1000 - 0x10 = 0xff0, fc = 0x10, time stays 0x1000; mtc_hi =
       16 <= 16: the TMA counts as an MTC, ctc = 0x1234.
       MTC 0x13: ctc = 0x13 << 8 = 0x1300, delta 0xcc = 204 -> 816 = 0x330
       TSC ticks: time = base = 0xff0 + 0x330 = 0x1320. */
    tl_begin(&c, "time: TSC, TMA, MTC with the TMA as the MTC reference (mtc_freq 8)");
    cfg = mkcfg(8, 0, 1, 4);
    tdec_ipt_time_init(&t);
    TL_EQI(&c, RC(tdec_ipt_time_update_tsc, &t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg), 0);
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, pk(&p, TDEC_IPT_TMA, 0x1234, 0x10), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1000);
    TL_EQU(&c, t.base, 0xff0);
    TL_EQU(&c, t.fc, 0x10);
    TL_EQU(&c, t.have_mtc, 1);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x13, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1320);
    TL_EQI(&c, st, 0);
    TL_EQU(&c, t.fc, 0);
    /* MTC 0x05 instead: ctc 0x500 < 0x1234, one wrap of 1 << 16: delta =
       0x10500 - 0x1234 = 0xf2cc -> * 4 = 0x3cb30: time 0xff0 + 0x3cb30 =
       0x3db20. (Had the TMA not counted as an MTC, the high-bit rebuild
       would give last 0xff34 and a delta of 0x5cc.) */
    t = t0;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x05, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x3db20);
    tl_end(&c);

    /* An MTC between TSC and TMA is ignored entirely. */
    tl_begin(&c, "time: MTC between TSC and TMA is ignored");
    cfg = mkcfg(8, 0, 1, 4);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x99, 0), &cfg), 0);
    TL_TRUE(&c, memcmp(&t, &t0, sizeof t) == 0, "changed");
    tl_end(&c);

    /* mtc_freq 12 (mtc_hi 20 > 16): the TMA does not count as an MTC; eax 2,
       ebx 1 (half). TSC 0x1000; TMA ctc 0x0500 fc 0; MTC 0x11: ctc =
       0x11000, lo = 0x1000 >= 0x500, hi = 0x10000, last = 0x10500, delta =
       0xb00 = 2816 -> 1408 = 0x580: time 0x1580. */
    tl_begin(&c, "time: first MTC after a short TMA rebuilds the high CTC bits");
    cfg = mkcfg(12, 0, 2, 1);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_tma, &t, pk(&p, TDEC_IPT_TMA, 0x0500, 0), &cfg), 0);
    TL_EQU(&c, t.have_mtc, 0);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x11, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1580);
    tl_end(&c);

    /* Same, TMA ctc 0xf000 and MTC 0x10: ctc 0x10000, lo 0 < 0xf000, so
       hi = 0x10000 - 0x10000 = 0, last = 0xf000, delta 0x1000 -> 0x800:
       time 0x1800. With MTC 0x00 instead: ctc 0, lo 0 < 0xf000, hi = 0 -
       0x10000 = 0xffff0000, masked with 0xff << 12 -> 0xf0000, last =
       0xff000; ctc < last: + (1 << 20) = 0x100000, delta 0x1000 -> 0x800. */
    tl_begin(&c, "time: rebuilt CTC one MTC period back, and its underflow masked");
    cfg = mkcfg(12, 0, 2, 1);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0xf000, 0), &cfg, NULL);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x10, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1800);
    t = t0;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x00, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1800);
    /* TMA ctc 0x1000, MTC 0x11: lo 0x1000 is not below 0x1000, so hi stays
       0x10000, last = 0x11000 = ctc: delta 0, time = base = 0x1000. */
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x1000, 0), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x11, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1000);
    tl_end(&c);

    /* No TSC, mtc_freq 0, eax 2 ebx 1: MTC 0xf0 only sets the reference;
       MTC 0x10 wraps: 0x10 + 0x100 - 0xf0 = 0x20 -> 0x10 TSC ticks. The
       time is relative (NO_TIME) but reported: 0x10. Next MTC 0x30: 0x20
       -> 0x10 more: 0x20. */
    tl_begin(&c, "time: MTC wrap without TSC, relative time (--no-wall-clock)");
    cfg = mkcfg(0, 0, 2, 1);
    tdec_ipt_time_init(&t);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0xf0, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x10, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x10);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x30, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x20);
    tl_end(&c);

    /* Missing cpuid values: the MTC is recorded (ctc, fc := 0) but the time
       does not advance; -pte_bad_config. TSC 0x1000, TMA (mtc_freq 0, so it
       counts as MTC) ctc 0x10 fc 4 -> base 0xffc, fc 4; MTC 0x20 with eax 0:
       bad config, fc = 0, ctc = 0x20, time still 0x1000, lost_mtc 0. With
       eax 1, ebx 0 the same. */
    tl_begin(&c, "time: MTC with a zero cpuid 0x15 value is a bad config");
    cfg = mkcfg(0, 0, 0, 4);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x10, 4), &cfg, NULL);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x20, 0), &cfg),
           -TDEC_IPT_ERR_BAD_CONFIG);
    TL_EQU(&c, qtsc(&t, &st), 0x1000);
    TL_EQU(&c, t.fc, 0);
    TL_EQU(&c, t.ctc, 0x20);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, lm, 0);
    t = t0;
    cfg = mkcfg(0, 0, 1, 0);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, &p, &cfg), -TDEC_IPT_ERR_BAD_CONFIG);
    TL_EQU(&c, qtsc(&t, &st), 0x1000);
    tl_end(&c);

    /* A lost MTC (the CTC went back by more than one wrap) can only be made
       with an out-of-range mtc_freq: 24 makes the wrap 1 << (32 mod 32) =
       1. MTC 1 -> ctc 0x1000000 (reference); MTC 0 -> ctc 0, + 1 = 1 is
       still below: -pte_bad_packet, lost_mtc 1; the MTC is recorded
       (ctc 0). */
    tl_begin(&c, "time: lost MTC is counted (out-of-range mtc_freq, x86 shifts)");
    cfg = mkcfg(24, 0, 1, 1);
    tdec_ipt_time_init(&t);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg), 0);
    TL_EQU(&c, t.ctc, 0x1000000u);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0, 0), &cfg),
           -TDEC_IPT_ERR_BAD_PACKET);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, lm, 1);
    TL_EQU(&c, t.ctc, 0);
    TL_EQU(&c, v, 0);
    /* a TSC recovers */
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 5, 0), &cfg, NULL);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, lm, 0);
    tl_end(&c);

    /* CYC without calibration: lost_cyc++ and nothing else; an MTC then
       clears lost_cyc (and since lost_cyc != 0, moves ctc_cyc). */
    tl_begin(&c, "time: CYC without calibration is lost until the next MTC");
    cfg = mkcfg(0, 0, 1, 1);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x10, 0), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 0x40, 0), &cfg, 0), 0);
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, &p, &cfg, 0), 0);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, v, 0x1000);
    TL_EQU(&c, lc, 2);
    /* delta 1 -> 1 tick */
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x11, 0), &cfg), 0);
    tdec_ipt_time_query_tsc(&t, &v, &lm, &lc, NULL);
    TL_EQU(&c, v, 0x1001);
    TL_EQU(&c, lc, 0);
    TL_EQU(&c, t.ctc_cyc, 0x11);
    tl_end(&c);

    /* CYC with fcr 0x180 (1.5), fc != 0 (the TMA's): TSC 0x1000, TMA (mtc_freq
       8) ctc 0x100 fc 0x20: base 0xfe0, fc 0x20. CYC 0x40: fc += 0x40 *
       0x180 >> 8 = 0x60 -> 0x80, time 0xfe0 + 0x80 = 0x1060. */
    tl_begin(&c, "time: CYC scaled by the fcr");
    cfg = mkcfg(8, 0, 1, 4);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x100, 0x20), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 0x40, 0), &cfg, 0x180), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1060);
    TL_EQI(&c, st, 0);
    tl_end(&c);

    /* A CYC spanning an MTC: mtc_freq 0, eax 1 ebx 4. TSC 0x1000; TMA ctc
       0x10 fc 0 (counts as MTC): ctc = ctc_cyc = 0x10, fc 0. MTC 0x12: fc
       is 0, no lost CYC, have_mtc: ctc_cyc stays 0x10; delta 2 -> 8 ticks:
       base 0x1008. CYC 100 with fcr 0x100 (1.0): fc == 0 and ctc 0x12 !=
       ctc_cyc 0x10: the earlier period (delta 2 -> fc 8) takes (8 << 8) /
       0x100 = 8 cycles: 92 remain -> fc 92, time 0x1008 + 92 = 0x1064.
       With CYC 5 instead: 5 < 8, all of it is the earlier period's: fc 0,
       time 0x1008. */
    tl_begin(&c, "time: CYC spanning MTC periods is adjusted (and clamped at 0)");
    cfg = mkcfg(0, 0, 1, 4);
    tdec_ipt_time_init(&t);
    tdec_ipt_time_update_tsc(&t, pk(&p, TDEC_IPT_TSC, 0x1000, 0), &cfg, NULL);
    tdec_ipt_time_update_tma(&t, pk(&p, TDEC_IPT_TMA, 0x10, 0), &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_time_update_mtc, &t, pk(&p, TDEC_IPT_MTC, 0x12, 0), &cfg), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1008);
    TL_EQU(&c, t.ctc_cyc, 0x10);
    t0 = t;
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 100, 0), &cfg, 0x100), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1064);
    t = t0;
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 5, 0), &cfg, 0x100), 0);
    TL_EQU(&c, qtsc(&t, &st), 0x1008);
    TL_EQU(&c, t.fc, 0);
    /* the adjustment needs the cpuid values: bad config, nothing changed */
    t = t0;
    cfg.cpuid_0x15_ebx = 0;
    TL_EQI(&c, RC(tdec_ipt_time_update_cyc, &t, pk(&p, TDEC_IPT_CYC, 100, 0), &cfg, 0x100),
           -TDEC_IPT_ERR_BAD_CONFIG);
    TL_TRUE(&c, memcmp(&t, &t0, sizeof t) == 0, "changed");
    tl_end(&c);
}

static void test_tcal(void)
{
    tl_case c;
    tdec_ipt_tcal k, k0;
    tdec_ipt_config cfg;
    tdec_ipt_packet p;
    int st;

    /* mtc_freq 4, eax 1, ebx 4. MTC 1: first, ctc 0x10. CYC 0x100. MTC 2:
       ctc 0x20, delta 16 -> fc 64, fcr = (64 << 8) / 256 = 64 (0.25).
       MTC 3 without cycles: skipped, the reference stays 0x20. CYC 0x80,
       MTC 5: ctc 0x50, delta 48 -> fc 192, fcr = 192 * 256 / 128 = 384. */
    tl_begin(&c, "tcal: calibration from MTC, periods without cycles merged");
    cfg = mkcfg(4, 0, 1, 4);
    tdec_ipt_tcal_init(&k);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cyc, &k, pk(&p, TDEC_IPT_CYC, 0x100, 0), NULL), 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 64);
    TL_EQI(&c, st, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 3, 0), &cfg), 0);
    TL_EQU(&c, k.ctc, 0x20);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x80, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 5, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 384);
    TL_EQU(&c, k.lost_mtc, 0);
    /* bad config: recorded (ctc, cycles reset), counted lost, fcr kept */
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x80, 0), NULL, NULL);
    cfg.cpuid_0x15_eax = 0;
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 6, 0), &cfg),
           -TDEC_IPT_ERR_BAD_CONFIG);
    TL_EQU(&c, qfcr(&k, &st), 384);
    TL_EQU(&c, k.lost_mtc, 1);
    TL_EQU(&c, k.ctc, 0x60);
    TL_EQU(&c, k.cyc_mtc, 0);
    /* fc too big to shift by 8 (needs an out-of-range mtc_freq): mtc_freq
       20, eax 1, ebx 0xffffffff; MTC 1 -> ctc 0x100000, CYC 1, MTC 0x41 ->
       ctc 0x4100000, delta 2^26, fc = 2^26 * (2^32 - 1) >= 2^56: internal,
       recorded, fcr kept. */
    cfg = mkcfg(20, 0, 1, 0xffffffffu);
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_set_fcr(&k, 7, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg), 0);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 1, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 0x41, 0), &cfg),
           -TDEC_IPT_ERR_INTERNAL);
    TL_EQU(&c, qfcr(&k, &st), 7);
    TL_EQU(&c, k.ctc, 0x4100000u);
    TL_EQU(&c, k.lost_mtc, 1);
    tl_end(&c);

    /* TSC in PSB+: header_tsc 0xa0000 (no previous TSC: nothing), CYC 0x100,
       header_tsc 0xa0300: delta 0x300, fcr = 0x300 * 256 / 0x100 = 768.
       A TSC outside PSB+ only stores: update_tsc 0xa0000, CYC 0x100,
       header_tsc 0xa0200 -> 512. */
    tl_begin(&c, "tcal: calibration from TSCs in PSB+ (header_tsc)");
    cfg = mkcfg(0, 0, 0, 0);
    tdec_ipt_tcal_init(&k);
    /* cycles but no previous TSC (0): nothing */
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0x500, 0), NULL), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQU(&c, k.cyc_tsc, 0);
    tdec_ipt_tcal_init(&k);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0xa0000, 0), NULL), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0xa0300, 0), NULL), 0);
    TL_EQU(&c, qfcr(&k, &st), 768);
    tdec_ipt_tcal_init(&k);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_tsc, &k, pk(&p, TDEC_IPT_TSC, 0xa0000, 0), NULL), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0xa0200, 0), NULL), 0);
    TL_EQU(&c, qfcr(&k, &st), 512);
    /* no cycles since the last TSC: nothing */
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0xa0900, 0), NULL), 0);
    TL_EQU(&c, qfcr(&k, &st), 512);
    tl_end(&c);

    /* 56-bit wrap: last 0xffffffffffff00, new 0x100: + 2^56 -> delta 0x200,
       CYC 0x200: fcr 256. A TSC more than a wrap back (last 2^60, new 1):
       bad packet, but stored. A delta with bits above 56 (last 1, new 2^57):
       internal, stored. MTC seen: TSCs do not calibrate. */
    tl_begin(&c, "tcal: header_tsc wrap, bad packet, overflow, MTC preferred");
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_header_tsc(&k, pk(&p, TDEC_IPT_TSC, 0xffffffffffff00ull, 0), NULL, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x200, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0x100, 0), NULL), 0);
    TL_EQU(&c, qfcr(&k, &st), 256);
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_header_tsc(&k, pk(&p, TDEC_IPT_TSC, 1ull << 60, 0), NULL, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x200, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 1, 0), NULL),
           -TDEC_IPT_ERR_BAD_PACKET);
    TL_EQU(&c, k.tsc, 1);
    TL_EQU(&c, k.cyc_tsc, 0);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x200, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 1ull << 57, 0), NULL),
           -TDEC_IPT_ERR_INTERNAL);
    TL_EQU(&c, k.tsc, 1ull << 57);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tdec_ipt_tcal_init(&k);
    cfg = mkcfg(0, 0, 1, 1);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
    tdec_ipt_tcal_header_tsc(&k, pk(&p, TDEC_IPT_TSC, 0x1000, 0), NULL, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), NULL, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_tsc, &k, pk(&p, TDEC_IPT_TSC, 0x2000, 0), NULL), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tl_end(&c);

    /* CBR with nom_freq 4: fcr = (4 << 8) / 0x10 = 64. nom_freq 3, ratio 7:
       768 / 7 = 109 (floor of 109.7). nom_freq 0: nothing (not even ratio 0
       is checked). Ratio 0 with nom_freq: bad packet. */
    tl_begin(&c, "tcal: calibration from CBR and nom_freq (header_cbr)");
    tdec_ipt_tcal_init(&k);
    cfg = mkcfg(0, 4, 0, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, pk(&p, TDEC_IPT_CBR, 0x10, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 64);
    cfg = mkcfg(0, 3, 0, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, pk(&p, TDEC_IPT_CBR, 7, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 109);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, pk(&p, TDEC_IPT_CBR, 0, 0), &cfg),
           -TDEC_IPT_ERR_BAD_PACKET);
    TL_EQU(&c, qfcr(&k, &st), 109);
    cfg = mkcfg(0, 0, 0, 0);
    tdec_ipt_tcal_init(&k);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, &p, &cfg), 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, pk(&p, TDEC_IPT_CBR, 9, 0), &cfg), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, RC(tdec_ipt_tcal_header_cbr, &k, &p, NULL), -TDEC_IPT_ERR_INTERNAL);
    tl_end(&c);

    /* A CBR outside PSB+ resets the calibration first: fcr 1000 set, then
       update_cbr with nom_freq 0: no fcr; with cfg NULL: reset and
       internal; with nom_freq 2 and ratio 0x20: fresh fcr (2 << 8) / 32 = 16
       and min = max = 16. */
    tl_begin(&c, "tcal: CBR outside PSB+ resets the calibration (update_cbr)");
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_set_fcr(&k, 1000, NULL);
    cfg = mkcfg(0, 0, 0, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cbr, &k, pk(&p, TDEC_IPT_CBR, 0x20, 0), &cfg), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tdec_ipt_tcal_set_fcr(&k, 1000, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cbr, &k, &p, NULL), -TDEC_IPT_ERR_INTERNAL);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tdec_ipt_tcal_set_fcr(&k, 1000, NULL);
    cfg = mkcfg(0, 2, 0, 0);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cbr, &k, &p, &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 16);
    TL_EQU(&c, k.min_fcr, 16);
    TL_EQU(&c, k.max_fcr, 16);
    k0 = k;
    TL_EQI(&c, RC(tdec_ipt_tcal_update_cbr, &k, pk(&p, TDEC_IPT_TMA, 0x20, 0), &cfg),
           -TDEC_IPT_ERR_INVALID);
    TL_TRUE(&c, memcmp(&k, &k0, sizeof k) == 0, "changed");
    tl_end(&c);

    /* SKL168, lost MTC (the skl168-mtc vector's numbers): mtc_freq 4, eax 1,
       ebx 4. MTC 1, CYC 0x100, MTC 2: fcr 64. CYC 0x80, PSB, CYC 0x100,
       MTC 4: cycles 0x180, delta 0x40 - 0x20 = 32 > 1 << 4: skipped, fcr
       stays 64, lost_mtc 1. Without the erratum: fc 128, fcr = 128 * 256 /
       384 = 85. */
    tl_begin(&c, "tcal: SKL168 skips the first MTC after PSB when MTCs were lost");
    {
        int pass;
        for (pass = 0; pass < 2; pass++) {
            cfg = mkcfg(4, 0, 1, 4);
            cfg.errata = pass == 0 ? TDEC_IPT_ERRATUM_SKL168 : 0;
            tdec_ipt_tcal_init(&k);
            tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
            tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
            tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg, NULL);
            TL_EQU(&c, qfcr(&k, &st), 64);
            tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x80, 0), &cfg, NULL);
            TL_EQI(&c, RC(tdec_ipt_tcal_update_psb, &k, &cfg), 0);
            TL_EQU(&c, k.check_skl168, pass == 0 ? 1 : 0);
            tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
            TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 4, 0), &cfg), 0);
            TL_EQU(&c, qfcr(&k, &st), pass == 0 ? 64 : 85);
            TL_EQU(&c, k.lost_mtc, pass == 0 ? 1 : 0);
            TL_EQU(&c, k.check_skl168, 0);
        }
    }
    tl_end(&c);

    /* SKL168, dropped wrap CYC: mtc_freq 4, eax 1, ebx 1000, fcr 64 set.
       MTC 1, CYC 0x100, PSB, MTC 2: delta 16 (not lost), fc 16000, dfc =
       64 * (0x100 + 0xf00) >> 8 = 1088 < 16000: skipped. Same with mtc_freq
       10 (MTC 1 -> 2: delta 1024, not above 1 << 10): the wrap check is
       off, fcr = (1024000 << 8) / 256 = 1024000. Without a previous fcr
       (mtc_freq 4): calibrates, fcr = (16000 << 8) / 256 = 16000. */
    tl_begin(&c, "tcal: SKL168 wrap-CYC check needs mtc_freq < 10 and an fcr");
    cfg = mkcfg(4, 0, 1, 1000);
    cfg.errata = TDEC_IPT_ERRATUM_SKL168;
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_set_fcr(&k, 64, NULL);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
    k0 = k;
    tdec_ipt_tcal_update_psb(&k, &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 64);
    TL_EQU(&c, k.lost_mtc, 1);
    k = k0; /* no PSB: calibrates */
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, &p, &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 16000);
    cfg.mtc_freq = 10;
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_set_fcr(&k, 64, NULL);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
    tdec_ipt_tcal_update_psb(&k, &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 1024000);
    cfg.mtc_freq = 4;
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
    tdec_ipt_tcal_update_psb(&k, &cfg, NULL);
    TL_EQI(&c, RC(tdec_ipt_tcal_update_mtc, &k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 16000);
    tl_end(&c);

    /* OVF: fcr 64 calibrated from MTCs, cycles pending. With
       TDEC_IPT_F_KEEP_TCAL_OVF: fcr kept, have_mtc/ctc/tsc/cycles cleared,
       so the next MTC is a first one again (no calibration with the cycles
       from before). Without the flag: no fcr at all. */
    tl_begin(&c, "tcal: OVF keeps the fcr only with TDEC_IPT_F_KEEP_TCAL_OVF");
    cfg = mkcfg(4, 0, 1, 4);
    tdec_ipt_tcal_init(&k);
    tdec_ipt_tcal_update_tsc(&k, pk(&p, TDEC_IPT_TSC, 0x777, 0), &cfg, NULL);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 1, 0), &cfg, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x100, 0), &cfg, NULL);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 2, 0), &cfg, NULL);
    tdec_ipt_tcal_update_cyc(&k, pk(&p, TDEC_IPT_CYC, 0x40, 0), &cfg, NULL);
    TL_EQU(&c, qfcr(&k, &st), 64);
    k0 = k;
    cfg.flags = TDEC_IPT_F_KEEP_TCAL_OVF;
    TL_EQI(&c, RC(tdec_ipt_tcal_update_ovf, &k, &cfg), 0);
    TL_EQU(&c, qfcr(&k, &st), 64);
    TL_EQU(&c, k.have_mtc, 0);
    TL_EQU(&c, k.ctc, 0);
    TL_EQU(&c, k.tsc, 0);
    TL_EQU(&c, k.cyc_mtc, 0);
    TL_EQU(&c, k.cyc_tsc, 0);
    TL_EQU(&c, k.min_fcr, 64);
    tdec_ipt_tcal_update_mtc(&k, pk(&p, TDEC_IPT_MTC, 9, 0), &cfg, NULL);
    TL_EQU(&c, qfcr(&k, &st), 64);
    k = k0;
    cfg.flags = 0;
    TL_EQI(&c, RC(tdec_ipt_tcal_update_ovf, &k, &cfg), 0);
    qfcr(&k, &st);
    TL_EQI(&c, st, -TDEC_IPT_ERR_NO_TIME);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 3. errata                                                           */

static const char *const erratum_names[] = {"bdm70", "bdm64", "skd007", "skd022", "skd010",
                                            "skl014", "apl12",  "apl11", "skl168", "skz84"};

static void test_errata_table(void)
{
    tl_case c;
    uint32_t e;

    tl_begin(&c, "errata: hand-picked CPUs from libipt's pt_cpu_errata");
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x3d, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_BDM64);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x9e, 9, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD007 | TDEC_IPT_ERRATUM_SKD022 |
                      TDEC_IPT_ERRATUM_SKD010 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKL168);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x55, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKD022 |
                      TDEC_IPT_ERRATUM_SKZ84);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0xcf, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_SKZ84);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x8c, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKD022);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0xd5, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_APL11);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x5c, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_APL12 | TDEC_IPT_ERRATUM_APL11);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0xdd, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_APL11);
    TL_EQI(&c, tdec_ipt_cpu_errata(0x12, 3, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_APL11);
    TL_EQI(&c, tdec_ipt_cpu_errata(0x13, 1, 0, &e), TDEC_OK);
    TL_EQU(&c, e, TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_SKZ84);
    tl_end(&c);

    tl_begin(&c, "errata: unknown CPUs are TDEC_E_ARG with no errata");
    e = 0xffff;
    TL_EQI(&c, tdec_ipt_cpu_errata(0, 0, 0, &e), TDEC_E_ARG); /* ptdump --cpu 0/0 */
    TL_EQU(&c, e, 0);
    e = 0xffff;
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x3c, 0, &e), TDEC_E_ARG);
    TL_EQU(&c, e, 0);
    e = 0xffff;
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x13d, 0, &e), TDEC_E_ARG); /* no 8-bit model */
    TL_EQU(&c, e, 0);
    e = 0xffff;
    TL_EQI(&c, tdec_ipt_cpu_errata(0x12, 2, 0, &e), TDEC_E_ARG);
    TL_EQU(&c, e, 0);
    TL_EQI(&c, tdec_ipt_cpu_errata(0x13, 3, 0, &e), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_cpu_errata(0xf, 1, 0, &e), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_cpu_errata(0x106, 0x3d, 0, &e), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_cpu_errata(6, 0x3d, 0, NULL), TDEC_E_ARG);
    tl_end(&c);
}

/* Parses an errata name list ("bdm70,skd022") into bits; -1 on a bad name. */
static long parse_errata(const char *s, size_t n)
{
    long bits = 0;
    size_t i = 0, j, k;
    while (i < n) {
        j = i;
        while (j < n && s[j] != ',') j++;
        for (k = 0; k < 10; k++)
            if (strlen(erratum_names[k]) == j - i && memcmp(erratum_names[k], s + i, j - i) == 0)
                break;
        if (k == 10) return -1;
        bits |= 1L << k;
        i = j + 1;
    }
    return bits;
}

/* INDEX.tsv: for each vector with a CPU list, the set of distinct errata
   sets of its CPUs (column 6, "|"-separated) must be what our table gives
   for those CPUs (column 5, "f/m,f/m"). */
static void test_errata_index(const char *dir)
{
    char path[512], line[4096], *col[10];
    FILE *f;
    tl_case c;
    int rows = 0, cpus = 0;

    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    tl_begin(&c, "errata: every CPU of INDEX.tsv gives the errata libipt enabled");
    f = fopen(path, "r");
    if (!TL_TRUE(&c, f != NULL, "cannot open %s", path)) {
        tl_end(&c);
        return;
    }
    while (fgets(line, sizeof line, f)) {
        int n = 0;
        char *s = line;
        long want[16], got[64];
        int nwant = 0, ngot = 0, i, j;
        line[strcspn(line, "\r\n")] = 0;
        while (n < 10) {
            col[n++] = s;
            s = strchr(s, '\t');
            if (!s) break;
            *s++ = 0;
        }
        if (n < 7 || strcmp(col[0], "name") == 0 || strcmp(col[4], "-") == 0) continue;
        rows++;
        /* column 6 */
        s = col[5];
        if (strcmp(s, "-") != 0) {
            while (*s && nwant < 16) {
                size_t len = strcspn(s, "|");
                want[nwant] = parse_errata(s, len);
                TL_TRUE(&c, want[nwant] >= 0, "%s: bad errata list %s", col[0], col[5]);
                nwant++;
                s += len;
                if (*s) s++;
            }
        }
        /* column 5 */
        s = col[4];
        while (*s) {
            unsigned long fam, mod;
            char *end;
            uint32_t e = 0;
            long bits = 0;
            fam = strtoul(s, &end, 10);
            TL_TRUE(&c, *end == '/', "%s: bad cpu list %s", col[0], col[4]);
            mod = strtoul(end + 1, &end, 10);
            s = *end ? end + 1 : end;
            cpus++;
            if (!TL_TRUE(&c, tdec_ipt_cpu_errata((uint32_t)fam, (uint32_t)mod, 0, &e) == TDEC_OK,
                         "%s: cpu %lu/%lu unknown", col[0], fam, mod))
                continue;
            for (i = 0; i < 10; i++)
                if (e & (1u << i)) bits |= 1L << i;
            for (i = 0; i < ngot && got[i] != bits; i++) {
            }
            if (i == ngot && ngot < 64) got[ngot++] = bits;
            /* every CPU's set must be one of column 6's */
            for (j = 0; j < nwant && want[j] != bits; j++) {
            }
            TL_TRUE(&c, j < nwant, "%s: cpu %lu/%lu gives errata %lx, not in %s", col[0], fam, mod,
                    bits, col[5]);
        }
        /* and every set of column 6 must come from some CPU */
        for (j = 0; j < nwant; j++) {
            for (i = 0; i < ngot && got[i] != want[j]; i++) {
            }
            TL_TRUE(&c, i < ngot, "%s: errata set %lx of column 6 from no cpu", col[0], want[j]);
        }
    }
    fclose(f);
    TL_TRUE(&c, rows >= 10 && cpus >= 50, "only %d rows, %d cpus", rows, cpus);
    tl_end(&c);
    printf("# errata: %d vectors, %d CPU entries checked\n", rows, cpus);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data/ipt";
    test_udiv64();
    test_basics();
    test_time();
    test_tcal();
    test_errata_table();
    test_errata_index(dir);
    return tl_exit_code();
}
