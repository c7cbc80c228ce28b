/* xtrace.c - the xtrace front end (Kunpeng AArch64 instruction streams
   and register snapshots; docs/xtrace.md has the output formats).

   dump FILE: an instruction stream prints one line per instruction (index,
   exception level, PC, instruction word) with the tokens that belong to it
   indented below; a snapshot file prints each snapshot's counters and
   registers. --json: one object per record, data bytes folded in as hex.
   info FILE: a summary of the file and, when it is there, its partner (the
   other file of the same capture). The file kind comes from the name
   (xtrace.{ts}.{id}.hint{9|13}.{xinsndata|xsnapshot}.bin) or from
   --format=xtrace (an instruction stream) / --format=xtrace-snapshot. The
   other options give what the library cannot tell from the bytes. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"

#define TDEC_XTRACE_IMPLEMENTATION
#include "single/tdec_xtrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes the VL detection wants from the start of a snapshot file: the
   header and one snapshot at the largest VL. */
#define XT_DETECT_BYTES (TDEC_XTRACE_SNAP_HEADER_SIZE + 74656u)

typedef struct xt_counts {
    uint64_t tokens, insns, pcinsts, loads[16], stores[16], vals[6], syscall_vecs, allgprs, misc_flags, times;
    uint64_t unknowns;
    uint64_t snapshots, bytes;
} xt_counts;

typedef struct xt_run {
    int             dump, json; /* dump, and as JSON lines (else info)      */
    out_buf        *out, *err;
    int             data_open; /* a record's data is being printed            */
    xt_counts       c;
} xt_run;

/* The --format values, by TDEC_XTRACE_KIND_*. */
static const char *const xt_format_names[] = {"xtrace", "xtrace-snapshot", NULL};

/* The readings the options give (docs/xtrace.md). */
static struct {
    uint32_t vl, time_size;
    uint32_t snap_header; /* TDEC_XTRACE_HDR_*                                */
    int      iovec_data, big_endian;
    int      token_sizes; /* --token-size given: token_size[] applies         */
    uint32_t token_size[256];
} xt_opts;

/* --token-size=TOKEN:BYTES (pass tokens of unknown size through). */
static int xt_opt_token_size(const char *s)
{
    char tok[16];
    const char *colon = strchr(s, ':');
    uint32_t t, n;
    if (colon == NULL || (size_t)(colon - s) >= sizeof tok) return 0;
    memcpy(tok, s, (size_t)(colon - s));
    tok[colon - s] = '\0';
    if (!cli_opt_number(tok, &t) || t > 255 || !cli_opt_number(colon + 1, &n) || n == 0) return 0;
    xt_opts.token_size[t] = n;
    xt_opts.token_sizes = 1;
    return 1;
}

static int xt_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    const char *arg = argv[*i], *v;
    int ok;
    (void)a;
    (void)argc;
    (void)err;
    if ((v = cli_opt_value(arg, "--vl")) != NULL) {
        ok = cli_opt_number(v, &xt_opts.vl);
    } else if ((v = cli_opt_value(arg, "--time-size")) != NULL) {
        ok = cli_opt_number(v, &xt_opts.time_size);
    } else if ((v = cli_opt_value(arg, "--snap-header")) != NULL) {
        xt_opts.snap_header = strcmp(v, "yes") == 0  ? TDEC_XTRACE_HDR_PRESENT
                              : strcmp(v, "no") == 0 ? TDEC_XTRACE_HDR_ABSENT
                                                     : TDEC_XTRACE_HDR_AUTO;
        ok = strcmp(v, "yes") == 0 || strcmp(v, "no") == 0 || strcmp(v, "auto") == 0;
    } else if ((v = cli_opt_value(arg, "--token-size")) != NULL) {
        ok = xt_opt_token_size(v);
    } else if (strcmp(arg, "--iovec-data") == 0) {
        ok = xt_opts.iovec_data = 1;
    } else if (strcmp(arg, "--big-endian") == 0) {
        ok = xt_opts.big_endian = 1;
    } else {
        return CLI_OPT_NONE;
    }
    return ok ? CLI_OPT_TAKEN : CLI_OPT_USAGE;
}

