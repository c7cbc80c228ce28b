/* ipt.c - the Intel PT front end (docs/ipt.md): its row of the table,
   ptdump's options, and the dump and info commands (events and queries
   are in layer2.c).

   dump FILE[:FROM[-TO]]: the packets as libipt's ptdump prints them, byte
   for byte, with ptdump's options: the same columns, the same diagnostic
   lines ("[offset: what: why]", in the output, before the packet they
   belong to), the same resynchronisation at the next PSB after an error,
   and ptdump's --lastip/--time/--tcal tracking. --json: one object per
   packet, gap or error. info: bytes, PSBs, packets by kind, gaps, errors.

   The file is read in CLI_CHUNK pieces and fed to the packet decoder. The
   bytes --raw prints come from the current chunk or, for a packet that
   began in an earlier one, from a copy of the last stream bytes before it
   (IPT_HIST: a packet is at most 16 bytes and resync looks back 15 more). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/ipt/ipt.h"

#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IPT_PROG  "tracedec" /* ptdump's messages start with its argv[0]    */
#define IPT_HIST  64u        /* stream bytes kept from before the chunk     */
#define IPT_BATCH 256u       /* items per tdec_ipt_next_n() call             */

/* ptdump's switches (ipt_opts.show). */
enum {
    IPT_O_NO_SYNC = 1u << 0,
    IPT_O_QUIET = 1u << 1,
    IPT_O_NO_PAD = 1u << 2,
    IPT_O_NO_TIMING = 1u << 3,
    IPT_O_NO_CYC = 1u << 4,
    IPT_O_NO_OFFSET = 1u << 5,
    IPT_O_RAW = 1u << 6,
    IPT_O_LASTIP = 1u << 7,
    IPT_O_EXEC_MODE = 1u << 8,
    IPT_O_TIME = 1u << 9,
    IPT_O_TCAL = 1u << 10,
    IPT_O_TIME_DELTA = 1u << 11,
    IPT_O_NO_TCAL = 1u << 12,
    IPT_O_NO_WALL_CLOCK = 1u << 13,
    IPT_O_KEEP_TCAL_OVF = 1u << 14
};

/* ---- command line ------------------------------------------------------------ */

/* ptdump's options (docs/ipt.md) and its FILE:FROM[-TO]. */
static struct {
    uint32_t show;       /* ptdump's switches, IPT_O_* bits                    */
    int      given;      /* a ptdump-only option was given: the file is PT     */
    int      cpu_set;    /* --cpu f/m[/s] (not "none")                         */
    int      iflags;     /* --iflags: IFLAGS events (events, queries)          */
    uint32_t cpu_family, cpu_model, cpu_stepping;
    uint8_t  mtc_freq, nom_freq;
    uint32_t cpuid_eax, cpuid_ebx;
    int      has_range;  /* FILE:FROM[-TO]                                     */
    uint64_t from, size; /* size 0: to the end of the file                     */
    char     path[4096]; /* the FILE of FILE:FROM[-TO]                         */
} ipt_opts;

/* The --format value. */
static const char *const ipt_format_names[] = {"ipt", NULL};

static const struct {
    const char *name;
    uint32_t    bit;
} ipt_switches[] = {
    {"--no-sync", IPT_O_NO_SYNC},         {"--quiet", IPT_O_QUIET},
    {"--no-pad", IPT_O_NO_PAD},           {"--no-timing", IPT_O_NO_TIMING},
    {"--no-cyc", IPT_O_NO_CYC},           {"--no-offset", IPT_O_NO_OFFSET},
    {"--raw", IPT_O_RAW},                 {"--lastip", IPT_O_LASTIP},
    {"--exec-mode", IPT_O_EXEC_MODE},     {"--time", IPT_O_TIME},
    {"--tcal", IPT_O_TCAL},               {"--time-delta", IPT_O_TIME_DELTA},
    {"--no-tcal", IPT_O_NO_TCAL},         {"--no-wall-clock", IPT_O_NO_WALL_CLOCK},
    {"--keep-tcal-on-ovf", IPT_O_KEEP_TCAL_OVF},
};

/* ptdump's numeric option value: decimal, 0x hex or 0 octal, at most max. */
static int ipt_opt_number(const char *opt, const char *arg, uint64_t max, uint64_t *v, out_buf *err)
{
    char *rest;
    if (arg == NULL || arg[0] == '\0' || (arg[0] == '-' && arg[1] == '-')) {
        out_str(err, IPT_PROG ": ");
        out_str(err, opt);
        out_str(err, ": missing argument.\n");
        return 0;
    }
    errno = 0;
    *v = strtoull(arg, &rest, 0);
    if (errno || *rest) {
        out_str(err, IPT_PROG ": ");
        out_str(err, opt);
        out_str(err, ": bad argument: ");
        out_str(err, arg);
        out_str(err, ".\n");
        return 0;
    }
    if (*v > max) {
        out_str(err, IPT_PROG ": ");
        out_str(err, opt);
        out_str(err, ": value too big: ");
        out_str(err, arg);
        out_str(err, ".\n");
        return 0;
    }
    return 1;
}

/* "f/m[/s]" as libipt's pt_cpu_parse() reads it (strtol, base 0). */
static int ipt_parse_cpu(const char *s, uint32_t *family, uint32_t *model, uint32_t *stepping)
{
    char *end;
    long f, m, st = 0;
    f = strtol(s, &end, 0);
    if (end == s || *end != '/' || f < 0 || f > 0xffff) return 0;
    s = end + 1;
    m = strtol(s, &end, 0);
    if (end == s || (*end != '\0' && *end != '/') || m < 0 || m > 0xff) return 0;
    if (*end == '/') {
        s = end + 1;
        st = strtol(s, &end, 0);
        if (*end != '\0' || st < 0 || st > 0xff) return 0;
    }
    *family = (uint32_t)f;
    *model = (uint32_t)m;
    *stepping = (uint32_t)st;
    return 1;
}

/* argv[*i] is one of ptdump's options: CLI_OPT_TAKEN (its value consumed,
   *i moved on), CLI_OPT_NONE, or CLI_OPT_FAILED for a bad value (ptdump's
   message on err). */
static int ipt_parse_opt(cli_args *args, int argc, char **argv, int *i, out_buf *err)
{
    const char *a = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    uint64_t v;
    size_t k;
    int rc;
    if (args->command == CLI_FLOW && (rc = ipt_flow_opt(argc, argv, i, err)) != CLI_OPT_NONE) return rc;
    for (k = 0; k < sizeof ipt_switches / sizeof ipt_switches[0]; k++) {
        if (strcmp(a, ipt_switches[k].name) != 0) continue;
        if ((ipt_switches[k].bit == IPT_O_TIME && (ipt_opts.show & IPT_O_TCAL)) ||
            (ipt_switches[k].bit == IPT_O_TCAL && (ipt_opts.show & IPT_O_TIME))) {
            out_str(err, IPT_PROG ": specify either --time or --tcal.\n");
            return CLI_OPT_FAILED;
        }
        ipt_opts.show |= ipt_switches[k].bit;
        ipt_opts.given = 1;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(a, "--iflags") == 0) { /* events, queries: enable_iflags_events */
        ipt_opts.iflags = 1;
        ipt_opts.given = 1;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(a, "--cpu") == 0) {
        ipt_opts.given = 1;
        ++*i;
        if (val == NULL) {
            out_str(err, IPT_PROG ": --cpu: missing argument.\n");
            return CLI_OPT_FAILED;
        }
        if (strcmp(val, "none") == 0) {
            ipt_opts.cpu_set = 0;
            return CLI_OPT_TAKEN;
        }
        if (!ipt_parse_cpu(val, &ipt_opts.cpu_family, &ipt_opts.cpu_model, &ipt_opts.cpu_stepping)) {
            out_str(err, IPT_PROG ": cpu must be specified as f/m[/s]\n");
            return CLI_OPT_FAILED;
        }
        ipt_opts.cpu_set = 1;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(a, "--mtc-freq") == 0 || strcmp(a, "--nom-freq") == 0) {
        ipt_opts.given = 1;
        ++*i;
        if (!ipt_opt_number(a, val, 0xff, &v, err)) return CLI_OPT_FAILED;
        if (a[2] == 'm') ipt_opts.mtc_freq = (uint8_t)v;
        else ipt_opts.nom_freq = (uint8_t)v;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(a, "--cpuid-0x15.eax") == 0 || strcmp(a, "--cpuid-0x15.ebx") == 0) {
        ipt_opts.given = 1;
        ++*i;
        if (!ipt_opt_number(a, val, 0xffffffffu, &v, err)) return CLI_OPT_FAILED;
        if (a[14] == 'a') ipt_opts.cpuid_eax = (uint32_t)v;
        else ipt_opts.cpuid_ebx = (uint32_t)v;
        return CLI_OPT_TAKEN;
    }
    return CLI_OPT_NONE;
}

