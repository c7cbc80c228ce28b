/* diff_ipt_qry.c - differential test of the query decoder of
   single/tdec_ipt.h against libipt's (Debian's libipt 2.0.5; link with
   -lipt). Run by tests/diff_ipt_qry.sh.

   Streams: tests/ipt_gen.h with IPT_GEN_MIX_FLOW (the anchor report's mix as
   a trace valid at the query layer), one per seed. Both decoders are
   drained the same way (vectors/README.md): sync; then an event query while
   one is pending, else cond_branch, and indirect_branch when that is a bad
   query; after a query, pt_qry_time. Ours is fed whole and in random chunks
   (which must give exactly the same answers), libipt gets the buffer.

   The answers are compared one by one after removing what REPORT.md
   section 1 documents as libipt 2.0.5 vs master (ours is master's); each
   filter counts what it removed:
     F1 master reports the tracing state after every PSB+ as an enabled or
        disabled status event; 2.0.5 does not (only through the sync
        status and IP): ours' enabled/disabled status events are dropped;
     F2 master binds a MODE.Exec to the following TIP and reports it after
        the indirect-branch answer; 2.0.5 reports the exec_mode event
        before: 2.0.5's exec_mode right before an indirect answer is moved
        after it;
     F3 master drops a MODE.Exec that changes nothing; 2.0.5 reports it:
        2.0.5's exec_mode events repeating the current mode are dropped (and
        the "event pending" it put on the answer before);
     F4 2.0.5 stamps no time on the events of the power and PTWRITE packets
        (pwre, pwrx, exstop, mwait, ptwrite); master does
        (pt_evt_decode_pwre/_pwrx, and pt_evt_decode_fup for the ones bound
        to a FUP, call pt_evt_event_time): their time is not compared.
   Events master has and 2.0.5 has not (tip, tnt, iflags, CFE, EVD, TRIG)
   are not in the stream, nor an MWAIT before an EXSTOP without IP (master
   reports both, 2.0.5 only the EXSTOP). Anything else that differs is a failure, printed
   with the seed, the item and a hex window of the stream.

     diff_ipt_qry [-s SEEDS] [-m MiB per seed] */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/ipt_gen.h"

#include <inttypes.h>

/* One answer. what: Q_* */
typedef struct ans {
    uint8_t  what, type, mode, taken;
    int32_t  status; /* query status bits (sync, cond, indirect), 0 for events */
    uint64_t ip;     /* sync, indirect: the IP (0 if suppressed); events: their IP */
    uint64_t arg;    /* events: the second field (from, at, cr3, base, payload, ...) */
    uint64_t tsc;    /* after the query: pt_qry_time (0: none); events: their time */
    uint64_t offset; /* ours only, for the report */
} ans;

enum { Q_SYNC = 1, Q_COND, Q_INDIRECT, Q_EVENT, Q_ERROR, Q_END };
#define ANS_STATUS 0x100 /* an event's status: a PSB+ status update */

typedef struct list {
    ans   *a;
    size_t n, cap;
} list;

static void add(list *l, ans x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1u << 16;
        l->a = (ans *)realloc(l->a, l->cap * sizeof *l->a);
        if (!l->a) abort();
    }
    l->a[l->n++] = x;
}

static ans blank(uint8_t what)
{
    ans x;
    memset(&x, 0, sizeof x);
    x.what = what;
    return x;
}

/* ---- ours ---- */

static tdec_ipt_qry_decoder dq;

static ans ours_event(const tdec_ipt_event *ev)
{
    ans x = blank(Q_EVENT);
    x.type = ev->type;
    x.mode = ev->type == TDEC_IPT_EV_EXEC_MODE ? ev->a : 0;
    x.ip = (ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) ? 0 : ev->ip;
    switch (ev->type) { /* the second field, as lib_event takes it */
    case TDEC_IPT_EV_CBR: x.arg = ev->a; break;
    case TDEC_IPT_EV_PWRE: x.arg = ev->a; break;
    case TDEC_IPT_EV_PWRX: x.arg = ev->b; break;
    case TDEC_IPT_EV_ASYNC_BRANCH: case TDEC_IPT_EV_ASYNC_DISABLED: case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_ASYNC_PAGING: case TDEC_IPT_EV_VMCS: case TDEC_IPT_EV_ASYNC_VMCS: case TDEC_IPT_EV_MWAIT:
    case TDEC_IPT_EV_PTWRITE: case TDEC_IPT_EV_MNT:
        x.arg = ev->arg;
        break;
    default: x.arg = 0; break;
    }
    x.tsc = (ev->flags & TDEC_IPT_EVF_HAS_TSC) ? ev->tsc : 0;
    x.status = (ev->flags & TDEC_IPT_EVF_STATUS) ? ANS_STATUS : 0;
    return x;
}

