/* flow.c - `tracedec flow`: the Intel PT instruction flow decoder
   (single/tdec_ipt.h, layer 3) printing what libipt's ptxed prints with
   --no-inst (docs/ipt.md, "tracedec flow"): one line per instruction
   ("[OFFSET  ][TIME  ][? ]IP"), event lines "[[OFFSET  ][TSC  ]...]",
   error lines "[OFFSET, IP: error: MESSAGE]", "[end of trace]"; or, with
   --json, one JSON object per line for each of them. Options are ptxed's:
   --pt FILE (main takes it as the path), --raw FILE[:FROM[-TO]]:BASE and
   --elf FILE[:BASE] (repeatable: the code image; elf.c reads ELF files),
   --cpu and the timing options (shared with ptdump's), and the switches
   and --filter:addrN_* options below: the block decoder by default (each
   block's instructions read again from the image, "[block]" lines with
   --block:show-blocks), --insn-decoder, --resync-on-error (after an
   error, go on at the current event, not the next PSB), --offset (the
   trace offset before each line). The trace is read in CLI_CHUNK
   pieces; the image files are read whole. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/ipt/ipt.h"

#include "single/tdec_ipt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOW_MAX_SECTIONS 64 /* image sections (--raw, --elf segments) at most */

enum {
    FLOW_QUIET = 1u << 0,    /* --quiet: no instruction or event lines         */
    FLOW_STAT = 1u << 1,     /* --stat                                         */
    FLOW_STAT_INSN = 1u << 2, /* --stat:insn                                   */
    FLOW_EVENT_IP = 1u << 3, /* --event:ip                                     */
    FLOW_IFLAGS = 1u << 4,   /* --event:iflags: IFLAGS events                  */
    FLOW_TICK = 1u << 5,     /* --event:tick: TICK events                      */
    FLOW_EVENT_TIME = 1u << 6, /* --event:time: events with their TSC          */
    FLOW_KEEP_TCAL = 1u << 7, /* --insn:/--block:keep-tcal-on-ovf              */
    FLOW_INSN_DEC = 1u << 8,  /* --insn-decoder (else the block decoder)        */
    FLOW_SHOW_BLOCKS = 1u << 9, /* --block:show-blocks: "[block]" lines         */
    FLOW_END_ON_CALL = 1u << 10, /* --block:end-on-call                         */
    FLOW_END_ON_JUMP = 1u << 11, /* --block:end-on-jump                         */
    FLOW_STAT_BLOCKS = 1u << 12, /* --stat:blocks                               */
    FLOW_RESYNC = 1u << 13,    /* --resync-on-error: go on at the current event */
    FLOW_TIME = 1u << 14,      /* --time: the time before each instruction      */
    FLOW_OFFSET = 1u << 15     /* --offset: the trace offset before each line   */
};

static struct {
    uint32_t         show;
    size_t           nsections;
    tdec_ipt_section sections[FLOW_MAX_SECTIONS];
    tdec_ipt_addr_filter filter;
} flow_opts;

static const struct {
    const char *name;
    uint32_t    bit;
} flow_switches[] = {
    {"--quiet", FLOW_QUIET},     {"--stat", FLOW_STAT},   {"--stat:insn", FLOW_STAT_INSN},
    {"--event:ip", FLOW_EVENT_IP}, {"--insn-decoder", FLOW_INSN_DEC},
    {"--no-inst", 0},            {"--stat:blocks", FLOW_STAT_BLOCKS},
    {"--block:show-blocks", FLOW_SHOW_BLOCKS}, {"--block:end-on-call", FLOW_END_ON_CALL},
    {"--block:end-on-jump", FLOW_END_ON_JUMP},
    {"--check", 0},              {"--event:iflags", FLOW_IFLAGS},
    {"--event:tick", FLOW_TICK}, {"--event:time", FLOW_EVENT_TIME},
    {"--insn:keep-tcal-on-ovf", FLOW_KEEP_TCAL}, {"--block:keep-tcal-on-ovf", FLOW_KEEP_TCAL},
    {"--resync-on-error", FLOW_RESYNC}, {"--time", FLOW_TIME}, {"--offset", FLOW_OFFSET},
};