/* ptdump's rule: the suffix after the last ':' is a range when strtoull
   reads FROM, or FROM-TO, from all of it; otherwise the ':' is part of the
   name. */
static int ipt_range(const char *arg, char *path, size_t cap, uint64_t *from, uint64_t *size)
{
    const char *colon = strrchr(arg, ':');
    char *rest;
    uint64_t begin, end;
    if (colon == NULL || colon[1] == '\0' || (size_t)(colon - arg) >= cap) return 0;
    errno = 0;
    begin = strtoull(colon + 1, &rest, 0);
    if (errno) return 0;
    if (*rest == '\0') {
        end = 0;
    } else {
        if (*rest != '-') return 0;
        end = strtoull(rest + 1, &rest, 0);
        if (errno || *rest) return 0;
        if (end <= begin) return -1;
    }
    memcpy(path, arg, (size_t)(colon - arg));
    path[colon - arg] = '\0';
    *from = begin;
    *size = end ? end - begin : 0;
    return 1;
}

int ipt_config(tdec_ipt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (ipt_opts.show & IPT_O_NO_SYNC) cfg->flags |= TDEC_IPT_F_NO_SYNC;
    if (ipt_opts.show & IPT_O_KEEP_TCAL_OVF) cfg->flags |= TDEC_IPT_F_KEEP_TCAL_OVF;
    if (ipt_opts.iflags) cfg->flags |= TDEC_IPT_F_IFLAGS;
    cfg->mtc_freq = ipt_opts.mtc_freq;
    cfg->nom_freq = ipt_opts.nom_freq;
    cfg->cpuid_0x15_eax = ipt_opts.cpuid_eax;
    cfg->cpuid_0x15_ebx = ipt_opts.cpuid_ebx;
    if (!ipt_opts.cpu_set) return 1;
    cfg->cpu_family = (uint8_t)ipt_opts.cpu_family;
    cfg->cpu_model = (uint8_t)ipt_opts.cpu_model;
    cfg->cpu_stepping = (uint8_t)ipt_opts.cpu_stepping;
    return tdec_ipt_cpu_errata(ipt_opts.cpu_family, ipt_opts.cpu_model, ipt_opts.cpu_stepping, &cfg->errata) ==
           TDEC_OK;
}

/* Chosen by its own commands (events, queries), --format=ipt, a ptdump
   option or a FILE:FROM[-TO] range (of a path that does not open as it
   is); a PSB first says so; a .pt name or a PSB somewhere in the first
   chunk is the last guess. */
static cli_match ipt_detect(const cli_args *a, const cli_probe *p)
{
    size_t len = strlen(a->path), psb;
    uint64_t from, size;
    char path[sizeof ipt_opts.path];
    if (a->command == CLI_EVENTS || a->command == CLI_QUERIES || a->command == CLI_FLOW) return CLI_FORCED;
    if ((a->format && strcmp(a->format, "ipt") == 0) || ipt_opts.given) return CLI_FORCED;
    if (!p->opened && ipt_range(a->path, path, sizeof path, &from, &size) != 0) return CLI_FORCED;
    if (tdec_ipt_sync_at(p->head, p->head_len, 0) == TDEC_OK) return CLI_YES;
    if (len >= 3 && strcmp(a->path + len - 3, ".pt") == 0) return CLI_GUESS;
    return tdec_ipt_sync_forward(p->head, p->head_len, 0, &psb) == TDEC_OK ? CLI_GUESS : CLI_NO;
}

/* ---- the run ---------------------------------------------------------------------- */

typedef struct ipt_counts {
    uint64_t bytes, packets, gaps, gap_bytes, errors;
    uint64_t kind[TDEC_IPT_KIND_COUNT];
} ipt_counts;

typedef struct ipt_run {
    const char     *path;     /* the file (of FILE:FROM[-TO])                    */
    out_buf        *out, *err;
    uint32_t        show;     /* IPT_O_*                                         */
    int             text;     /* dump, text                                      */
    int             json;     /* dump --json                                     */
    int             track;    /* --time or --tcal: ptdump's time tracking        */
    tdec_ipt_config cfg;
    tdec_ipt_decoder d;
    /* the input: the current chunk and the stream bytes before it */
    const uint8_t  *chunk;
    size_t          chunk_len;
    uint64_t        chunk_pos;
    uint8_t         hist[IPT_HIST];
    size_t          hist_len;
    uint64_t        skip, left; /* range: bytes to drop first, bytes to pass      */
    int             limited;
    /* ptdump's tracking (reset after a resync only) */
    tdec_ipt_last_ip last_ip;
    tdec_ipt_time    time;
    tdec_ipt_tcal    tcal;
    uint64_t         tsc, fcr; /* the previous values --time-delta subtracts      */
    int              in_header;
    /* JSON: the IP as a decoder sees it (reset at PSB, OVF and resync) */
    tdec_ipt_last_ip json_ip;
    ipt_counts       c;
} ipt_run;

/* The stream byte at pos: in the chunk, or in the bytes kept before it. */
static uint8_t ipt_byte_at(const ipt_run *r, uint64_t pos)
{
    if (pos >= r->chunk_pos) return r->chunk[pos - r->chunk_pos];
    return r->hist[r->hist_len - (size_t)(r->chunk_pos - pos)];
}

/* The chunk is used up: keep its last bytes before the buffer is reused. */
static void ipt_hist_push(ipt_run *r)
{
    size_t n = r->chunk_len, keep, k;
    if (n >= IPT_HIST) {
        memcpy(r->hist, r->chunk + n - IPT_HIST, IPT_HIST);
        r->hist_len = IPT_HIST;
    } else if (n > 0) {
        keep = IPT_HIST - n < r->hist_len ? IPT_HIST - n : r->hist_len;
        for (k = 0; k < keep; k++) r->hist[k] = r->hist[r->hist_len - keep + k];
        memcpy(r->hist + keep, r->chunk, n);
        r->hist_len = keep + n;
    }
    r->chunk_pos += n;
    r->chunk_len = 0;
}

/* ---- ptdump's lines ------------------------------------------------------------------ */

/* One output line in ptdump's columns: offset, raw bytes, opcode, payload,
   and a tracking column (id and value). The payload holds up to 47
   characters (ptdump's extended payload, TNT bits), the tracking value 16
   (ptdump's field size: longer values are cut, as its snprintf cuts them). */