/* The kind --format names (TDEC_XTRACE_KIND_*), or -1. */
static int xt_named_kind(const char *format)
{
    int k;
    for (k = 0; format != NULL && xt_format_names[k] != NULL; k++)
        if (strcmp(format, xt_format_names[k]) == 0) return k;
    return -1;
}

static cli_match xt_detect(const cli_args *a, const cli_probe *p)
{
    tdec_xtrace_name n;
    if (!p->opened) return CLI_NO;
    if (xt_named_kind(a->format) >= 0) return CLI_FORCED;
    return tdec_xtrace_parse_name(a->path, strlen(a->path), &n) == TDEC_OK ? CLI_YES : CLI_NO;
}

/* The config for `path` from its name and the options. Returns 0, or -1
   after a diagnostic. */
static int xt_config(xt_run *r, const char *path, int kind, tdec_xtrace_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->kind = (uint32_t)kind;
    if (xt_opts.big_endian) cfg->flags |= TDEC_XTRACE_F_BIG_ENDIAN;
    if (xt_opts.iovec_data) cfg->flags |= TDEC_XTRACE_F_IOVEC_DATA;
    cfg->time_size = xt_opts.time_size;
    cfg->vl = xt_opts.vl;
    cfg->snap_header = xt_opts.snap_header;
    cfg->token_size = xt_opts.token_sizes ? xt_opts.token_size : NULL;
    if (kind == TDEC_XTRACE_KIND_SNAPSHOT) {
        struct stat sb;
        if (stat(path, &sb) != 0) {
            cli_diag(r->err, "error", -1, path, strerror(errno));
            return -1;
        }
        cfg->file_size = (uint64_t)sb.st_size;
        if (cfg->vl == 0) { /* find it: the trailing VL field of the first snapshot */
            uint8_t *head = malloc(XT_DETECT_BYTES);
            int fd = open(path, O_RDONLY), has_header = 0;
            ssize_t got = head && fd >= 0 ? pread(fd, head, XT_DETECT_BYTES, 0) : -1;
            tdec_status st = got < 0 ? TDEC_E_ARG
                                     : tdec_xtrace_snap_detect(head, (size_t)got, cfg->file_size, cfg->snap_header,
                                                               xt_opts.big_endian, &cfg->vl, &has_header);
            if (fd >= 0) close(fd);
            free(head);
            if (st != TDEC_OK) {
                cli_diag(r->err, "error", -1, path,
                         st == TDEC_E_CORRUPT ? "the vector length is ambiguous: give it with --vl=BITS"
                                              : "cannot find the vector length (no VL 128..2048 fits the file "
                                                "size and the first snapshot's VL field): give --vl=BITS");
                return -1;
            }
            cfg->snap_header = has_header ? TDEC_XTRACE_HDR_PRESENT : TDEC_XTRACE_HDR_ABSENT;
        }
    }
    return 0;
}

/* ---- text ------------------------------------------------------------------ */

static void xt_hex64(out_buf *o, const char *label, uint64_t v)
{
    out_str(o, label);
    out_lit(o, "0x");
    out_hex(o, v);
}

/* Closes a line whose data bytes were being printed. */
static void xt_close_data(xt_run *r)
{
    if (!r->data_open) return;
    if (r->json) out_lit(r->out, "\"}\n");
    else out_char(r->out, '\n');
    r->data_open = 0;
}