/* Reads the file named by name[0, len) whole: its bytes (malloc'd) and
   size, or NULL. */
static uint8_t *flow_slurp(const char *name, size_t len, uint64_t *size)
{
    char path[4096];
    FILE *fp;
    uint8_t *buf = NULL;
    long n;
    if (len >= sizeof path) return NULL;
    memcpy(path, name, len);
    path[len] = '\0';
    if ((fp = fopen(path, "rb")) == NULL) return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        buf = (uint8_t *)malloc(n ? (size_t)n : 1u);
        if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *size = (uint64_t)n;
    }
    fclose(fp);
    return buf;
}

/* A number of ptxed's: all of s (decimal, 0x hex, 0 octal). */
static int flow_number(const char *s, const char *end, uint64_t *v)
{
    char *stop;
    if (s == end) return 0;
    errno = 0;
    *v = strtoull(s, &stop, 0);
    return errno == 0 && stop == end;
}

static int flow_load_failed(const char *arg, out_buf *err)
{
    out_str(err, "tracedec: failed to load ");
    out_str(err, arg);
    out_str(err, ".\n");
    return CLI_OPT_FAILED;
}

/* --raw FILE[:FROM[-TO]]:BASE: loads the file's bytes [FROM, TO) at BASE. */
static int flow_raw(const char *arg, out_buf *err)
{
    const char *base = strrchr(arg, ':'), *range, *dash;
    uint64_t at, from = 0, to = 0, size;
    uint8_t *bytes;
    tdec_ipt_section *s;
    size_t len;
    if (base == NULL || !flow_number(base + 1, base + strlen(base), &at)) return flow_load_failed(arg, err);
    len = (size_t)(base - arg);
    for (range = base; range > arg && range[-1] != ':'; range--) continue;
    if (range > arg) { /* FILE:FROM[-TO] when what follows the ':' is a range */
        dash = memchr(range, '-', (size_t)(base - range));
        if (flow_number(range, dash ? dash : base, &from) && (!dash || flow_number(dash + 1, base, &to)))
            len = (size_t)(range - 1 - arg);
        else
            from = to = 0;
    }
    if (flow_opts.nsections == FLOW_MAX_SECTIONS || (bytes = flow_slurp(arg, len, &size)) == NULL)
        return flow_load_failed(arg, err);
    if (to == 0 || to > size) to = size;
    if (from > to) {
        free(bytes);
        return flow_load_failed(arg, err);
    }
    s = &flow_opts.sections[flow_opts.nsections++];
    s->vaddr = at;
    s->bytes = bytes + from;
    s->size = to - from;
    s->asid = TDEC_IPT_ASID_ANY;
    return CLI_OPT_TAKEN;
}

/* --elf FILE[:BASE]: the file's loadable segments (elf.c), moved to BASE
   when it is given and not 0. As ptxed, a ':' not followed by a number
   belongs to FILE. */
static int flow_elf(const char *arg, out_buf *err)
{
    const char *colon = strrchr(arg, ':');
    uint64_t base = 0, size;
    uint8_t *bytes;
    size_t len = strlen(arg), had = flow_opts.nsections;
    int ok;
    if (colon != NULL && flow_number(colon + 1, arg + len, &base)) len = (size_t)(colon - arg);
    else base = 0;
    if ((bytes = flow_slurp(arg, len, &size)) == NULL) return flow_load_failed(arg, err);
    ok = ipt_elf_sections(bytes, size, base, arg, flow_opts.sections, FLOW_MAX_SECTIONS, &flow_opts.nsections, err);
    if (flow_opts.nsections == had) free(bytes); /* no section holds them */
    return ok ? CLI_OPT_TAKEN : flow_load_failed(arg, err);
}