typedef struct ipt_line {
    const char *op;
    const char *id; /* tracking id or NULL                                      */
    size_t      pay_len, trk_len;
    int         skip, skip_time, skip_tcal;
    char        pay[48];
    char        trk[17];
} ipt_line;

static void ipt_add(char *buf, size_t *len, size_t cap, const char *s, size_t n)
{
    if (n > cap - 1 - *len) n = cap - 1 - *len;
    memcpy(buf + *len, s, n);
    *len += n;
}

static void pay_mem(ipt_line *l, const char *s, size_t n)
{
    ipt_add(l->pay, &l->pay_len, sizeof l->pay, s, n);
}
#define pay_lit(l, lit) pay_mem((l), "" lit, sizeof(lit) - 1)
static void pay_hex(ipt_line *l, uint64_t v, unsigned width)
{
    char t[24];
    pay_mem(l, t, (size_t)(fmt_hexw(t, v, width) - t));
}
static void pay_dec(ipt_line *l, uint64_t v)
{
    char t[24];
    pay_mem(l, t, (size_t)(fmt_u64(t, v) - t));
}

static void trk_set(ipt_line *l, const char *id, const char *s, size_t n)
{
    l->id = id;
    l->trk_len = 0;
    ipt_add(l->trk, &l->trk_len, sizeof l->trk, s, n);
}
static void trk_str(ipt_line *l, const char *id, const char *s)
{
    trk_set(l, id, s, strlen(s));
}
static void trk_hex16(ipt_line *l, const char *id, uint64_t v)
{
    char t[24];
    trk_set(l, id, t, (size_t)(fmt_hexw(t, v, 16) - t));
}

/* ptdump's diag(): "[offset: what]" or "[offset: what: error text]" (the
   text of a reason, none for 0), in the output stream. JSON: an error
   object. */
static void ipt_diag(ipt_run *r, const char *what, uint64_t off, uint32_t reason)
{
    out_buf *o = r->out;
    if (r->json) {
        out_json_open(o);
        out_json_u64(o, "offset", off);
        out_json_str(o, "kind", "error");
        out_json_str(o, "what", what);
        if (reason) out_json_str(o, "error", tdec_ipt_reason_str(reason));
        out_json_close(o);
        return;
    }
    if (!r->text) return;
    out_char(o, '[');
    out_hex(o, off);
    out_lit(o, ": ");
    out_str(o, what);
    if (reason) {
        out_lit(o, ": ");
        out_str(o, tdec_ipt_reason_str(reason));
    }
    out_lit(o, "]\n");
}

/* ptdump's print_buffer(): the columns of one line. */
static void ipt_print_line(ipt_run *r, const ipt_line *l, uint64_t off, unsigned size)
{
    char *p = out_reserve(r->out, 256), *col;
    const char *sep = "";
    size_t n, k;
    if (!(r->show & IPT_O_NO_OFFSET)) {
        p = fmt_hexw(p, off, 16);
        *p++ = ' '; /* %-17s */
        sep = " ";
    }
    if (r->show & IPT_O_RAW) {
        p = fmt_mem(p, sep, strlen(sep));
        col = p;
        for (k = 0; k < size && k < 16; k++) {
            p = fmt_hexw(p, ipt_byte_at(r, off + k), 2);
        }
        while (p < col + 33) *p++ = ' ';
        sep = " ";
    }
    p = fmt_mem(p, sep, strlen(sep));
    n = strlen(l->op);
    p = fmt_mem(p, l->op, n);
    if (l->pay_len > 0)
        for (; n < 10; n++) *p++ = ' ';
    if (l->id != NULL) {
        *p++ = ' ';
        p = fmt_mem(p, l->pay, l->pay_len);
        for (n = l->pay_len; n < 25; n++) *p++ = ' ';
        *p++ = ' ';
        n = strlen(l->id);
        p = fmt_mem(p, l->id, n);
        for (; n < 5; n++) *p++ = ' ';
        p = fmt_mem(p, l->trk, l->trk_len);
    } else if (l->pay_len > 0) {
        *p++ = ' ';
        p = fmt_mem(p, l->pay, l->pay_len);
    }
    *p++ = '\n';
    out_commit(r->out, p);
}

/* ---- ptdump's tracking ------------------------------------------------------------- */

/* After a resync (ptdump_tracking_reset). */
static void ipt_tracking_reset(ipt_run *r)
{
    tdec_ipt_last_ip_init(&r->last_ip);
    tdec_ipt_tcal_init(&r->tcal);
    tdec_ipt_time_init(&r->time);
    r->tsc = 0;
    r->fcr = 0;
    r->in_header = 0;
    tdec_ipt_last_ip_init(&r->json_ip);
}

/* --lastip: the IP column. The diagnostic for an IP never set goes out
   right away, before the packet's line. */
static void ipt_track_ip(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    uint64_t ip;
    uint32_t why;
    tdec_status st = tdec_ipt_last_ip_update(&r->last_ip, pk, &why);
    if (st == TDEC_OK) st = tdec_ipt_last_ip_query(&r->last_ip, &ip, &why);
    if (st == TDEC_OK) {
        trk_hex16(l, "ip", ip);
    } else if (why == TDEC_IPT_ERR_IP_SUPPRESSED) {
        trk_str(l, "ip", "<suppressed>");
    } else {
        trk_str(l, "ip", "<unavailable>");
        ipt_diag(r, "error tracking last-ip", off, why);
    }
}

/* --tcal: the calibration column (print_tcal). */
static void ipt_show_tcal(ipt_run *r, ipt_line *l, uint64_t off)
{
    char t[64];
    uint64_t fcr;
    double now;
    uint32_t why;
    if (tdec_ipt_tcal_query_fcr(&r->tcal, &fcr, &why) != TDEC_OK) {
        trk_str(l, "fcr", "<unavailable>");
        ipt_diag(r, "error printing time", off, why);
        return;
    }
    now = (double)fcr / (double)(1u << TDEC_IPT_TCAL_FCR_SHR);
    if (r->show & IPT_O_TIME_DELTA) {
        double before = (double)r->fcr / (double)(1u << TDEC_IPT_TCAL_FCR_SHR);
        snprintf(t, sizeof t, "%+.3f", now - before);
        r->fcr = fcr;
    } else {
        snprintf(t, sizeof t, "%.3f", now);
    }
    trk_str(l, "fcr", t);
}

/* --time: the estimated TSC column (print_time). */
static void ipt_show_time(ipt_run *r, ipt_line *l, uint64_t off)
{
    char t[24], *p = t;
    uint64_t tsc;
    uint32_t why;
    tdec_status st = tdec_ipt_time_query_tsc(&r->time, &tsc, NULL, NULL, &why);
    if (st != TDEC_OK && !(why == TDEC_IPT_ERR_NO_TIME && (r->show & IPT_O_NO_WALL_CLOCK))) {
        ipt_diag(r, "error printing time", off, why);
        trk_str(l, "tsc", "<unavailable>");
        return;
    }
    if (r->show & IPT_O_TIME_DELTA) {
        *p++ = r->tsc <= tsc ? '+' : '-';
        p = fmt_hexw(p, r->tsc <= tsc ? tsc - r->tsc : r->tsc - tsc, 0);
        r->tsc = tsc;
    } else {
        p = fmt_hexw(p, tsc, 16);
    }
    trk_set(l, "tsc", t, (size_t)(p - t));
}