/* seed: 0 feeds the buffer whole, UINT64_MAX one byte at a time, others
   random chunk sizes from the seed. */
static void ours(const uint8_t *buf, size_t len, uint64_t seed, list *out)
{
    tdec_ipt_qry_decoder *q = &dq;
    tdec_ipt_event ev;
    tdec_status st;
    uint64_t ip = 0, tsc, rng = seed | 1;
    size_t fed = 0, n;
    int status = 0, taken = 0, synced = 0;
    ans x;
    tdec_ipt_qry_init(q, NULL);
    for (;;) {
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &status, NULL);
            if (st == TDEC_OK) {
                synced = 1;
                x = blank(Q_SYNC);
                x.status = status;
                x.ip = (status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : ip;
                add(out, x);
                continue;
            }
        } else if (status & TDEC_IPT_QS_EVENT_PENDING) {
            st = tdec_ipt_qry_event(q, &ev, &status);
            if (st == TDEC_OK) {
                add(out, ours_event(&ev));
                continue;
            }
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &status);
            x = blank(Q_COND);
            x.taken = (uint8_t)taken;
            if (st == TDEC_E_SEQUENCE) {
                st = tdec_ipt_qry_indirect_branch(q, &ip, &status);
                x = blank(Q_INDIRECT);
                x.ip = (status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : ip;
            }
            if (st == TDEC_OK) {
                x.status = status;
                if (tdec_ipt_qry_time(q, &tsc, NULL, NULL) == 0) x.tsc = tsc;
                add(out, x);
                continue;
            }
        }
        if (st == TDEC_NEED_INPUT) {
            if (fed < len) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                n = seed == UINT64_MAX ? 1 : seed ? 1 + (size_t)(rng % 9000u) : len;
                if (n > len - fed) n = len - fed;
                st = tdec_ipt_qry_feed(q, buf + fed, n);
                fed += n;
            } else {
                st = tdec_ipt_qry_finish(q);
            }
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT) {
            x = blank(Q_ERROR);
            x.status = (int32_t)q->st.err_reason;
            x.offset = q->st.err_offset;
            add(out, x);
            synced = 0;
            if (tdec_ipt_qry_resync(q) == TDEC_NEED_INPUT) continue;
        }
        add(out, blank(Q_END));
        return;
    }
}

/* ---- libipt ---- */

static ans lib_event(const struct pt_event *ev)
{
    ans x = blank(Q_EVENT);
    x.type = (uint8_t)ev->type; /* 2.0.5's numbering is master's for these */
    switch (ev->type) {
    case ptev_enabled: x.ip = ev->variant.enabled.ip; break;
    case ptev_disabled: x.ip = ev->variant.disabled.ip; break;
    case ptev_async_disabled: x.ip = ev->variant.async_disabled.ip; x.arg = ev->variant.async_disabled.at; break;
    case ptev_async_branch: x.ip = ev->variant.async_branch.to; x.arg = ev->variant.async_branch.from; break;
    case ptev_paging: x.arg = ev->variant.paging.cr3; break;
    case ptev_async_paging: x.ip = ev->variant.async_paging.ip; x.arg = ev->variant.async_paging.cr3; break;
    case ptev_overflow: x.ip = ev->variant.overflow.ip; break;
    case ptev_exec_mode: x.ip = ev->variant.exec_mode.ip; x.mode = (uint8_t)ev->variant.exec_mode.mode; break;
    case ptev_cbr: x.arg = ev->variant.cbr.ratio; break;
    case ptev_tsx: x.ip = ev->variant.tsx.ip; break;
    case ptev_vmcs: x.arg = ev->variant.vmcs.base; break;
    case ptev_async_vmcs: x.ip = ev->variant.async_vmcs.ip; x.arg = ev->variant.async_vmcs.base; break;
    case ptev_exstop: x.ip = ev->variant.exstop.ip; break;
    case ptev_mwait: x.ip = ev->variant.mwait.ip; x.arg = ev->variant.mwait.hints; break;
    case ptev_pwre: x.arg = ev->variant.pwre.state; break;
    case ptev_pwrx: x.arg = ev->variant.pwrx.deepest; break;
    case ptev_ptwrite: x.ip = ev->variant.ptwrite.ip; x.arg = ev->variant.ptwrite.payload; break;
    case ptev_mnt: x.arg = ev->variant.mnt.payload; break;
    default: break;
    }
    if (ev->ip_suppressed) x.ip = 0;
    if (ev->type == ptev_async_disabled) x.arg = ev->variant.async_disabled.at; /* 'at' is never suppressed */
    x.tsc = ev->has_tsc ? ev->tsc : 0;
    x.status = ev->status_update ? ANS_STATUS : 0;
    return x;
}