/* --filter:addrN_cfg|_a|_b VALUE (a = the option without "--filter:addr"):
   one field of the IP filter. */
static int flow_filter(const char *a, const char *value)
{
    unsigned n = (unsigned)(a[0] - '0');
    uint64_t v;
    if (a[0] < '0' || a[0] > '3' || !flow_number(value, value + strlen(value), &v)) return CLI_OPT_USAGE;
    if (strcmp(a + 1, "_cfg") == 0 && v <= 0xfu)
        flow_opts.filter.cfg = (flow_opts.filter.cfg & ~(0xfu << (4u * n))) | (uint32_t)v << (4u * n);
    else if (strcmp(a + 1, "_a") == 0)
        flow_opts.filter.a[n] = v;
    else if (strcmp(a + 1, "_b") == 0)
        flow_opts.filter.b[n] = v;
    else
        return CLI_OPT_USAGE;
    return CLI_OPT_TAKEN;
}

int ipt_flow_opt(int argc, char **argv, int *i, out_buf *err)
{
    const char *a = argv[*i];
    size_t k;
    if (strcmp(a, "--block-decoder") == 0) { /* the default; the last one given wins */
        flow_opts.show &= ~(uint32_t)FLOW_INSN_DEC;
        return CLI_OPT_TAKEN;
    }
    for (k = 0; k < sizeof flow_switches / sizeof flow_switches[0]; k++) {
        if (strcmp(a, flow_switches[k].name) != 0) continue;
        flow_opts.show |= flow_switches[k].bit;
        return CLI_OPT_TAKEN;
    }
    if (strncmp(a, "--filter:addr", 13) == 0) {
        if (++*i >= argc) return CLI_OPT_USAGE;
        return flow_filter(a + 13, argv[*i]);
    }
    if (strcmp(a, "--raw") != 0 && strcmp(a, "--elf") != 0) return CLI_OPT_NONE;
    if (++*i >= argc) return CLI_OPT_USAGE;
    return a[2] == 'r' ? flow_raw(argv[*i], err) : flow_elf(argv[*i], err);
}

/* ---- printing: one printer per item kind, text or JSON ------------------------------ */

static int flow_json; /* --json: the printers write JSON objects */
/* --offset: the trace offset the decoder was at before the item being
   printed (tdec_ipt_flow_offset; a block's instructions all get the one
   before the block, as ptxed prints them) */
static uint64_t flow_at;

/* tdec_ipt_iclass names (libipt's ptic_* without the prefix). */
static const char *const flow_iclasses[] = {"unknown",    "other",    "call",     "return",
                                            "jump",       "cond_jump", "far_call", "far_return",
                                            "far_jump",   "ptwrite",  "indirect"};

/* An --offset, --time or --event:time column: 16 hex digits and two
   spaces. */
static void flow_column(out_buf *o, uint64_t v)
{
    out_hexw(o, v, 16);
    out_str(o, "  ");
}

/* tdec_ipt_iclass's name in JSON. */
static const char *flow_iclass_name(unsigned iclass)
{
    return iclass < sizeof flow_iclasses / sizeof flow_iclasses[0] ? flow_iclasses[iclass] : "unknown";
}

/* What ptxed prints before an instruction's IP: the --offset and --time
   columns (time: the decoder's, the TSC of the last event), then "? "
   inside a transaction. (A block printer gives each instruction of a block
   the same.) */
static void flow_insn_prefix(out_buf *o, uint64_t time, int speculative)
{
    if (flow_opts.show & FLOW_OFFSET) flow_column(o, flow_at);
    if (flow_opts.show & FLOW_TIME) flow_column(o, time);
    if (speculative) out_str(o, "? ");
}