/* track_time(): the columns after a timing packet's update. */
static void ipt_show_timing(ipt_run *r, ipt_line *l, uint64_t off)
{
    if ((r->show & IPT_O_TCAL) && !l->skip_tcal) ipt_show_tcal(r, l, off);
    if ((r->show & IPT_O_TIME) && !l->skip_time) ipt_show_time(r, l, off);
}

/* A timing function's result: its reason, when it failed. */
static void ipt_check(ipt_run *r, const char *what, uint64_t off, tdec_status st, const uint32_t *why)
{
    if (st != TDEC_OK) ipt_diag(r, what, off, *why);
}

/* The calibration and time updates of one timing packet, in ptdump's order
   (track_tsc, track_cbr, track_tma, track_mtc, track_cyc). */
static void ipt_track_time(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    const tdec_ipt_config *cfg = &r->cfg;
    tdec_ipt_tcal *c = &r->tcal;
    tdec_ipt_time *t = &r->time;
    int tcal = !(r->show & IPT_O_NO_TCAL);
    uint64_t fcr = 0;
    uint32_t why;
    switch (pk->kind) {
    case TDEC_IPT_TSC:
        if (tcal)
            ipt_check(r, "error calibrating time", off,
                      r->in_header ? tdec_ipt_tcal_header_tsc(c, pk, cfg, &why) : tdec_ipt_tcal_update_tsc(c, pk, cfg, &why),
                      &why);
        ipt_check(r, "error updating time", off, tdec_ipt_time_update_tsc(t, pk, cfg, &why), &why);
        break;
    case TDEC_IPT_CBR:
        if (tcal)
            ipt_check(r, "error calibrating time", off,
                      r->in_header ? tdec_ipt_tcal_header_cbr(c, pk, cfg, &why) : tdec_ipt_tcal_update_cbr(c, pk, cfg, &why),
                      &why);
        ipt_check(r, "error updating time", off, tdec_ipt_time_update_cbr(t, pk, cfg, &why), &why);
        l->skip_time = 1;
        break;
    case TDEC_IPT_TMA:
        if (tcal) ipt_check(r, "error calibrating time", off, tdec_ipt_tcal_update_tma(c, pk, cfg, &why), &why);
        ipt_check(r, "error updating time", off, tdec_ipt_time_update_tma(t, pk, cfg, &why), &why);
        l->skip_tcal = 1;
        break;
    case TDEC_IPT_MTC:
        if (tcal) ipt_check(r, "error calibrating time", off, tdec_ipt_tcal_update_mtc(c, pk, cfg, &why), &why);
        ipt_check(r, "error updating time", off, tdec_ipt_time_update_mtc(t, pk, cfg, &why), &why);
        break;
    case TDEC_IPT_CYC:
        if (tcal) {
            ipt_check(r, "calibration error", off, tdec_ipt_tcal_query_fcr(c, &fcr, &why), &why);
            ipt_check(r, "error calibrating time", off, tdec_ipt_tcal_update_cyc(c, pk, cfg, &why), &why);
        }
        if (tdec_ipt_time_update_cyc(t, pk, cfg, fcr, &why) != TDEC_OK) ipt_diag(r, "error updating time", off, why);
        else if (fcr == 0) ipt_diag(r, "error updating time: no calibration", off, 0);
        l->skip_tcal = 1;
        break;
    default:
        return;
    }
    ipt_show_timing(r, l, off);
}

/* ---- text, one function per packet family ------------------------------------------ */

typedef void (*ipt_text_fn)(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off);

/* PAD, PSB, PSBEND, OVF, STOP, and the ones with nothing to show. */
static void ipt_txt_sync(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    uint32_t why;
    switch (pk->kind) {
    case TDEC_IPT_PAD:
        if (r->show & IPT_O_NO_PAD) l->skip = 1;
        break;
    case TDEC_IPT_PSB:
        if (r->track) ipt_check(r, "error calibrating time", off, tdec_ipt_tcal_update_psb(&r->tcal, &r->cfg, &why), &why);
        r->in_header = 1;
        break;
    case TDEC_IPT_PSBEND:
        r->in_header = 0;
        break;
    case TDEC_IPT_OVF:
        /* resets the calibration, or keeps it (--keep-tcal-on-ovf: cfg flag) */
        if (r->track) ipt_check(r, "error calibrating time", off, tdec_ipt_tcal_update_ovf(&r->tcal, &r->cfg, &why), &why);
        break;
    default:
        break;
    }
}

/* TIP, TIP.PGE, TIP.PGD, FUP: "ipc: IP", with ? for the bytes not carried. */
static void ipt_txt_ip(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    switch (pk->sub) {
    case TDEC_IPT_IPC_SUPPRESSED: pay_lit(l, "0: ????????????????"); break;
    case TDEC_IPT_IPC_UPDATE_16:
        pay_lit(l, "1: ????????????");
        pay_hex(l, pk->payload, 4);
        break;
    case TDEC_IPT_IPC_UPDATE_32:
        pay_lit(l, "2: ????????");
        pay_hex(l, pk->payload, 8);
        break;
    case TDEC_IPT_IPC_UPDATE_48:
        pay_lit(l, "4: ????");
        pay_hex(l, pk->payload, 12);
        break;
    default: /* SEXT_48, FULL */
        pay_hex(l, pk->sub, 0);
        pay_lit(l, ": ");
        pay_hex(l, tdec_ipt_ip_payload(pk), 16);
        break;
    }
    if (r->show & IPT_O_LASTIP) ipt_track_ip(r, l, pk, off);
}

/* TNT-8, TNT-64: the branches oldest first, ! taken, . not taken. */
static void ipt_tnt_bits(char *p, const tdec_ipt_packet *pk)
{
    unsigned k;
    for (k = pk->sub; k-- > 0;) *p++ = (pk->payload >> k) & 1u ? '!' : '.';
}

static void ipt_txt_tnt(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    ipt_tnt_bits(l->pay, pk);
    l->pay_len = pk->sub;
}

static const char *ipt_exec_mode(unsigned bits)
{
    if (bits & TDEC_IPT_EXEC_CSL) return (bits & TDEC_IPT_EXEC_CSD) ? "unknown" : "64-bit";
    return (bits & TDEC_IPT_EXEC_CSD) ? "32-bit" : "16-bit";
}

/* MODE.Exec ("cs.d, cs.l, if"), MODE.TSX ("intx, abrt"). */
static void ipt_txt_mode(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)off;
    if (pk->kind == TDEC_IPT_MODE_EXEC) {
        int csd = (pk->sub & TDEC_IPT_EXEC_CSD) != 0, csl = (pk->sub & TDEC_IPT_EXEC_CSL) != 0;
        if (csd) pay_lit(l, "cs.d");
        if (csd && csl) pay_lit(l, ", ");
        if (csl) pay_lit(l, "cs.l");
        if (pk->sub & TDEC_IPT_EXEC_IF) {
            if (csd || csl) pay_lit(l, ", ");
            pay_lit(l, "if");
        }
        if (r->show & IPT_O_EXEC_MODE) trk_str(l, "em", ipt_exec_mode(pk->sub));
    } else {
        int intx = (pk->sub & TDEC_IPT_TSX_INTX) != 0, abrt = (pk->sub & TDEC_IPT_TSX_ABRT) != 0;
        if (intx) pay_lit(l, "intx");
        if (intx && abrt) pay_lit(l, ", ");
        if (abrt) pay_lit(l, "abrt");
    }
}

/* PIP (CR3), VMCS (base): the value, and again in the tracking column. */
static void ipt_txt_vmx(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    pay_hex(l, pk->payload, 0);
    if (pk->kind == TDEC_IPT_PIP) {
        if (pk->flags & TDEC_IPT_PF_NR) pay_lit(l, ", nr");
        trk_hex16(l, "cr3", pk->payload);
    } else {
        trk_hex16(l, "vmcs", pk->payload);
    }
}