static void lib(uint8_t *buf, size_t len, list *out)
{
    struct pt_config cfg;
    struct pt_query_decoder *q;
    struct pt_event ev;
    uint64_t ip = 0, tsc;
    int status, taken;
    ans x;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    q = pt_qry_alloc_decoder(&cfg);
    if (!q) abort();
    status = pt_qry_sync_forward(q, &ip);
    for (;;) {
        if (status == -pte_eos) break;
        if (status < 0) {
            uint64_t off = 0;
            pt_qry_get_offset(q, &off);
            x = blank(Q_ERROR);
            x.status = -status;
            x.offset = off;
            add(out, x);
            status = pt_qry_sync_forward(q, &ip);
            continue;
        }
        x = blank(Q_SYNC);
        x.status = status;
        x.ip = (status & pts_ip_suppressed) ? 0 : ip;
        add(out, x);
        for (;;) {
            if (status & pts_eos) {
                status = -pte_eos;
                break;
            }
            if (status & pts_event_pending) {
                status = pt_qry_event(q, &ev, sizeof ev);
                if (status < 0) break;
                add(out, lib_event(&ev));
                continue;
            }
            status = pt_qry_cond_branch(q, &taken);
            x = blank(Q_COND);
            x.taken = (uint8_t)taken;
            if (status == -pte_bad_query) {
                status = pt_qry_indirect_branch(q, &ip);
                x = blank(Q_INDIRECT);
                x.ip = (status >= 0 && !(status & pts_ip_suppressed)) ? ip : 0;
            }
            if (status < 0) break;
            x.status = status;
            if (pt_qry_time(q, &tsc, NULL, NULL) == 0) x.tsc = tsc;
            add(out, x);
        }
    }
    add(out, blank(Q_END));
    pt_qry_free_decoder(q);
}

/* ---- the documented differences ---- */

static uint64_t filtered[5];

/* F4 on both. */
static void untime(list *l, int count)
{
    size_t i;
    for (i = 0; i < l->n; i++) {
        ans *x = &l->a[i];
        if (x->what == Q_EVENT && (x->type == ptev_pwre || x->type == ptev_pwrx || x->type == ptev_exstop ||
                                   x->type == ptev_mwait || x->type == ptev_ptwrite)) {
            filtered[4] += count && x->tsc != 0;
            x->tsc = 0;
        }
    }
}

/* F1 on ours. */
static void filter_ours(list *l)
{
    size_t i, k = 0;
    untime(l, 1);
    for (i = 0; i < l->n; i++) {
        const ans *x = &l->a[i];
        if (x->what == Q_EVENT && (x->type == TDEC_IPT_EV_ENABLED || x->type == TDEC_IPT_EV_DISABLED) &&
            x->status == ANS_STATUS) {
            filtered[1]++;
            continue;
        }
        l->a[k++] = *x;
    }
    l->n = k;
}

/* The answer before an event libipt 2.0.5 reported and master does not (or
   later) said "event pending" because of it alone. */
static void unpend(list *l, size_t k, size_t next)
{
    if (k == 0 || l->a[k - 1].what == Q_EVENT) return;
    if (next < l->n && l->a[next].what == Q_EVENT) return; /* another event is pending anyway */
    l->a[k - 1].status &= ~pts_event_pending;
}

/* F2 and F3 on libipt's. */
static void filter_lib(list *l)
{
    size_t i, k = 0;
    uint8_t mode = 0;
    untime(l, 0);
    for (i = 0; i < l->n; i++) {
        ans x = l->a[i];
        if (x.what == Q_EVENT && x.type == ptev_exec_mode && x.status == 0) {
            if (x.mode == mode) { /* F3: a MODE.Exec that changes nothing */
                unpend(l, k, i + 1);
                filtered[3]++;
                continue;
            }
            mode = x.mode;
            if (i + 1 < l->n && l->a[i + 1].what == Q_INDIRECT) { /* F2: after the TIP's answer */
                unpend(l, k, i + 1);
                l->a[k] = l->a[i + 1];
                l->a[k++].status |= pts_event_pending;
                l->a[k++] = x;
                filtered[2]++;
                i++;
                continue;
            }
        }
        if (x.what == Q_EVENT && x.type == ptev_exec_mode) mode = x.mode;
        if (x.what == Q_SYNC || (x.what == Q_EVENT && x.type == ptev_overflow)) mode = 0; /* master forgets it */
        l->a[k++] = x;
    }
    l->n = k;
}