static void flow_insn(out_buf *o, const tdec_ipt_flow_item *it, uint64_t time)
{
    if (!flow_json) {
        flow_insn_prefix(o, time, it->speculative);
        out_hexw(o, it->ip, 16);
        out_char(o, '\n');
        return;
    }
    out_json_open(o);
    out_json_str(o, "kind", "insn");
    if (flow_opts.show & FLOW_OFFSET) out_json_u64(o, "offset", flow_at);
    out_json_u64(o, "time", time);
    out_json_u64(o, "ip", it->ip);
    out_json_u64(o, "size", it->size);
    out_json_str(o, "iclass", flow_iclass_name(it->iclass));
    out_json_u64(o, "mode", it->mode);
    out_json_bool(o, "speculative", it->speculative);
    out_json_key(o, "raw");
    out_char(o, '"');
    out_hex_bytes(o, it->raw, it->size);
    out_char(o, '"');
    out_json_close(o);
}

static void flow_ip(out_buf *o, const char *what, uint64_t ip)
{
    out_str(o, what);
    out_hexw(o, ip, 16);
}

/* An event line as ptxed prints it, or the event as `tracedec events
   --json` gives it. */
static void flow_event(out_buf *o, const tdec_ipt_event *ev)
{
    int known = !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED);
    int with_ip = (flow_opts.show & FLOW_EVENT_IP) && known;
    static const char *const modes[] = {"<unknown>", "16-bit", "32-bit", "64-bit"};
    if (flow_json) {
        out_json_open(o);
        out_json_str(o, "kind", "event");
        if (flow_opts.show & FLOW_OFFSET) out_json_u64(o, "offset", flow_at);
        ipt_event_json(o, ev);
        if (ev->type == TDEC_IPT_EV_ENABLED) out_json_bool(o, "resumed", (ev->flags & TDEC_IPT_EVF_RESUMED) != 0);
        out_json_close(o);
        return;
    }
    out_char(o, '[');
    if (flow_opts.show & FLOW_OFFSET) flow_column(o, flow_at);
    if ((flow_opts.show & FLOW_EVENT_TIME) && (ev->flags & TDEC_IPT_EVF_HAS_TSC)) flow_column(o, ev->tsc);
    switch (ev->type) {
    case TDEC_IPT_EV_ENABLED: out_str(o, ev->flags & TDEC_IPT_EVF_RESUMED ? "resumed" : "enabled"); break;
    case TDEC_IPT_EV_DISABLED: out_str(o, "disabled"); break;
    case TDEC_IPT_EV_ASYNC_DISABLED:
        out_str(o, "disabled");
        if (flow_opts.show & FLOW_EVENT_IP) flow_ip(o, ", at: ", ev->arg);
        break;
    case TDEC_IPT_EV_ASYNC_BRANCH:
        out_str(o, "interrupt");
        if (flow_opts.show & FLOW_EVENT_IP) {
            flow_ip(o, ", from: ", ev->arg);
            if (known) flow_ip(o, ", to: ", ev->ip);
        }
        with_ip = 0;
        break;
    case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_ASYNC_PAGING:
        flow_ip(o, "paging, cr3: ", ev->arg);
        if (ev->flags & TDEC_IPT_EVF_NR) out_str(o, ", nr");
        /* ptxed: none for the bound one, the async one's even when suppressed */
        with_ip = ev->type == TDEC_IPT_EV_ASYNC_PAGING && (flow_opts.show & FLOW_EVENT_IP);
        break;
    case TDEC_IPT_EV_OVERFLOW: out_str(o, "overflow"); break;
    case TDEC_IPT_EV_EXEC_MODE:
        out_str(o, "exec mode: ");
        out_str(o, modes[ev->a & 3u]);
        break;
    case TDEC_IPT_EV_TSX:
        out_str(o, ev->flags & TDEC_IPT_EVF_ABORTED       ? "aborted"
                   : ev->flags & TDEC_IPT_EVF_SPECULATIVE ? "begin transaction"
                                                          : "committed");
        break;
    case TDEC_IPT_EV_STOP: out_str(o, "stopped"); break;
    case TDEC_IPT_EV_VMCS:
    case TDEC_IPT_EV_ASYNC_VMCS:
        flow_ip(o, "vmcs, base: ", ev->arg);
        with_ip = ev->type == TDEC_IPT_EV_ASYNC_VMCS && (flow_opts.show & FLOW_EVENT_IP); /* as paging */
        break;
    case TDEC_IPT_EV_EXSTOP: out_str(o, "exstop"); break;
    case TDEC_IPT_EV_MWAIT:
        out_str(o, "mwait ");
        out_hex(o, ev->arg);
        out_char(o, ' ');
        out_hex(o, ev->aux);
        break;
    case TDEC_IPT_EV_PWRE:
        out_str(o, "pwre c");
        out_hex(o, (ev->a + 1u) & 0xfu);
        out_char(o, '.');
        out_hex(o, (ev->b + 1u) & 0xfu);
        if (ev->flags & TDEC_IPT_EVF_HW) out_str(o, " hw");
        break;
    case TDEC_IPT_EV_PWRX:
        out_str(o, ev->flags & TDEC_IPT_EVF_INTERRUPT ? "pwrx int: "
                   : ev->flags & TDEC_IPT_EVF_STORE   ? "pwrx st: "
                                                      : "pwrx hw: ");
        out_char(o, 'c');
        out_hex(o, (ev->a + 1u) & 0xfu);
        out_str(o, " (c");
        out_hex(o, (ev->b + 1u) & 0xfu);
        out_char(o, ')');
        break;
    case TDEC_IPT_EV_PTWRITE:
        out_str(o, "ptwrite: ");
        out_hex(o, ev->arg);
        break;
    case TDEC_IPT_EV_TICK: out_str(o, "tick"); break;
    case TDEC_IPT_EV_CBR:
        out_str(o, "cbr: ");
        out_hex(o, ev->a);
        break;
    case TDEC_IPT_EV_MNT:
        out_str(o, "mnt: ");
        out_hex(o, ev->arg);
        break;
    case TDEC_IPT_EV_IFLAGS:
        out_str(o, ev->flags & TDEC_IPT_EVF_IFLAG ? "interrupts enabled" : "interrupts disabled");
        break;
    case TDEC_IPT_EV_INTERRUPT:
        out_str(o, "interrupt ");
        out_u64(o, ev->a);
        if (ev->flags & TDEC_IPT_EVF_HAS_CR2) flow_ip(o, ", cr2: ", ev->arg);
        break;
    case TDEC_IPT_EV_SIPI:
        out_str(o, "sipi: ");
        out_hex(o, ev->a);
        break;
    case TDEC_IPT_EV_VMEXIT:
        out_str(o, "vmexit");
        if (ev->flags & TDEC_IPT_EVF_HAS_VECTOR) {
            out_str(o, ", intr: ");
            out_u64(o, ev->a);
        }
        if (ev->flags & TDEC_IPT_EVF_HAS_VMXR) flow_ip(o, ", vmxr: ", ev->arg2);
        if (ev->flags & TDEC_IPT_EVF_HAS_VMXQ) flow_ip(o, ", vmxq: ", ev->arg);
        break;
    case TDEC_IPT_EV_UINTR:
    case TDEC_IPT_EV_SWINTR:
        out_str(o, ev->type == TDEC_IPT_EV_UINTR ? "uintr " : "swintr ");
        out_u64(o, ev->a);
        break;
    case TDEC_IPT_EV_TRIG:
        out_str(o, "trig ");
        out_hexw(o, ev->a, 2);
        if (ev->flags & TDEC_IPT_EVF_MULT) out_str(o, ", mult");
        break;
    default: out_str(o, tdec_ipt_event_str(ev->type)); break;
    }
    switch (ev->type) { /* events without an IP */
    case TDEC_IPT_EV_STOP:
    case TDEC_IPT_EV_PWRE:
    case TDEC_IPT_EV_PWRX:
    case TDEC_IPT_EV_CBR:
    case TDEC_IPT_EV_MNT:
    case TDEC_IPT_EV_SIPI:
    case TDEC_IPT_EV_RSM: with_ip = 0; break;
    default: break;
    }
    if (with_ip) flow_ip(o, ", ip: ", ev->ip);
    out_str(o, "]\n");
}