static void xt_text_record(xt_run *r, const tdec_xtrace_item *it)
{
    const tdec_xtrace_record *x = &it->u.rec;
    out_buf *o = r->out;
    const char *reg = tdec_xtrace_reg_str(x->reg);
    switch (x->type) {
    case TDEC_XTRACE_REC_INST:
    case TDEC_XTRACE_REC_PCINST:
        out_lit_u64(o, "#", x->index);
        out_lit_u64(o, " EL", x->el);
        if (x->flags & TDEC_XTRACE_PC_KNOWN) xt_hex64(o, " pc=", x->pc);
        else out_lit(o, " pc=?");
        out_lit(o, " insn=");
        out_hexw(o, x->insn, 8);
        if (x->type == TDEC_XTRACE_REC_PCINST) out_lit(o, " (PCINST)");
        out_char(o, '\n');
        return;
    case TDEC_XTRACE_REC_LOAD:
    case TDEC_XTRACE_REC_STORE:
        out_str(o, x->type == TDEC_XTRACE_REC_LOAD ? "    LOAD  " : "    STORE ");
        xt_hex64(o, "addr=", x->addr);
        out_lit_u64(o, " size=", (uint64_t)1 << x->size_log2);
        if (x->data_len == 0) {
            xt_hex64(o, " value=", x->value);
            break;
        }
        out_lit(o, " data=");
        r->data_open = 1;
        return;
    case TDEC_XTRACE_REC_VAL:
        out_lit(o, "    VAL ");
        out_str(o, tdec_xtrace_val_str(x->val_kind));
        xt_hex64(o, " ", x->value);
        break;
    case TDEC_XTRACE_REC_ALLGPR:
        out_lit(o, "    ALLGPR");
        break;
    case TDEC_XTRACE_REC_MISC_FLAGS:
        xt_hex64(o, "    MISC_FLAGS ", x->value);
        break;
    case TDEC_XTRACE_REC_SYSCALL_VEC:
        out_lit_u64(o, "    SYSCALL_VEC n=", x->value);
        break;
    case TDEC_XTRACE_REC_IOVEC:
        xt_hex64(o, "      iovec base=", x->addr);
        out_lit_u64(o, " len=", x->value);
        if (x->data_len > 0) {
            out_lit(o, " data=");
            r->data_open = 1;
            return;
        }
        break;
    case TDEC_XTRACE_REC_TIME:
        out_lit_u64(o, "    TIME ", x->value);
        break;
    case TDEC_XTRACE_REC_UNKNOWN:
        out_lit(o, "    UNKNOWN token=0x");
        out_hex(o, x->token);
        out_lit_u64(o, " len=", x->data_len);
        if (x->data_len > 0) {
            out_lit(o, " data=");
            r->data_open = 1;
            return;
        }
        break;
    case TDEC_XTRACE_REC_REG:
        if (x->reg < 32u) { /* X0..X31: four to a line, 16 hex digits each */
            out_str(o, x->reg % 4u == 0 ? "      " : " ");
            out_str(o, reg);
            out_lit(o, "=");
            out_hexw(o, x->value, 16);
            if (x->reg % 4u == 3u) out_char(o, '\n');
            return;
        }
        out_lit(o, "      ");
        out_str(o, reg ? reg : "?");
        if (x->reg == TDEC_XTRACE_REG_VL) out_lit_u64(o, "=", x->value);
        else xt_hex64(o, "=", x->value);
        break;
    case TDEC_XTRACE_REC_VREG:
        out_lit(o, "      ");
        out_str(o, reg ? reg : "?");
        out_lit(o, "=");
        r->data_open = 1;
        return;
    case TDEC_XTRACE_REC_SNAP_HEADER:
        xt_hex64(o, "header magic=", x->addr);
        out_lit_u64(o, " point=", x->value2);
        out_lit_u64(o, " version=", x->value);
        out_lit_u64(o, " split=", x->snap_split);
        out_lit_u64(o, " stream=", x->snap_stream);
        out_lit_u64(o, " time=", x->snap_time);
        break;
    case TDEC_XTRACE_REC_SNAPSHOT:
        out_lit_u64(o, "snapshot #", x->index);
        out_lit_u64(o, " file_no=", x->addr);
        out_lit_u64(o, " index=", x->value);
        out_lit_u64(o, " user_insns=", x->value2);
        out_lit_u64(o, " total_insns=", x->value3);
        break;
    default:
        out_lit(o, "    ?");
        break;
    }
    out_char(o, '\n');
}