/* TSC, CBR, TMA, MTC, CYC; with --time/--tcal, ptdump's time tracking. */
static void ipt_txt_timing(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    pay_hex(l, pk->payload, 0);
    if (pk->kind == TDEC_IPT_TMA) {
        pay_lit(l, ", ");
        pay_hex(l, pk->aux, 0);
    }
    if (pk->kind == TDEC_IPT_CYC && (r->show & IPT_O_NO_CYC)) {
        l->skip = 1;
        return;
    }
    if (r->track) ipt_track_time(r, l, pk, off);
    if (r->show & IPT_O_NO_TIMING) l->skip = 1;
}

/* EXSTOP, MWAIT, PWRE, PWRX. */
static void ipt_txt_power(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    switch (pk->kind) {
    case TDEC_IPT_EXSTOP:
        if (pk->flags & TDEC_IPT_PF_IP) pay_lit(l, "ip");
        break;
    case TDEC_IPT_MWAIT:
        pay_hex(l, pk->payload, 8);
        pay_lit(l, ", ");
        pay_hex(l, pk->aux, 8);
        break;
    case TDEC_IPT_PWRE:
        pay_lit(l, "c");
        pay_dec(l, (pk->payload + 1) & 0xfu);
        pay_lit(l, ".");
        pay_dec(l, (pk->aux + 1) & 0xfu);
        if (pk->flags & TDEC_IPT_PF_HW) pay_lit(l, ", hw");
        break;
    default: /* PWRX: exactly one wake reason, else "bad" (ptdump's spacing) */
        switch (pk->sub) {
        case TDEC_IPT_PWRX_INT: pay_lit(l, "int"); break;
        case TDEC_IPT_PWRX_STORE: pay_lit(l, " st"); break;
        case TDEC_IPT_PWRX_HW: pay_lit(l, " hw"); break;
        default: pay_lit(l, "bad"); break;
        }
        pay_lit(l, ": c");
        pay_dec(l, (pk->payload + 1) & 0xfu);
        pay_lit(l, ", c");
        pay_dec(l, (pk->aux + 1) & 0xfu);
        break;
    }
}

/* PTW, MNT: a raw payload. */
static void ipt_txt_data(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    if (pk->kind == TDEC_IPT_PTW) {
        pay_hex(l, pk->sub, 0);
        pay_lit(l, ": ");
    }
    pay_hex(l, pk->payload, 0);
    if (pk->kind == TDEC_IPT_PTW && (pk->flags & TDEC_IPT_PF_IP)) pay_lit(l, ", ip");
}

static const char *const ipt_cfe_names[16] = {
    "unknown", "intr", "iret", "smi", "rsm", "sipi", "init", "vmentry", "vmexit",
    "vmexit_intr", "shutdown", "unknown", "uintr", "uiret", "swintr", "syscall"};
static const char *const ipt_evd_names[3] = {"cr2", "vmxq", "vmxr"};

static const char *ipt_cfe_name(unsigned type)
{
    return type < 16 ? ipt_cfe_names[type] : "unknown";
}

static const char *ipt_evd_name(unsigned type)
{
    return type < 3 ? ipt_evd_names[type] : "unknown";
}

/* CFE, EVD (event trace): the type number and payload, the type's name in
   the tracking column. */
static void ipt_txt_event(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    pay_dec(l, pk->sub);
    if (pk->kind == TDEC_IPT_EVD) {
        pay_lit(l, ": ");
        pay_hex(l, pk->payload, 0);
        trk_str(l, "type", ipt_evd_name(pk->sub));
        return;
    }
    switch (pk->sub) {
    case 0x01: case 0x09: case 0x0c: case 0x0e: /* intr, vmexit_intr, uintr, swintr */
        pay_lit(l, ": ");
        pay_dec(l, pk->payload);
        break;
    case 0x05: /* sipi */
        pay_lit(l, ": ");
        pay_hex(l, pk->payload, 0);
        break;
    default:
        break;
    }
    if (pk->flags & TDEC_IPT_PF_IP) pay_lit(l, ", ip");
    trk_str(l, "type", ipt_cfe_name(pk->sub));
}

/* TRIG: "trbv[, ip][, mult][, icnt: n]". */
static void ipt_txt_trig(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    pay_hex(l, pk->payload, 2);
    if (pk->flags & TDEC_IPT_PF_IP) pay_lit(l, ", ip");
    if (pk->flags & TDEC_IPT_PF_MULT) pay_lit(l, ", mult");
    if (pk->flags & TDEC_IPT_PF_ICNTV) {
        pay_lit(l, ", icnt: ");
        pay_dec(l, pk->aux);
    }
}

/* PEBS packets (only with TDEC_IPT_F_PEBS, which ptdump has not). */
static void ipt_txt_pebs(ipt_run *r, ipt_line *l, const tdec_ipt_packet *pk, uint64_t off)
{
    (void)r;
    (void)off;
    switch (pk->kind) {
    case TDEC_IPT_BBP:
        pay_hex(l, pk->sub, 0);
        if (pk->flags & TDEC_IPT_PF_SZ4) pay_lit(l, ", sz4");
        break;
    case TDEC_IPT_BIP:
        pay_hex(l, pk->sub, 0);
        pay_lit(l, ": ");
        pay_hex(l, pk->payload, 0);
        break;
    default:
        if (pk->flags & TDEC_IPT_PF_IP) pay_lit(l, "ip");
        break;
    }
}

/* ---- JSON, one function per packet family ------------------------------------------ */

typedef void (*ipt_json_fn)(ipt_run *r, const tdec_ipt_packet *pk);

static void ipt_js_sync(ipt_run *r, const tdec_ipt_packet *pk)
{
    if (pk->kind == TDEC_IPT_PSB || pk->kind == TDEC_IPT_OVF) tdec_ipt_last_ip_init(&r->json_ip);
    if (pk->flags & TDEC_IPT_PF_SKD007) out_json_bool(r->out, "skd007", 1);
}

static void ipt_js_ip(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    uint64_t ip;
    out_json_u64(o, "ipc", pk->sub);
    if (pk->sub != TDEC_IPT_IPC_SUPPRESSED) out_json_hex(o, "ip", tdec_ipt_ip_payload(pk));
    tdec_ipt_last_ip_update(&r->json_ip, pk, NULL);
    if (tdec_ipt_last_ip_query(&r->json_ip, &ip, NULL) == TDEC_OK) {
        out_json_hex(o, "last_ip", ip);
    } else {
        out_json_key(o, "last_ip");
        out_lit(o, "null");
    }
}

static void ipt_js_tnt(ipt_run *r, const tdec_ipt_packet *pk)
{
    char bits[64];
    ipt_tnt_bits(bits, pk);
    out_json_key(r->out, "bits");
    out_char(r->out, '"');
    out_mem(r->out, bits, pk->sub);
    out_char(r->out, '"');
}

static void ipt_js_mode(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    if (pk->kind == TDEC_IPT_MODE_EXEC) {
        out_json_bool(o, "csl", (pk->sub & TDEC_IPT_EXEC_CSL) != 0);
        out_json_bool(o, "csd", (pk->sub & TDEC_IPT_EXEC_CSD) != 0);
        out_json_bool(o, "if", (pk->sub & TDEC_IPT_EXEC_IF) != 0);
        out_json_str(o, "mode", ipt_exec_mode(pk->sub));
    } else {
        out_json_bool(o, "intx", (pk->sub & TDEC_IPT_TSX_INTX) != 0);
        out_json_bool(o, "abrt", (pk->sub & TDEC_IPT_TSX_ABRT) != 0);
    }
}