/* "[OFFSET, IP: [WHERE ]error: MESSAGE]"; where: "decode" (not printed),
   "config", "resync" or "fetch". */
static void flow_error(out_buf *o, const char *where, uint64_t offset, uint64_t ip, uint32_t reason)
{
    if (flow_json) {
        out_json_open(o);
        out_json_str(o, "kind", "error");
        out_json_str(o, "where", where);
        out_json_u64(o, "offset", offset);
        out_json_u64(o, "ip", ip);
        out_json_u64(o, "code", reason);
        out_json_str(o, "error", tdec_ipt_reason_str(reason));
        out_json_close(o);
        return;
    }
    out_char(o, '[');
    out_hex(o, offset);
    out_str(o, ", ");
    out_hex(o, ip);
    out_str(o, ": ");
    if (strcmp(where, "decode") != 0) {
        out_str(o, where);
        out_char(o, ' ');
    }
    out_str(o, "error: ");
    out_str(o, tdec_ipt_reason_str(reason));
    out_str(o, "]\n");
}

/* A block as ptxed prints it: "[block N]" with --block:show-blocks (N, in
   hex, with statistics on), then its instructions, read again from the
   image (in JSON: a block object, then one object per instruction). */
static void flow_block(out_buf *o, const tdec_ipt_flow_decoder *f, const tdec_ipt_flow_item *b, uint64_t nblocks)
{
    tdec_ipt_flow_item it = *b;
    tdec_ipt_insn_info insn;
    uint32_t k, reason;
    uint64_t ip = b->ip, at;
    tdec_status st;
    int counted = (flow_opts.show & (FLOW_STAT | FLOW_STAT_INSN | FLOW_STAT_BLOCKS)) != 0;
    if ((flow_opts.show & FLOW_SHOW_BLOCKS) && flow_json) {
        out_json_open(o);
        out_json_str(o, "kind", "block");
        if (counted) out_json_u64(o, "block", nblocks);
        out_json_u64(o, "ip", b->ip);
        out_json_u64(o, "end_ip", b->end_ip);
        out_json_u64(o, "ninsn", b->ninsn);
        out_json_str(o, "iclass", flow_iclass_name(b->iclass));
        out_json_u64(o, "mode", b->mode);
        out_json_bool(o, "speculative", b->speculative);
        out_json_close(o);
    } else if (flow_opts.show & FLOW_SHOW_BLOCKS) {
        out_str(o, "[block");
        if (counted) {
            out_char(o, ' ');
            out_hex(o, nblocks);
        }
        out_str(o, "]\n");
    }
    it.kind = TDEC_IPT_FLOW_INSN;
    it.ninsn = 1;
    for (k = 0; k < b->ninsn; k++) {
        at = ip;
        st = tdec_ipt_block_walk(f, b, &ip, &insn, it.raw, &reason);
        if (flow_json && st != TDEC_OK) {
            flow_error(o, "fetch", 0, at, reason);
            return;
        }
        if (flow_json) {
            it.ip = it.end_ip = at;
            it.size = insn.size;
            it.iclass = insn.iclass;
            flow_insn(o, &it, f->time);
            continue;
        }
        flow_insn_prefix(o, f->time, b->speculative);
        out_hexw(o, at, 16);
        if (st != TDEC_OK) {
            out_str(o, " [fetch error: ");
            out_str(o, tdec_ipt_reason_str(reason));
            out_str(o, "]\n");
            return;
        }
        out_char(o, '\n');
    }
}