/* ---- JSON -------------------------------------------------------------------- */

static void xt_json_record(xt_run *r, const tdec_xtrace_item *it)
{
    const tdec_xtrace_record *x = &it->u.rec;
    out_buf *o = r->out;
    const char *reg = tdec_xtrace_reg_str(x->reg);
    out_json_open(o);
    out_json_str(o, "type", tdec_xtrace_type_str(x->type));
    out_json_u64(o, "offset", it->offset);
    if (x->token) out_json_u64(o, "token", x->token);
    if (x->flags & TDEC_XTRACE_HAS_INSN) {
        out_json_u64(o, "index", x->index);
        out_json_u64(o, "el", x->el);
        if (x->flags & TDEC_XTRACE_PC_KNOWN) {
            out_json_hex(o, "pc", x->pc);
        } else {
            out_json_key(o, "pc");
            out_lit(o, "null");
        }
    }
    switch (x->type) {
    case TDEC_XTRACE_REC_INST:
    case TDEC_XTRACE_REC_PCINST:
        out_json_hex(o, "insn", x->insn);
        break;
    case TDEC_XTRACE_REC_LOAD:
    case TDEC_XTRACE_REC_STORE:
        out_json_hex(o, "addr", x->addr);
        out_json_u64(o, "size", (uint64_t)1 << x->size_log2);
        if (x->data_len == 0) out_json_hex(o, "value", x->value);
        break;
    case TDEC_XTRACE_REC_VAL:
        out_json_str(o, "kind", tdec_xtrace_val_str(x->val_kind));
        out_json_hex(o, "value", x->value);
        break;
    case TDEC_XTRACE_REC_MISC_FLAGS:
        out_json_hex(o, "value", x->value);
        break;
    case TDEC_XTRACE_REC_SYSCALL_VEC:
        out_json_u64(o, "count", x->value);
        break;
    case TDEC_XTRACE_REC_IOVEC:
        out_json_hex(o, "base", x->addr);
        out_json_u64(o, "len", x->value);
        break;
    case TDEC_XTRACE_REC_TIME:
        out_json_u64(o, "value", x->value);
        break;
    case TDEC_XTRACE_REC_REG:
        out_json_str(o, "reg", reg ? reg : "?");
        if (x->reg == TDEC_XTRACE_REG_VL) out_json_u64(o, "value", x->value);
        else out_json_hex(o, "value", x->value);
        break;
    case TDEC_XTRACE_REC_VREG:
        out_json_str(o, "reg", reg ? reg : "?");
        break;
    case TDEC_XTRACE_REC_SNAP_HEADER:
        out_json_hex(o, "magic", x->addr);
        out_json_u64(o, "point", x->value2);
        out_json_u64(o, "version", x->value);
        out_json_u64(o, "split", x->snap_split);
        out_json_u64(o, "stream", x->snap_stream);
        out_json_u64(o, "time", x->snap_time);
        break;
    case TDEC_XTRACE_REC_SNAPSHOT:
        out_json_u64(o, "snapshot", x->index);
        out_json_u64(o, "file_no", x->addr);
        out_json_u64(o, "index_in_file", x->value);
        out_json_u64(o, "user_insns", x->value2);
        out_json_u64(o, "total_insns", x->value3);
        break;
    default:
        break;
    }
    if (x->data_len > 0) { /* the data follows as fragments: a hex string */
        out_json_u64(o, "data_len", x->data_len);
        out_json_key(o, "data");
        out_char(o, '"');
        r->data_open = 1;
        return;
    }
    out_json_close(o);
}

/* ---- counting (info) --------------------------------------------------------- */