static void ipt_js_vmx(ipt_run *r, const tdec_ipt_packet *pk)
{
    if (pk->kind == TDEC_IPT_PIP) {
        out_json_hex(r->out, "cr3", pk->payload);
        out_json_bool(r->out, "nr", (pk->flags & TDEC_IPT_PF_NR) != 0);
    } else {
        out_json_hex(r->out, "base", pk->payload);
    }
}

static void ipt_js_timing(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    switch (pk->kind) {
    case TDEC_IPT_TSC: out_json_u64(o, "tsc", pk->payload); break;
    case TDEC_IPT_CBR: out_json_u64(o, "ratio", pk->payload); break;
    case TDEC_IPT_TMA:
        out_json_u64(o, "ctc", pk->payload);
        out_json_u64(o, "fc", pk->aux);
        break;
    case TDEC_IPT_MTC: out_json_u64(o, "ctc", pk->payload); break;
    default: out_json_u64(o, "cyc", pk->payload); break;
    }
}

static void ipt_js_power(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    switch (pk->kind) {
    case TDEC_IPT_EXSTOP: out_json_bool(o, "ip_bit", (pk->flags & TDEC_IPT_PF_IP) != 0); break;
    case TDEC_IPT_MWAIT:
        out_json_u64(o, "hints", pk->payload);
        out_json_u64(o, "ext", pk->aux);
        break;
    case TDEC_IPT_PWRE:
        out_json_u64(o, "state", pk->payload);
        out_json_u64(o, "sub_state", pk->aux);
        out_json_bool(o, "hw", (pk->flags & TDEC_IPT_PF_HW) != 0);
        break;
    default:
        out_json_u64(o, "last", pk->payload);
        out_json_u64(o, "deepest", pk->aux);
        out_json_bool(o, "interrupt", (pk->sub & TDEC_IPT_PWRX_INT) != 0);
        out_json_bool(o, "store", (pk->sub & TDEC_IPT_PWRX_STORE) != 0);
        out_json_bool(o, "autonomous", (pk->sub & TDEC_IPT_PWRX_HW) != 0);
        break;
    }
}

static void ipt_js_data(ipt_run *r, const tdec_ipt_packet *pk)
{
    if (pk->kind == TDEC_IPT_PTW) {
        out_json_u64(r->out, "plc", pk->sub);
        out_json_hex(r->out, "payload", pk->payload);
        out_json_bool(r->out, "ip_bit", (pk->flags & TDEC_IPT_PF_IP) != 0);
    } else {
        out_json_hex(r->out, "payload", pk->payload);
    }
}

static void ipt_js_event(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    out_json_u64(o, "type", pk->sub);
    if (pk->kind == TDEC_IPT_EVD) {
        out_json_str(o, "type_name", ipt_evd_name(pk->sub));
        out_json_hex(o, "payload", pk->payload);
    } else {
        out_json_str(o, "type_name", ipt_cfe_name(pk->sub));
        out_json_u64(o, "vector", pk->payload);
        out_json_bool(o, "ip_bit", (pk->flags & TDEC_IPT_PF_IP) != 0);
    }
}

static void ipt_js_trig(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    out_json_u64(o, "trbv", pk->payload);
    out_json_bool(o, "ip_bit", (pk->flags & TDEC_IPT_PF_IP) != 0);
    out_json_bool(o, "mult", (pk->flags & TDEC_IPT_PF_MULT) != 0);
    if (pk->flags & TDEC_IPT_PF_ICNTV) out_json_u64(o, "icnt", pk->aux);
}

static void ipt_js_pebs(ipt_run *r, const tdec_ipt_packet *pk)
{
    out_buf *o = r->out;
    switch (pk->kind) {
    case TDEC_IPT_BBP:
        out_json_u64(o, "type", pk->sub);
        out_json_bool(o, "sz4", (pk->flags & TDEC_IPT_PF_SZ4) != 0);
        break;
    case TDEC_IPT_BIP:
        out_json_u64(o, "id", pk->sub);
        out_json_hex(o, "value", pk->payload);
        break;
    default: out_json_bool(o, "ip_bit", (pk->flags & TDEC_IPT_PF_IP) != 0); break;
    }
}

/* ---- the packet table -------------------------------------------------------------- */

static const struct {
    ipt_text_fn text;
    ipt_json_fn json;
} ipt_family[TDEC_IPT_KIND_COUNT] = {
    [TDEC_IPT_PAD] = {ipt_txt_sync, ipt_js_sync},       [TDEC_IPT_PSB] = {ipt_txt_sync, ipt_js_sync},
    [TDEC_IPT_PSBEND] = {ipt_txt_sync, ipt_js_sync},    [TDEC_IPT_OVF] = {ipt_txt_sync, ipt_js_sync},
    [TDEC_IPT_STOP] = {ipt_txt_sync, ipt_js_sync},      [TDEC_IPT_UNKNOWN] = {ipt_txt_sync, ipt_js_sync},
    [TDEC_IPT_INVALID] = {ipt_txt_sync, ipt_js_sync},   [TDEC_IPT_TNT_8] = {ipt_txt_tnt, ipt_js_tnt},
    [TDEC_IPT_TNT_64] = {ipt_txt_tnt, ipt_js_tnt},      [TDEC_IPT_TIP] = {ipt_txt_ip, ipt_js_ip},
    [TDEC_IPT_TIP_PGE] = {ipt_txt_ip, ipt_js_ip},       [TDEC_IPT_TIP_PGD] = {ipt_txt_ip, ipt_js_ip},
    [TDEC_IPT_FUP] = {ipt_txt_ip, ipt_js_ip},           [TDEC_IPT_MODE_EXEC] = {ipt_txt_mode, ipt_js_mode},
    [TDEC_IPT_MODE_TSX] = {ipt_txt_mode, ipt_js_mode},  [TDEC_IPT_PIP] = {ipt_txt_vmx, ipt_js_vmx},
    [TDEC_IPT_VMCS] = {ipt_txt_vmx, ipt_js_vmx},        [TDEC_IPT_TSC] = {ipt_txt_timing, ipt_js_timing},
    [TDEC_IPT_CBR] = {ipt_txt_timing, ipt_js_timing},   [TDEC_IPT_TMA] = {ipt_txt_timing, ipt_js_timing},
    [TDEC_IPT_MTC] = {ipt_txt_timing, ipt_js_timing},   [TDEC_IPT_CYC] = {ipt_txt_timing, ipt_js_timing},
    [TDEC_IPT_EXSTOP] = {ipt_txt_power, ipt_js_power},  [TDEC_IPT_MWAIT] = {ipt_txt_power, ipt_js_power},
    [TDEC_IPT_PWRE] = {ipt_txt_power, ipt_js_power},    [TDEC_IPT_PWRX] = {ipt_txt_power, ipt_js_power},
    [TDEC_IPT_PTW] = {ipt_txt_data, ipt_js_data},       [TDEC_IPT_MNT] = {ipt_txt_data, ipt_js_data},
    [TDEC_IPT_CFE] = {ipt_txt_event, ipt_js_event},     [TDEC_IPT_EVD] = {ipt_txt_event, ipt_js_event},
    [TDEC_IPT_TRIG] = {ipt_txt_trig, ipt_js_trig},      [TDEC_IPT_BBP] = {ipt_txt_pebs, ipt_js_pebs},
    [TDEC_IPT_BEP] = {ipt_txt_pebs, ipt_js_pebs},       [TDEC_IPT_BIP] = {ipt_txt_pebs, ipt_js_pebs},
};