/* The trace ended with tracing on. */
static void flow_end(out_buf *o)
{
    if (!flow_json) {
        out_str(o, "[end of trace]\n");
        return;
    }
    out_json_open(o);
    out_json_str(o, "kind", "end");
    out_json_close(o);
}

/* --stat's counts: which ptxed prints (both by default with the block
   decoder). */
static void flow_stats(out_buf *o, uint64_t insns, uint64_t blocks)
{
    uint32_t which = flow_opts.show & (FLOW_STAT_INSN | FLOW_STAT_BLOCKS);
    if (!(flow_opts.show & (FLOW_STAT | FLOW_STAT_INSN | FLOW_STAT_BLOCKS))) return;
    if (!which) which = FLOW_STAT_INSN | (flow_opts.show & FLOW_INSN_DEC ? 0u : (uint32_t)FLOW_STAT_BLOCKS);
    if (flow_json) {
        out_json_open(o);
        out_json_str(o, "kind", "stat");
        if (which & FLOW_STAT_INSN) out_json_u64(o, "insn", insns);
        if (which & FLOW_STAT_BLOCKS) out_json_u64(o, "blocks", blocks);
        out_json_close(o);
        return;
    }
    if (which & FLOW_STAT_INSN) {
        out_str(o, "insn: ");
        out_u64(o, insns);
        out_str(o, ".\n");
    }
    if (which & FLOW_STAT_BLOCKS) {
        out_str(o, "blocks:\t");
        out_u64(o, blocks);
        out_str(o, ".\n");
    }
}

