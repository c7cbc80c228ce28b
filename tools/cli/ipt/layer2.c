/* layer2.c - `tracedec events FILE` and `tracedec queries FILE`: the
   Intel PT event and query decoders (single/tdec_ipt.h, layer 2) as
   transcripts in the format of the reference files evt.txt and qry.txt
   of tests/data/ipt/NAME/ (docs/ipt.md), or as JSON lines (--json).

   Text (docs/ipt.md, "tracedec events / queries"):
     SYNC @<hex offset>[ ip=<ip>][ [st: ...]]     a sync point
     <8 hex digits offset> <event> [status] <fields> [tsc=<hex> lost=<mtc>/<cyc>]
     event <event> ...                            queries: an event query
     cond taken|not-taken[ tsc=..][ [st: ...]]    queries: a TNT bit
     indirect <ip>|<suppressed>[ tsc=..] [st: ..] queries: a TIP target
     ERROR sync|evt_next|query @<hex offset>: <libipt's message>
     EOS                                          the trace ended
   After an error the transcript goes on at the next PSB, as the reference
   tool does; an error while synchronising ends it (that tool stops there).
   The file is read in CLI_CHUNK pieces, never whole. */
#include "tools/cli/ipt/ipt.h"

#include "single/tdec_ipt.h"

#include <string.h>

/* ---- one event's fields, as text or as JSON ---- */

enum { F_IP, F_HEX, F_DEC }; /* an IP (16 digits or <suppressed>), hex, decimal */

typedef struct l2_out {
    out_buf *o;
    int      json;
} l2_out;

static void l2_field(l2_out *w, const char *name, int how, uint64_t v, int suppressed)
{
    if (w->json) {
        if (how == F_IP && suppressed) {
            out_json_key(w->o, name);
            out_str(w->o, "null");
        } else {
            out_json_u64(w->o, name, v);
        }
        return;
    }
    out_char(w->o, ' ');
    out_str(w->o, name);
    out_char(w->o, '=');
    if (how == F_IP && suppressed) out_str(w->o, "<suppressed>");
    else if (how == F_IP) out_hexw(w->o, v, 16);
    else if (how == F_HEX) out_hex(w->o, v);
    else out_u64(w->o, v);
}

/* TNT bits, oldest first: '!' taken, '.' not taken. */
static void l2_bits(l2_out *w, uint64_t bits, unsigned size)
{
    unsigned i;
    if (w->json) out_json_key(w->o, "bits");
    else out_str(w->o, " bits=");
    if (w->json) out_char(w->o, '"');
    for (i = size; i > 0; i--) out_char(w->o, (bits >> (i - 1)) & 1 ? '!' : '.');
    if (w->json) out_char(w->o, '"');
}

static int l2_flag(const tdec_ipt_event *ev, uint32_t f)
{
    return (ev->flags & f) != 0;
}

/* The event's name, [status] and fields (the names of libipt's struct
   pt_event members, as the reference transcripts print them). */