static void xt_count(xt_counts *c, const tdec_xtrace_record *x)
{
    c->tokens++;
    switch (x->type) {
    case TDEC_XTRACE_REC_INST: c->insns++; break;
    case TDEC_XTRACE_REC_PCINST: c->insns++; c->pcinsts++; break;
    case TDEC_XTRACE_REC_LOAD: c->loads[x->size_log2 & 15u]++; break;
    case TDEC_XTRACE_REC_STORE: c->stores[x->size_log2 & 15u]++; break;
    case TDEC_XTRACE_REC_VAL: c->vals[x->val_kind < 6 ? x->val_kind : 0]++; break;
    case TDEC_XTRACE_REC_SYSCALL_VEC: c->syscall_vecs++; break;
    case TDEC_XTRACE_REC_ALLGPR: c->allgprs++; break;
    case TDEC_XTRACE_REC_MISC_FLAGS: c->misc_flags++; break;
    case TDEC_XTRACE_REC_TIME: c->times++; break;
    case TDEC_XTRACE_REC_UNKNOWN: c->unknowns++; break;
    case TDEC_XTRACE_REC_SNAPSHOT: c->snapshots++; break;
    default: c->tokens--; break; /* REG, VREG, IOVEC, header: parts, not tokens */
    }
}

/* ---- the decoding loop ------------------------------------------------------- */

/* Decodes one file: dump prints, info counts. Returns the exit status. */
static int xt_decode(xt_run *r, const char *path, const tdec_xtrace_config *cfg, cli_reader *in)
{
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_status st;
    size_t n;
    char msg[160];

    st = tdec_xtrace_init(&d, cfg);
    if (st == TDEC_E_ARG) {
        cli_diag(r->err, "error", -1, path, "bad options (--time-size 1..8, --vl 128..2048 by 128)");
        return 2;
    }
    while (st >= 0) {
        st = tdec_xtrace_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_FRAGMENT) {
                if (r->dump) out_hex_bytes(r->out, it.u.frag.data, it.u.frag.len);
                continue;
            }
            if (r->dump) {
                xt_close_data(r);
                if (r->json) xt_json_record(r, &it);
                else xt_text_record(r, &it);
            }
            xt_count(&r->c, &it.u.rec);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = cli_read(in);
        if (in->failed) {
            cli_diag(r->err, "error", -1, path, strerror(errno));
            return 2;
        }
        r->c.bytes += n;
        st = n ? tdec_xtrace_feed(&d, in->buf, n) : tdec_xtrace_finish(&d);
    }
    if (r->dump) xt_close_data(r);
    if (st == TDEC_END) return 0;
    out_flush(r->out);
    if (d.st.err_reason == TDEC_XTRACE_R_UNKNOWN)
        snprintf(msg, sizeof msg, "%s (token 0x%02x; --token-size=0x%02x:BYTES passes such tokens through)",
                 tdec_xtrace_reason_str(d.st.err_reason), d.bad_token, d.bad_token);
    else
        snprintf(msg, sizeof msg, "%s: %s", tdec_status_str(st), tdec_xtrace_reason_str(d.st.err_reason));
    cli_diag(r->err, "error", (int64_t)d.st.err_offset, path, msg);
    return 1;
}

/* The kind of `path`: from --format, else from its name. */
static int xt_kind(const cli_args *a, const char *path)
{
    tdec_xtrace_name n;
    int kind = xt_named_kind(a->format);
    if (kind >= 0) return kind;
    if (tdec_xtrace_parse_name(path, strlen(path), &n) == TDEC_OK) return (int)n.kind;
    return TDEC_XTRACE_KIND_INSN;
}