/* ---- the loop --------------------------------------------------------------------- */

static tdec_ipt_flow_decoder flow_dec;
/* The block decoder's cache: 65536 remembered runs (3 MiB). */
static uint64_t flow_cache[65536u * TDEC_IPT_CACHE_ENTRY / 8u];

/* Feeds the next chunk, or finishes at the end of the file: the decoder's
   answer, or TDEC_E_SEQUENCE when it asks for more after the end. */
static tdec_status flow_input(tdec_ipt_flow_decoder *f, cli_reader *in, int *ended)
{
    size_t n = *ended ? 0 : cli_read(in);
    if (n) return tdec_ipt_flow_feed(f, in->buf, n);
    if (*ended) return TDEC_E_SEQUENCE;
    *ended = 1;
    return tdec_ipt_flow_finish(f);
}

/* --offset: the decoder's trace offset now (tdec_ipt_flow_offset) into
   flow_at, feeding it as it asks. TDEC_OK, or what stopped it. */
static tdec_status flow_offset(tdec_ipt_flow_decoder *f, cli_reader *in, int *ended)
{
    tdec_status st;
    if (!(flow_opts.show & FLOW_OFFSET)) return TDEC_OK;
    while ((st = tdec_ipt_flow_offset(f, &flow_at)) == TDEC_NEED_INPUT)
        if ((st = flow_input(f, in, ended)) < 0) return st;
    return st;
}

/* --resync-on-error after an error (ptxed's resync_insn): go on at the
   current event, printing the events met on the way, and "[disabled]"
   when tracing is off there. TDEC_OK, or what stopped it (TDEC_E_CORRUPT:
   a "resync error", printed). */
static tdec_status flow_resync_event(tdec_ipt_flow_decoder *f, cli_reader *in, out_buf *out, int *ended, int quiet)
{
    tdec_ipt_flow_item it;
    tdec_status st;
    for (;;) {
        st = tdec_ipt_flow_resync_event(f, &it);
        if (st == TDEC_NEED_INPUT) {
            st = flow_input(f, in, ended);
        } else if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_EVENT && !quiet) {
            st = flow_offset(f, in, ended); /* ptxed asks once the event is there */
            flow_event(out, &it.ev);
        } else {
            break;
        }
        if (st < 0) return st;
    }
    if (st == TDEC_OK && !f->enabled && !quiet) {
        if (flow_json) {
            out_json_open(out);
            out_json_str(out, "kind", "resync");
            out_json_bool(out, "enabled", 0);
            out_json_close(out);
        } else {
            out_str(out, "[disabled]\n");
        }
    }
    if (st == TDEC_E_CORRUPT && !quiet) flow_error(out, "resync", f->st.err_offset, f->err_ip, f->st.err_reason);
    return st;
}