/* Display filters shared by text and JSON (--no-pad, --no-timing, --no-cyc). */
static int ipt_filtered(const ipt_run *r, unsigned kind)
{
    if (kind == TDEC_IPT_PAD) return (r->show & IPT_O_NO_PAD) != 0;
    if (kind == TDEC_IPT_CYC && (r->show & IPT_O_NO_CYC)) return 1;
    if (kind == TDEC_IPT_TSC || kind == TDEC_IPT_CBR || kind == TDEC_IPT_TMA || kind == TDEC_IPT_MTC ||
        kind == TDEC_IPT_CYC)
        return (r->show & IPT_O_NO_TIMING) != 0;
    return 0;
}

static void ipt_packet(ipt_run *r, const tdec_ipt_item *it)
{
    const tdec_ipt_packet *pk = &it->u.pkt;
    unsigned kind = pk->kind < TDEC_IPT_KIND_COUNT ? pk->kind : 0;
    r->c.packets++;
    r->c.kind[kind]++;
    if (r->text) {
        /* ptdump shows an SKD007 OVF where the dropped CYC byte was */
        uint64_t off = it->offset - ((pk->flags & TDEC_IPT_PF_SKD007) ? 1u : 0u);
        ipt_line l;
        l.op = tdec_ipt_kind_str(kind);
        l.id = NULL;
        l.pay_len = l.trk_len = 0;
        l.skip = l.skip_time = l.skip_tcal = 0;
        if (ipt_family[kind].text) ipt_family[kind].text(r, &l, pk, off);
        if (!l.skip && !(r->show & IPT_O_QUIET)) ipt_print_line(r, &l, off, pk->size);
    } else if (r->json) {
        out_buf *o = r->out;
        if (ipt_filtered(r, kind) || (r->show & IPT_O_QUIET)) {
            if (kind == TDEC_IPT_PSB || kind == TDEC_IPT_OVF) tdec_ipt_last_ip_init(&r->json_ip);
            return;
        }
        out_json_open(o);
        out_json_u64(o, "offset", it->offset);
        out_json_str(o, "kind", tdec_ipt_kind_str(kind));
        out_json_u64(o, "size", pk->size);
        if (ipt_family[kind].json) ipt_family[kind].json(r, pk);
        out_json_close(o);
    }
}

static void ipt_gap(ipt_run *r, const tdec_ipt_item *it)
{
    r->c.gaps++;
    r->c.gap_bytes += it->u.gap.len;
    if (!r->json) return;
    out_json_open(r->out);
    out_json_u64(r->out, "offset", it->offset);
    out_json_str(r->out, "kind", "gap");
    out_json_u64(r->out, "size", it->u.gap.len);
    out_json_str(r->out, "reason", it->u.gap.reason == TDEC_IPT_GAP_SYNC ? "sync" : "resync");
    out_json_close(r->out);
}

/* Erratum SKZ84 at the very end: libipt takes a TMA with reserved bits set
   as an 8-byte invalid packet without checking that the 8th byte is there,
   so when exactly 7 bytes remain ptdump prints "<invalid>" (with --raw, the
   packet's end lies past the buffer: "bad packet size", and the dump ends).
   The decoder calls those 7 bytes a truncated packet; the text says what
   ptdump says. Returns 1 when this was the case. */
static int ipt_skz84_tail(ipt_run *r, uint64_t off)
{
    uint8_t b[7];
    unsigned k;
    if (!(r->cfg.errata & TDEC_IPT_ERRATUM_SKZ84) || r->c.bytes - off != 7) return 0;
    for (k = 0; k < 7; k++) b[k] = ipt_byte_at(r, off + k);
    if (b[0] != 0x02 || b[1] != 0x73 || (b[4] == 0 && (cli_get_uint(b + 5, 2, 0) & ~0x1ffu) == 0)) return 0;
    r->c.packets++;
    r->c.kind[TDEC_IPT_INVALID]++;
    if (!r->text) return 1;
    if (r->show & IPT_O_RAW) {
        ipt_diag(r, "bad packet size", off, TDEC_IPT_ERR_BAD_PACKET);
    } else if (!(r->show & IPT_O_QUIET)) {
        ipt_line l;
        memset(&l, 0, sizeof l);
        l.op = tdec_ipt_kind_str(TDEC_IPT_INVALID);
        ipt_print_line(r, &l, off, 8);
    }
    return 1;
}

/* ---- info ------------------------------------------------------------------------------ */

static void ipt_info(ipt_run *r)
{
    out_buf *o = r->out;
    unsigned k;
    out_lit(o, "format:          intel pt\n");
    out_lit_u64(o, "bytes:           ", r->c.bytes);
    out_lit_u64(o, "\npsbs:            ", r->c.kind[TDEC_IPT_PSB]);
    out_lit_u64(o, "\npackets:         ", r->c.packets);
    out_char(o, '\n');
    for (k = 1; k < TDEC_IPT_KIND_COUNT; k++) {
        if (r->c.kind[k] == 0) continue;
        out_lit(o, "  ");
        out_str(o, tdec_ipt_kind_str(k));
        out_lit_u64(o, ": ", r->c.kind[k]);
        out_char(o, '\n');
    }
    out_lit_u64(o, "gaps:            ", r->c.gaps);
    out_lit_u64(o, " (", r->c.gap_bytes);
    out_lit(o, " bytes)\n");
    out_lit_u64(o, "errors:          ", r->c.errors);
    out_char(o, '\n');
}

/* ---- reading -------------------------------------------------------------------------- */

/* ptdump's load_file() checks, with its messages. Returns 0, or 1 (ptdump's
   exit status) after the message. */