static void xt_print_summary(xt_run *r, const char *path, int kind, const tdec_xtrace_config *cfg)
{
    out_buf *o = r->out;
    const xt_counts *c = &r->c;
    unsigned k;
    out_str(o, path);
    out_lit_u64(o, ": ", c->bytes);
    out_lit(o, " bytes\n");
    if (kind == TDEC_XTRACE_KIND_SNAPSHOT) {
        out_lit_u64(o, "  snapshots: ", c->snapshots);
        out_lit_u64(o, "\n  vector length: ", cfg->vl);
        out_str(o, cfg->snap_header == TDEC_XTRACE_HDR_PRESENT ? " bits, with the 24-byte header\n"
                                                               : " bits, no header\n");
        return;
    }
    out_lit_u64(o, "  tokens: ", c->tokens);
    out_lit_u64(o, "\n  instructions: ", c->insns);
    out_lit_u64(o, " (PCINST ", c->pcinsts);
    out_lit(o, ")\n  memory accesses by size:");
    for (k = 0; k < 16; k++) {
        if (c->loads[k] == 0 && c->stores[k] == 0) continue;
        out_lit_u64(o, " ", (uint64_t)1 << k);
        out_lit_u64(o, "B: ", c->loads[k]);
        out_lit_u64(o, " loads/", c->stores[k]);
        out_lit(o, " stores;");
    }
    out_lit_u64(o, "\n  syscalls: ", c->vals[TDEC_XTRACE_VAL_SVCRET]);
    out_lit_u64(o, " returns (SVCRET), ", c->vals[TDEC_XTRACE_VAL_SVCARG]);
    out_lit_u64(o, " arguments (SVCARG), ", c->syscall_vecs);
    out_lit(o, " SYSCALL_VEC\n");
    out_lit_u64(o, "  other: STXR ", c->vals[TDEC_XTRACE_VAL_STXR]);
    out_lit_u64(o, ", MRS ", c->vals[TDEC_XTRACE_VAL_MRS]);
    out_lit_u64(o, ", DC ", c->vals[TDEC_XTRACE_VAL_DC]);
    out_lit_u64(o, ", TARGET_B ", c->vals[TDEC_XTRACE_VAL_TARGET_B]);
    out_lit_u64(o, ", ALLGPR ", c->allgprs);
    out_lit_u64(o, ", MISC_FLAGS ", c->misc_flags);
    out_lit_u64(o, ", TIME ", c->times);
    out_lit_u64(o, ", passed-through unknown tokens ", c->unknowns);
    out_char(o, '\n');
}

/* One file: dump it, or count it and print its summary. */
static int xt_file(xt_run *r, const cli_args *a, const char *path, cli_reader *in)
{
    tdec_xtrace_config cfg;
    int kind = xt_kind(a, path), rc;
    if (xt_config(r, path, kind, &cfg) != 0) return 2;
    memset(&r->c, 0, sizeof r->c);
    rc = xt_decode(r, path, &cfg, in);
    if (!r->dump) xt_print_summary(r, path, kind, &cfg);
    return rc;
}

static int xt_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    xt_run r;
    char partner[4096];
    cli_reader pin;
    int rc, prc;
    memset(&r, 0, sizeof r);
    r.dump = a->command == CLI_DUMP;
    r.json = r.dump && a->output == CLI_OUT_JSON;
    r.out = out;
    r.err = err;
    rc = xt_file(&r, a, a->path, in);
    if (r.dump || tdec_xtrace_pair_name(a->path, strlen(a->path), partner, sizeof partner) != TDEC_OK) return rc;
    /* info: the other file of the capture, when it is there. */
    memset(&pin, 0, sizeof pin);
    pin.buf = in->buf;
    pin.fd = open(partner, O_RDONLY);
    if (pin.fd < 0) {
        out_str(out, partner);
        out_lit(out, ": not found (the pair's other file)\n");
        return rc;
    }
    prc = xt_file(&r, a, partner, &pin);
    close(pin.fd);
    return rc ? rc : prc;
}

static const char xt_help[] =
    "  dump           the instruction stream or register snapshots as text\n"
    "  info           header fields and record counts\n"
    "  options        --format=xtrace|xtrace-snapshot, --vl=BITS,\n"
    "                 --snap-header=auto|yes|no, --time-size=N, --iovec-data,\n"
    "                 --big-endian, --token-size=TOKEN:BYTES (docs/xtrace.md)\n";

const cli_format cli_xtrace = {
    .name = "xtrace",
    .inputs = "xtrace files (by name or --format)",
    .dir = 0,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO),
    .help = xt_help,
    .format_names = xt_format_names,
    .detect = xt_detect,
    .parse_opt = xt_parse_opt,
    .run = xt_command,
};