int ipt_flow(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err)
{
    tdec_ipt_flow_decoder *f = &flow_dec;
    tdec_ipt_config cfg;
    tdec_ipt_image image;
    tdec_ipt_flow_item it;
    tdec_status st;
    uint64_t insns = 0, blocks = 0;
    unsigned ends = (flow_opts.show & FLOW_END_ON_CALL ? TDEC_IPT_BLOCK_END_ON_CALL : 0u) |
                    (flow_opts.show & FLOW_END_ON_JUMP ? TDEC_IPT_BLOCK_END_ON_JUMP : 0u);
    int ended = 0, quiet = (flow_opts.show & FLOW_QUIET) != 0;
    int fresh = 1; /* the next call starts an item: --offset is taken before it */
    long errors = 0;
    flow_json = a->output == CLI_OUT_JSON;
    if (!ipt_config(&cfg)) flow_error(out, "config", 0, 0, TDEC_IPT_ERR_BAD_CPU);
    if (flow_opts.show & FLOW_IFLAGS) cfg.flags |= TDEC_IPT_F_IFLAGS;
    if (flow_opts.show & FLOW_TICK) cfg.flags |= TDEC_IPT_F_TICKS;
    if (flow_opts.show & FLOW_KEEP_TCAL) cfg.flags |= TDEC_IPT_F_KEEP_TCAL_OVF;
    image.sections = flow_opts.sections;
    image.count = flow_opts.nsections;
    tdec_ipt_flow_init(f, &cfg, tdec_ipt_image_read, &image, 0);
    tdec_ipt_flow_set_filter(f, &flow_opts.filter);
    tdec_ipt_flow_set_cache(f, flow_cache, sizeof flow_cache);
    for (;;) {
        if (fresh && !quiet && (st = flow_offset(f, in, &ended)) < 0) break;
        fresh = 1;
        st = flow_opts.show & FLOW_INSN_DEC ? tdec_ipt_flow_next(f, &it) : tdec_ipt_flow_next_block(f, &it, ends);
        if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_INSN) {
            insns++;
            if (!quiet) flow_insn(out, &it, f->time);
        } else if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_BLOCK) {
            insns += it.ninsn;
            blocks++;
            if (!quiet) flow_block(out, f, &it, blocks);
        } else if (st == TDEC_OK) {
            if (!quiet) flow_event(out, &it.ev);
        } else if (st == TDEC_NEED_INPUT) {
            fresh = 0;
            st = flow_input(f, in, &ended);
            if (st < 0) break;
        } else if (st == TDEC_END) {
            if (f->enabled && !quiet) flow_end(out);
            break;
        } else if (st == TDEC_E_CORRUPT) {
            errors++;
            if (!quiet) flow_error(out, "decode", f->st.err_offset, f->err_ip, f->st.err_reason);
            if ((flow_opts.show & FLOW_RESYNC) && flow_resync_event(f, in, out, &ended, quiet) == TDEC_OK) continue;
            if (tdec_ipt_flow_resync(f) != TDEC_NEED_INPUT) break;
        } else {
            break;
        }
    }
    flow_stats(out, insns, blocks);
    out_flush(out);
    if (in->failed) {
        cli_diag(err, "error", -1, "read error", path);
        return 1;
    }
    if (st != TDEC_END && st != TDEC_E_CORRUPT) {
        cli_diag(err, "error", -1, path, "decoder misuse (a bug in tracedec)");
        return 1;
    }
    return errors > 0 && a->strict ? 1 : 0;
}