static void l2_event(l2_out *w, const tdec_ipt_event *ev)
{
    int sup = l2_flag(ev, TDEC_IPT_EVF_IP_SUPPRESSED);
    if (w->json) {
        out_json_str(w->o, "event", tdec_ipt_event_str(ev->type));
        out_json_bool(w->o, "status", l2_flag(ev, TDEC_IPT_EVF_STATUS));
    } else {
        out_str(w->o, tdec_ipt_event_str(ev->type));
        if (l2_flag(ev, TDEC_IPT_EVF_STATUS)) out_str(w->o, " [status]");
    }
    switch (ev->type) {
    case TDEC_IPT_EV_ASYNC_DISABLED:
        l2_field(w, "at", F_IP, ev->arg, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_ASYNC_BRANCH:
        l2_field(w, "from", F_IP, ev->arg, 0);
        l2_field(w, "to", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_ASYNC_PAGING:
        l2_field(w, "cr3", F_IP, ev->arg, 0);
        l2_field(w, "nr", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_NR), 0);
        if (ev->type == TDEC_IPT_EV_ASYNC_PAGING) l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_EXEC_MODE:
        l2_field(w, "mode", F_DEC, ev->a, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_TSX:
        l2_field(w, "spec", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_SPECULATIVE), 0);
        l2_field(w, "abrt", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_ABORTED), 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_VMCS:
    case TDEC_IPT_EV_ASYNC_VMCS:
        l2_field(w, "base", F_IP, ev->arg, 0);
        if (ev->type == TDEC_IPT_EV_ASYNC_VMCS) l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_MWAIT:
        l2_field(w, "hints", F_HEX, ev->arg, 0);
        l2_field(w, "ext", F_HEX, ev->aux, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_PWRE:
        l2_field(w, "state", F_DEC, ev->a, 0);
        l2_field(w, "sub", F_DEC, ev->b, 0);
        l2_field(w, "hw", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_HW), 0);
        break;
    case TDEC_IPT_EV_PWRX:
        l2_field(w, "last", F_DEC, ev->a, 0);
        l2_field(w, "deepest", F_DEC, ev->b, 0);
        l2_field(w, "int", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_INTERRUPT), 0);
        l2_field(w, "store", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_STORE), 0);
        l2_field(w, "auto", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_AUTONOMOUS), 0);
        break;
    case TDEC_IPT_EV_PTWRITE:
        l2_field(w, "size", F_DEC, ev->a, 0);
        l2_field(w, "payload", F_HEX, ev->arg, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_CBR:
        l2_field(w, "ratio", F_DEC, ev->a, 0);
        break;
    case TDEC_IPT_EV_MNT:
        l2_field(w, "payload", F_HEX, ev->arg, 0);
        break;
    case TDEC_IPT_EV_TNT:
        l2_field(w, "size", F_DEC, ev->a, 0);
        l2_bits(w, ev->arg, ev->a);
        break;
    case TDEC_IPT_EV_IFLAGS:
        l2_field(w, "if", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_IFLAG), 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_INTERRUPT:
        l2_field(w, "vector", F_DEC, ev->a, 0);
        if (l2_flag(ev, TDEC_IPT_EVF_HAS_CR2)) l2_field(w, "cr2", F_HEX, ev->arg, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_SIPI:
        l2_field(w, "vector", F_DEC, ev->a, 0);
        break;
    case TDEC_IPT_EV_VMEXIT:
        if (l2_flag(ev, TDEC_IPT_EVF_HAS_VECTOR)) l2_field(w, "vector", F_DEC, ev->a, 0);
        if (l2_flag(ev, TDEC_IPT_EVF_HAS_VMXR)) l2_field(w, "vmxr", F_HEX, ev->arg2, 0);
        if (l2_flag(ev, TDEC_IPT_EVF_HAS_VMXQ)) l2_field(w, "vmxq", F_HEX, ev->arg, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_UINTR:
    case TDEC_IPT_EV_SWINTR:
        l2_field(w, "vector", F_DEC, ev->a, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_TRIG:
        l2_field(w, "trbv", F_HEX, ev->a, 0);
        l2_field(w, "mult", F_DEC, (uint64_t)l2_flag(ev, TDEC_IPT_EVF_MULT), 0);
        l2_field(w, "icnt", F_DEC, ev->aux, 0);
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    case TDEC_IPT_EV_STOP:
        break;
    default: /* enabled, disabled, overflow, tip, exstop, tick, iret, smi, rsm,
                init, vmentry, shutdown, uiret, syscall */
        l2_field(w, "ip", F_IP, ev->ip, sup);
        break;
    }
    if (l2_flag(ev, TDEC_IPT_EVF_HAS_TSC)) {
        l2_field(w, "tsc", F_HEX, ev->tsc, 0);
        if (w->json) {
            out_json_u64(w->o, "lost_mtc", ev->lost_mtc);
            out_json_u64(w->o, "lost_cyc", ev->lost_cyc);
        } else {
            out_str(w->o, " lost=");
            out_u64(w->o, ev->lost_mtc);
            out_char(w->o, '/');
            out_u64(w->o, ev->lost_cyc);
        }
    }
}

void ipt_event_json(out_buf *o, const tdec_ipt_event *ev)
{
    l2_out w;
    w.o = o;
    w.json = 1;
    l2_event(&w, ev);
}

/* ---- lines ---- */

static void l2_begin(l2_out *w, const char *kind)
{
    if (w->json) {
        out_json_open(w->o);
        out_json_str(w->o, "kind", kind);
    }
}

static void l2_end(l2_out *w)
{
    if (w->json) out_json_close(w->o); /* "}\n" */
    else out_char(w->o, '\n');
}

static void l2_sync(l2_out *w, uint64_t offset)
{
    l2_begin(w, "sync");
    if (w->json) {
        out_json_u64(w->o, "offset", offset);
        return;
    }
    out_str(w->o, "SYNC @");
    out_hex(w->o, offset);
}

static void l2_error(l2_out *w, const char *where, uint64_t offset, uint32_t reason)
{
    l2_begin(w, "error");
    if (w->json) {
        out_json_str(w->o, "where", where);
        out_json_u64(w->o, "offset", offset);
        out_json_u64(w->o, "code", reason);
        out_json_str(w->o, "error", tdec_ipt_reason_str(reason));
    } else {
        out_str(w->o, "ERROR ");
        out_str(w->o, where);
        out_str(w->o, " @");
        out_hex(w->o, offset);
        out_str(w->o, ": ");
        out_str(w->o, tdec_ipt_reason_str(reason));
    }
    l2_end(w);
}

static void l2_eos(l2_out *w)
{
    l2_begin(w, "eos");
    if (!w->json) out_str(w->o, "EOS");
    l2_end(w);
}

/* Query flags: " [st: ips evp eos]" (JSON: three booleans). */
static void l2_flags(l2_out *w, uint32_t st)
{
    if (w->json) {
        out_json_bool(w->o, "ip_suppressed", (st & TDEC_IPT_QF_IP_SUPPRESSED) != 0);
        out_json_bool(w->o, "event_pending", (st & TDEC_IPT_QF_EVENT_PENDING) != 0);
        out_json_bool(w->o, "eos", (st & TDEC_IPT_QF_EOS) != 0);
        return;
    }
    out_str(w->o, " [st:");
    if (st & TDEC_IPT_QF_IP_SUPPRESSED) out_str(w->o, " ips");
    if (st & TDEC_IPT_QF_EVENT_PENDING) out_str(w->o, " evp");
    if (st & TDEC_IPT_QF_EOS) out_str(w->o, " eos");
    out_char(w->o, ']');
}

/* pt_qry_time after a query, when there is a time. */
static void l2_query_time(l2_out *w, const tdec_ipt_qry_decoder *q)
{
    uint64_t tsc;
    uint32_t mtc, cyc;
    if (tdec_ipt_qry_time(q, &tsc, &mtc, &cyc, NULL) != TDEC_OK) return;
    if (w->json) {
        out_json_u64(w->o, "tsc", tsc);
        out_json_u64(w->o, "lost_mtc", mtc);
        out_json_u64(w->o, "lost_cyc", cyc);
        return;
    }
    out_str(w->o, " tsc=");
    out_hex(w->o, tsc);
    out_str(w->o, " lost=");
    out_u64(w->o, mtc);
    out_char(w->o, '/');
    out_u64(w->o, cyc);
}

/* ---- the two drains ---- */

static tdec_ipt_evt_decoder l2_evt;
static tdec_ipt_qry_decoder l2_qry;

/* Feeds the next chunk, or the end: TDEC_NEED_INPUT, or an error. */
static tdec_status l2_more(cli_reader *in, tdec_status (*feed)(void *, const void *, size_t),
                           tdec_status (*finish)(void *), void *d, int *ended)
{
    size_t n = *ended ? 0 : cli_read(in);
    if (n) return feed(d, in->buf, n);
    if (*ended) return TDEC_E_SEQUENCE; /* not reached: the decoders end at finish() */
    *ended = 1;
    return finish(d);
}

static tdec_status l2_evt_feed(void *d, const void *p, size_t n)
{
    return tdec_ipt_evt_feed((tdec_ipt_evt_decoder *)d, p, n);
}
static tdec_status l2_evt_finish(void *d)
{
    return tdec_ipt_evt_finish((tdec_ipt_evt_decoder *)d);
}
static tdec_status l2_qry_feed(void *d, const void *p, size_t n)
{
    return tdec_ipt_qry_feed((tdec_ipt_qry_decoder *)d, p, n);
}
static tdec_status l2_qry_finish(void *d)
{
    return tdec_ipt_qry_finish((tdec_ipt_qry_decoder *)d);
}

/* Events: SYNC and event lines; errors resync; returns the error count, or
   -1 for a failure that is not the trace's. */
static long l2_events(l2_out *w, cli_reader *in, const tdec_ipt_config *cfg)
{
    tdec_ipt_evt_decoder *e = &l2_evt;
    tdec_ipt_evt_item it;
    tdec_status st;
    int ended = 0, synced = 0;
    long errors = 0;
    tdec_ipt_evt_init(e, cfg);
    for (;;) {
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_OK && it.kind == TDEC_IPT_ITEM_SYNC) {
            l2_sync(w, it.offset);
            l2_end(w);
            synced = 1;
        } else if (st == TDEC_OK) {
            l2_begin(w, "event");
            if (w->json) {
                out_json_u64(w->o, "offset", it.offset);
            } else {
                out_hexw(w->o, it.offset, 8);
                out_char(w->o, ' ');
            }
            l2_event(w, &it.ev);
            l2_end(w);
        } else if (st == TDEC_NEED_INPUT) {
            st = l2_more(in, l2_evt_feed, l2_evt_finish, e, &ended);
            if (st < 0) return -1; /* else next() drains what the end decides */
        } else if (st == TDEC_END) {
            if (synced) l2_eos(w);
            return errors;
        } else if (st == TDEC_E_CORRUPT) {
            errors++;
            l2_error(w, e->in_sync ? "sync" : "evt_next", e->st.err_offset, e->st.err_reason);
            if (e->in_sync) return errors; /* the reference tool stops here */
            tdec_ipt_evt_resync(e);
            synced = 0;
        } else {
            return -1;
        }
    }
}

/* Queries: the image-less drain of docs/ipt.md (sync; an event query while
   one is pending, else a conditional-branch query, and an indirect-branch
   query when no TNT bit is next). */
static long l2_queries(l2_out *w, cli_reader *in, const tdec_ipt_config *cfg)
{
    tdec_ipt_qry_decoder *q = &l2_qry;
    tdec_ipt_event ev;
    tdec_status st;
    uint64_t ip = 0, offset = 0;
    uint32_t flags = 0;
    int ended = 0, synced = 0, taken = 0;
    long errors = 0;
    tdec_ipt_qry_init(q, cfg);
    for (;;) {
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &flags, &offset);
            if (st == TDEC_OK) {
                synced = 1;
                l2_sync(w, offset);
                if (!(flags & TDEC_IPT_QF_IP_SUPPRESSED)) l2_field(w, "ip", F_IP, ip, 0);
                l2_flags(w, flags);
                l2_end(w);
                continue;
            }
            if (st == TDEC_END) return errors; /* no PSB left */
        } else if (flags & TDEC_IPT_QF_EVENT_PENDING) {
            st = tdec_ipt_qry_event(q, &ev, &flags);
            if (st == TDEC_OK) {
                l2_begin(w, "event");
                if (!w->json) out_str(w->o, "event ");
                l2_event(w, &ev);
                l2_end(w);
                continue;
            }
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &flags);
            if (st == TDEC_OK) {
                l2_begin(w, "cond");
                if (w->json) out_json_bool(w->o, "taken", taken);
                else out_str(w->o, taken ? "cond taken" : "cond not-taken");
                l2_query_time(w, q);
                l2_flags(w, flags);
                l2_end(w);
                continue;
            }
            if (st == TDEC_E_SEQUENCE) { /* no TNT bit next: a TIP? */
                st = tdec_ipt_qry_indirect_branch(q, &ip, &flags);
                if (st == TDEC_OK) {
                    l2_begin(w, "indirect");
                    if (!w->json) out_str(w->o, "indirect ");
                    if (w->json) l2_field(w, "ip", F_IP, ip, (flags & TDEC_IPT_QF_IP_SUPPRESSED) != 0);
                    else if (flags & TDEC_IPT_QF_IP_SUPPRESSED) out_str(w->o, "<suppressed>");
                    else out_hexw(w->o, ip, 16);
                    l2_query_time(w, q);
                    l2_flags(w, flags);
                    l2_end(w);
                    continue;
                }
            }
        }
        if (st == TDEC_NEED_INPUT) {
            st = l2_more(in, l2_qry_feed, l2_qry_finish, q, &ended);
            if (st < 0) return -1; /* else next() drains what the end decides */
        } else if (st == TDEC_END) {
            l2_eos(w);
            return errors;
        } else if (st == TDEC_E_CORRUPT) {
            errors++;
            l2_error(w, q->in_sync ? "sync" : "query", q->st.err_offset, q->st.err_reason);
            if (q->in_sync) return errors; /* the reference tool stops here */
            tdec_ipt_qry_resync(q);
            synced = 0;
        } else {
            return -1; /* a query the drain should not have asked */
        }
    }
}

int ipt_layer2(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err)
{
    tdec_ipt_config cfg;
    l2_out w;
    long errors;
    if (!ipt_config(&cfg)) cli_diag(err, "warning", -1, path, "unknown --cpu: no errata");
    w.o = out;
    w.json = a->output == CLI_OUT_JSON;
    errors = a->command == CLI_EVENTS ? l2_events(&w, in, &cfg) : l2_queries(&w, in, &cfg);
    out_flush(out);
    if (in->failed) {
        cli_diag(err, "error", -1, "read error", path);
        return 1;
    }
    if (errors < 0) {
        cli_diag(err, "error", -1, path, "decoder misuse (a bug in tracedec)");
        return 1;
    }
    if (errors > 0 && a->strict) {
        cli_diag(err, "error", -1, path, "the trace has decoding errors (--strict)");
        return 1;
    }
    return 0;
}