static void show(const char *who, const ans *x)
{
    printf("    %s: what %u type %u mode %u taken %u status %d ip %016" PRIx64 " arg %" PRIx64 " tsc %" PRIx64
           " off %" PRIx64 "\n",
           who, x->what, x->type, x->mode, x->taken, x->status, x->ip, x->arg, x->tsc, x->offset);
}

int main(int argc, char **argv)
{
    unsigned seeds = 4, s;
    double mib = 8;
    int fails = 0, i;
    uint64_t items = 0, bytes = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) seeds = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mib = atof(argv[++i]);
    }
    for (s = 1; s <= seeds; s++) {
        size_t cap = (size_t)(mib * 1048576.0) + 4096, len, k;
        uint8_t *buf = (uint8_t *)malloc(cap);
        list a = {NULL, 0, 0}, b = {NULL, 0, 0}, l = {NULL, 0, 0};
        ipt_gen g;
        if (!buf) abort();
        ipt_gen_init(&g, 0x51ed0000ull + s, IPT_GEN_MIX_FLOW);
        len = ipt_gen_fill(&g, buf, cap, 0);
        bytes += len;
        ours(buf, len, 0, &a);
        ours(buf, len, s * 7919u, &b);
        for (k = 0; k < a.n && k < b.n; k++)
            if (memcmp(&a.a[k], &b.a[k], sizeof a.a[k]) != 0) break;
        if (k < a.n || a.n != b.n) {
            printf("FAIL ipt-qry diff: seed %u: our answers depend on the chunks (item %zu)\n", s, k);
            fails++;
        } else {
            printf("PASS ipt-qry diff: seed %u: %zu answers, whole == random chunks\n", s, a.n);
        }
        if (s == 1) { /* 1-byte chunks on the first 256 KiB */
            size_t plen = len < 262144 ? len : 262144;
            list c = {NULL, 0, 0}, d = {NULL, 0, 0};
            ours(buf, plen, 0, &c);
            ours(buf, plen, UINT64_MAX, &d);
            for (k = 0; k < c.n && k < d.n; k++)
                if (memcmp(&c.a[k], &d.a[k], sizeof c.a[k]) != 0) break;
            if (k < c.n || c.n != d.n) {
                printf("FAIL ipt-qry diff: 1-byte chunks differ from whole at answer %zu\n", k);
                fails++;
            } else {
                printf("PASS ipt-qry diff: 1-byte chunks == whole (%zu bytes, %zu answers)\n", plen, c.n);
            }
            free(c.a);
            free(d.a);
        }
        lib(buf, len, &l);
        filter_ours(&a);
        filter_lib(&l);
        for (k = 0; k < a.n && k < l.n; k++)
            if (memcmp(&a.a[k], &l.a[k], offsetof(ans, offset)) != 0) break;
        items += a.n;
        if (k < a.n || a.n != l.n) {
            size_t j;
            printf("FAIL ipt-qry diff: seed %u: tdec_ipt differs from libipt at answer %zu (of %zu / %zu)\n", s, k,
                   a.n, l.n);
            for (j = k >= 3 ? k - 3 : 0; j < k + 3; j++) {
                if (j < a.n) show("ours  ", &a.a[j]);
                if (j < l.n) show("libipt", &l.a[j]);
            }
            fails++;
        } else {
            printf("PASS ipt-qry diff: seed %u: %zu bytes, %zu answers equal libipt's\n", s, len, a.n);
        }
        free(a.a);
        free(b.a);
        free(l.a);
        free(buf);
    }
    printf("# ipt-qry diff: %u streams, %" PRIu64 " bytes, %" PRIu64 " answers compared; filtered F1 %" PRIu64
           ", F2 %" PRIu64 ", F3 %" PRIu64
           ", F4 %" PRIu64 "\n",
           seeds, bytes, items, filtered[1], filtered[2], filtered[3], filtered[4]);
    return fails ? 1 : 0;
}