static int ipt_open(ipt_run *r, cli_reader *in)
{
    const char *path = r->path;
    struct stat sb;
    uint64_t from = ipt_opts.has_range ? ipt_opts.from : 0;
    if (in->fd < 0) {
        out_str(r->err, IPT_PROG ": failed to open ");
        out_str(r->err, path);
        out_lit_u64(r->err, ": ", (uint64_t)in->open_errno);
        out_lit(r->err, ".\n");
        return 1;
    }
    if (fstat(in->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        /* a pipe or a device: no size to check, the range is counted off */
        r->skip = from;
        r->limited = ipt_opts.has_range && ipt_opts.size != 0;
        r->left = ipt_opts.size;
        return 0;
    }
    if (from > (uint64_t)INT64_MAX || (uint64_t)sb.st_size <= from) {
        out_lit(r->err, IPT_PROG ": bad offset 0x");
        out_hex(r->err, from);
        out_lit(r->err, " into ");
        out_str(r->err, path);
        out_lit(r->err, ".\n");
        return 1;
    }
    if (ipt_opts.has_range && ipt_opts.size != 0 && (uint64_t)sb.st_size < from + ipt_opts.size) {
        out_lit(r->err, IPT_PROG ": bad range 0x");
        out_hex(r->err, from + ipt_opts.size);
        out_lit(r->err, " in ");
        out_str(r->err, path);
        out_lit(r->err, ".\n");
        return 1;
    }
    if (from > 0) {
        if (lseek(in->fd, (off_t)from, SEEK_SET) < 0) {
            out_str(r->err, IPT_PROG ": failed to load ");
            out_str(r->err, path);
            out_lit_u64(r->err, ": ", (uint64_t)errno);
            out_lit(r->err, ".\n");
            return 1;
        }
        in->pending = 0; /* the detection chunk was read from offset 0 */
    }
    r->limited = ipt_opts.has_range && ipt_opts.size != 0;
    r->left = ipt_opts.size;
    return 0;
}

/* The next piece of the selected bytes into r->chunk (in the reader's
   buffer, which the decoder gave back at TDEC_NEED_INPUT); 0 at the end. */
static size_t ipt_read(ipt_run *r, cli_reader *in)
{
    for (;;) {
        size_t n, k;
        const uint8_t *p;
        n = r->limited && r->left == 0 ? 0 : cli_read(in);
        p = in->buf;
        if (n == 0) return 0;
        if (r->skip > 0) {
            k = r->skip < n ? (size_t)r->skip : n;
            r->skip -= k;
            p += k;
            n -= k;
            if (n == 0) continue;
        }
        if (r->limited) {
            if (n > r->left) n = (size_t)r->left;
            r->left -= n;
        }
        r->chunk = p;
        r->chunk_len = n;
        r->c.bytes += n;
        return n;
    }
}

/* ---- the loop ------------------------------------------------------------------------ */

static tdec_ipt_item ipt_items[IPT_BATCH];
static ipt_run ipt_the_run;

/* dump and info: ptdump's loop. */
static int ipt_dump(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err)
{
    ipt_run *r = &ipt_the_run;
    tdec_status st;
    size_t n, k, count;
    int rc = 0;

    memset(r, 0, sizeof *r);
    r->path = path;
    r->out = out;
    r->err = err;
    r->show = ipt_opts.show;
    r->json = a->command == CLI_DUMP && a->output == CLI_OUT_JSON;
    r->text = a->command == CLI_DUMP && a->output == CLI_OUT_TEXT;
    r->track = (ipt_opts.show & (IPT_O_TIME | IPT_O_TCAL)) != 0;
    ipt_tracking_reset(r);
    if (!ipt_config(&r->cfg)) {
        /* ptdump goes on without errata */
        ipt_diag(r, "failed to determine errata", 0, TDEC_IPT_ERR_BAD_CPU);
    }
    if (ipt_open(r, in) != 0) {
        out_flush(out);
        out_flush(err);
        return 1;
    }

    st = tdec_ipt_init(&r->d, &r->cfg);
    for (;;) {
        st = tdec_ipt_next_n(&r->d, ipt_items, IPT_BATCH, &count);
        for (k = 0; k < count; k++) {
            if (ipt_items[k].kind == TDEC_ITEM_RECORD) ipt_packet(r, &ipt_items[k]);
            else ipt_gap(r, &ipt_items[k]);
        }
        if (st == TDEC_OK) continue;
        if (st == TDEC_NEED_INPUT) {
            ipt_hist_push(r);
            n = ipt_read(r, in);
            st = n ? tdec_ipt_feed(&r->d, r->chunk, n) : tdec_ipt_finish(&r->d);
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_END) break;
        if (st == TDEC_E_CORRUPT) {
            /* ptdump: the error, then on from the next PSB with fresh tracking */
            r->c.errors++;
            ipt_diag(r, "error decoding packet", r->d.st.err_offset, r->d.st.err_reason);
            st = tdec_ipt_resync(&r->d);
            ipt_tracking_reset(r);
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_TRUNCATED) {
            /* ptdump stops quietly at a packet the trace cuts short */
            if (r->text && ipt_skz84_tail(r, r->d.st.err_offset)) break;
            r->c.errors++;
            if (r->json) ipt_diag(r, "truncated packet", r->d.st.err_offset, TDEC_IPT_ERR_EOS);
            break;
        }
        out_flush(out);
        cli_diag(err, "error", (int64_t)r->d.st.err_offset, "decoder", tdec_status_str(st));
        rc = 1;
        break;
    }
    if (a->command == CLI_INFO) ipt_info(r);
    out_flush(out);
    if (in->failed) {
        cli_diag(err, "error", -1, "read error", path);
        return 1;
    }
    if (rc == 0 && a->strict && r->c.errors > 0) {
        cli_diag(err, "error", -1, path, "the trace has decoding errors (--strict)");
        rc = 1;
    }
    return rc;
}

static int ipt_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    const char *path = a->path;
    int rc;
    if (in->fd < 0) { /* ptdump's FILE:FROM[-TO], unless a file has that very name */
        rc = ipt_range(a->path, ipt_opts.path, sizeof ipt_opts.path, &ipt_opts.from, &ipt_opts.size);
        if (rc < 0) {
            out_str(err, "tracedec: bad file ");
            out_str(err, a->path);
            out_str(err, ": invalid argument.\n");
            return 2; /* ptdump's status: -pte_invalid */
        }
        if (rc > 0) {
            ipt_opts.has_range = 1;
            path = ipt_opts.path;
            in->fd = open(path, O_RDONLY);
            in->open_errno = errno;
        }
    }
    if (a->command == CLI_DUMP || a->command == CLI_INFO) return ipt_dump(a, path, in, out, err);
    if (in->fd < 0) {
        cli_diag(err, "error", -1, path, strerror(in->open_errno));
        return 2;
    }
    if (ipt_opts.has_range) {
        cli_diag(err, "error", -1, path, "events/queries/flow read a whole file from its first PSB");
        return 2;
    }
    if (a->command == CLI_FLOW) return ipt_flow(a, path, in, out, err);
    return ipt_layer2(a, path, in, out, err);
}

static const char ipt_help[] =
    "  dump           exactly what libipt's ptdump prints, with its options:\n"
    "                 --no-sync --quiet --no-pad --no-timing --no-cyc --no-offset\n"
    "                 --raw --lastip --exec-mode --time --tcal --time-delta\n"
    "                 --no-tcal --no-wall-clock --keep-tcal-on-ovf --cpu none|F/M[/S]\n"
    "                 --mtc-freq N --nom-freq N --cpuid-0x15.eax N --cpuid-0x15.ebx N,\n"
    "                 and FILE:FROM[-TO] (docs/ipt.md)\n"
    "  events         libipt's event decoder transcript\n"
    "  queries        libipt's query decoder, drained without an image\n"
    "  flow           the instructions that ran, as ptxed prints them:\n"
    "                 --pt FILE, --raw FILE[:FROM[-TO]]:BASE, --elf FILE[:BASE],\n"
    "                 --cpu, --mtc-freq, --nom-freq, --cpuid-0x15.eax,\n"
    "                 --cpuid-0x15.ebx, --insn-decoder, --block-decoder,\n"
    "                 --block:show-blocks, --block:end-on-call, --block:end-on-jump,\n"
    "                 --no-inst, --check, --quiet, --stat, --stat:insn, --stat:blocks,\n"
    "                 --event:ip, --event:iflags, --event:time, --event:tick, --time,\n"
    "                 --offset, --insn:keep-tcal-on-ovf, --block:keep-tcal-on-ovf,\n"
    "                 --resync-on-error, --filter:addrN_cfg, --filter:addrN_a,\n"
    "                 --filter:addrN_b (N 0-3)\n"
    "  events, queries, flow --json  one JSON object per line\n"
    "  Decoding errors are lines in the output, as ptdump's (exit 0; 1 with\n"
    "  --strict); file and option errors exit 1.\n";

const cli_format cli_ipt = {
    .name = "ipt",
    .inputs = "Intel PT traces",
    .dir = 0,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) | CLI_CMD(CLI_EVENTS) | CLI_CMD(CLI_QUERIES) |
                CLI_CMD(CLI_FLOW),
    .help = ipt_help,
    .format_names = ipt_format_names,
    .detect = ipt_detect,
    .parse_opt = ipt_parse_opt,
    .run = ipt_command,
};
