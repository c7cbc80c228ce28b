/* xray.c - the CLI's XRay front end.

   dump (text): FDR logs print exactly what `llvm-xray fdr-dump` prints for
   them; where llvm-xray gives up (zero-size custom events, a v1 buffer tail
   of odd length, records cut by the runtime's typed-event bug) the right
   records go to stdout and a note with the byte offset to stderr. Basic
   logs, which fdr-dump cannot read, use the same style (docs/xray.md).
   dump --json: one object per record, payloads folded in as hex.
   info: header fields and record counts. */
#include "tools/cli/formats.h"
#include "tools/cli/xray/notes.h"
#include "tools/cli/xray/xray.h"

#define TDEC_XRAY_IMPLEMENTATION
#include "single/tdec_xray.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct xray_printer {
    int             dump, json; /* dump, and as JSON lines (else info)      */
    out_buf        *out, *err;
    tdec_xray_header hdr;
    uint32_t        pay_type;    /* record type whose payload is being printed */
    uint64_t        pay_offset;  /* that record's offset                       */
    uint64_t        pay_size;
    uint64_t        pay_seen;    /* its bytes seen so far                      */
    int             pay_open;    /* its line / object still waits for bytes    */
    int             pad_nonzero; /* a v1 buffer tail holds a non-zero byte     */
    uint64_t        count[TDEC_XRAY_REC_UNKNOWN + 1];
    uint64_t        gaps, gap_bytes;
    xray_notes      notes;
} xray_printer;

static const char *const xray_rec_names[TDEC_XRAY_REC_UNKNOWN + 1] = {
    "", "header", "function", "call-arg", "new-buffer", "end-of-buffer", "new-cpu",
    "tsc-wrap", "wall-time", "custom-event", "buffer-extents", "typed-event", "pid",
    "padding", "unknown",
};

/* The text of each function action, with its length for the hot path. */
typedef struct xray_name {
    const char *text;
    size_t      len;
} xray_name;

#define XRAY_NAME(s) {s, sizeof(s) - 1}
static const xray_name xray_action_names[TDEC_XRAY_ENTER_ARGS + 2] = {
    XRAY_NAME("Function Enter"), XRAY_NAME("Function Exit"), XRAY_NAME("Function Tail Exit"),
    XRAY_NAME("Function Enter With Arg"), XRAY_NAME("Function Unknown Action"),
};
#undef XRAY_NAME

static const xray_name *xray_action_name(uint32_t action)
{
    return &xray_action_names[action <= TDEC_XRAY_ENTER_ARGS ? action : TDEC_XRAY_ENTER_ARGS + 1];
}

static const char *xray_action_json(uint32_t action)
{
    static const char *const text[] = {"enter", "exit", "tail-exit", "enter-args"};
    return action <= TDEC_XRAY_ENTER_ARGS ? text[action] : "unknown";
}

/* ---- text, in llvm-xray fdr-dump's words -------------------------------- */

/* Ends the line of a custom or typed event after its data. */
static void xray_text_event_end(out_buf *o, uint32_t type)
{
    if (type == TDEC_XRAY_REC_CUSTOM_EVENT) out_lit(o, "'>\n");
    else out_lit(o, "'\n"); /* sic: fdr-dump prints no '>' after a typed event */
}

/* "<Function Enter: #7" and the like, shared by both text styles; returns
   the end of what it wrote into room reserved by the caller (< 64 bytes). */
static char *xray_fmt_function_head(char *w, const tdec_xray_record *r)
{
    const xray_name *name = xray_action_name(r->action);
    *w++ = '<';
    w = fmt_mem(w, name->text, name->len);
    w = fmt_lit(w, ": #");
    return fmt_u64(w, r->fid);
}

static void xray_text_basic(xray_printer *p, const tdec_xray_record *r)
{
    out_buf *o = p->out;
    switch (r->type) {
    case TDEC_XRAY_REC_HEADER:
        out_lit_u64(o, "<Basic Log: version = ", p->hdr.version);
        out_lit_u64(o, ", cycle frequency = ", p->hdr.cycle_frequency);
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_FUNCTION: {
        char *w = xray_fmt_function_head(out_reserve(o, 64), r);
        out_commit(o, fmt_u64(fmt_lit(w, " tsc = "), r->tsc));
        out_lit_u64(o, ", cpu = ", r->cpu);
        break;
    }
    case TDEC_XRAY_REC_CALL_ARG:
        out_lit_u64(o, "<Call Argument: #", r->fid);
        out_lit_u64(o, " data = ", r->value);
        out_lit(o, " (hex = 0x");
        out_hex(o, r->value);
        out_char(o, ')');
        break;
    default:
        out_lit_u64(o, "<Unknown Record: type = ", r->meta_kind);
        out_lit(o, ">\n");
        return;
    }
    out_lit_u64(o, ", thread = ", r->tid);
    out_lit_u64(o, ", process = ", r->pid);
    out_lit(o, ">\n");
}

static void xray_text_fdr(xray_printer *p, const tdec_xray_record *r)
{
    out_buf *o = p->out;
    switch (r->type) {
    case TDEC_XRAY_REC_HEADER:
        return;
    case TDEC_XRAY_REC_BUFFER_EXTENTS:
        out_lit_u64(o, "<Buffer: size = ", r->value);
        out_lit(o, " bytes>\n");
        return;
    case TDEC_XRAY_REC_NEW_BUFFER:
        out_lit(o, "<Thread ID: ");
        out_i64(o, (int32_t)r->tid);
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_WALLTIME:
        out_lit_u64(o, "<Wall Time: seconds = ", (uint64_t)r->wall_sec);
        out_char(o, '.');
        out_u64_padded(o, r->wall_usec, 6, '0');
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_PID:
        out_lit(o, "<PID: ");
        out_i64(o, (int32_t)r->pid);
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_NEW_CPU:
        out_lit_u64(o, "<CPU: id = ", r->cpu);
        out_lit_u64(o, ", tsc = ", r->tsc);
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_TSC_WRAP:
        out_lit_u64(o, "<TSC Wrap: base = ", r->tsc);
        out_lit(o, ">\n");
        return;
    case TDEC_XRAY_REC_FUNCTION: {
        /* the hot line: at most 1 + 23 + 3 + 10 + 10 + 20 + 2 bytes */
        char *w = xray_fmt_function_head(out_reserve(o, 80), r);
        w = fmt_i64(fmt_lit(w, " delta = +"), r->delta);
        out_commit(o, fmt_lit(w, ">\n"));
        return;
    }
    case TDEC_XRAY_REC_CALL_ARG:
        out_lit_u64(o, "<Call Argument: data = ", r->value);
        out_lit(o, " (hex = 0x");
        out_hex(o, r->value);
        out_lit(o, ")>\n");
        return;
    case TDEC_XRAY_REC_CUSTOM_EVENT:
        if (p->hdr.version >= 5) {
            out_lit(o, "<Custom Event: delta = +");
            out_i64(o, r->delta);
        } else {
            /* The marker of v1-v3 has no CPU: llvm-xray prints 0. */
            out_lit_u64(o, "<Custom Event: tsc = ", r->tsc);
            out_lit_u64(o, ", cpu = ", p->hdr.version >= 4 ? r->cpu : 0);
        }
        out_lit_u64(o, ", size = ", r->payload_size);
        out_lit(o, ", data = '");
        if (r->payload_size == 0) xray_text_event_end(o, r->type); /* no fragments end it */
        return;
    case TDEC_XRAY_REC_TYPED_EVENT:
        out_lit(o, "<Typed Event: delta = +");
        out_i64(o, r->delta);
        out_lit_u64(o, ", type = ", r->event_type);
        out_lit_u64(o, ", size = ", r->payload_size);
        out_lit(o, ", data = '");
        if (r->payload_size == 0) xray_text_event_end(o, r->type); /* no fragments end it */
        return;
    case TDEC_XRAY_REC_END_OF_BUFFER:
        out_lit(o, "<End of Buffer>\n");
        return;
    case TDEC_XRAY_REC_PADDING:
        return; /* printed when its bytes have been seen */
    default:
        out_lit_u64(o, "<Unknown Metadata: kind = ", r->meta_kind);
        out_lit(o, ">\n");
        return;
    }
}

/* The unparsed tail of a v1 buffer, its first `len` bytes (all of them, or
   those before the input's end). llvm-xray parses it as records: zero bytes
   come out as "Function Enter: #0" lines, one per complete 8 bytes, which
   we reproduce; anything else makes it lose sync, which we explain instead. */
static void xray_text_padding(xray_printer *p, uint64_t len)
{
    uint64_t i;
    if (xray_notes_padding(&p->notes, p->pay_offset, p->pay_size, len, p->pad_nonzero))
        for (i = 0; i < len / 8; i++) out_lit(p->out, "<Function Enter: #0 delta = +0>\n");
}

/* ---- JSON lines ----------------------------------------------------------- */

static void xray_json_record(xray_printer *p, const tdec_xray_record *r, uint64_t offset)
{
    out_buf *o = p->out;
    out_json_open(o);
    out_json_u64(o, "off", offset);
    out_json_str(o, "kind", xray_rec_names[r->type]);
    if (r->type == TDEC_XRAY_REC_HEADER) {
        out_json_str(o, "format", p->hdr.file_type == TDEC_XRAY_FDR ? "xray-fdr" : "xray-basic");
        out_json_u64(o, "version", p->hdr.version);
        out_json_u64(o, "cycle_frequency", p->hdr.cycle_frequency);
        out_json_bool(o, "constant_tsc", (p->hdr.flags & TDEC_XRAY_TSC_CONSTANT) != 0);
        out_json_bool(o, "nonstop_tsc", (p->hdr.flags & TDEC_XRAY_TSC_NONSTOP) != 0);
        out_json_u64(o, "buffer_size", p->hdr.buffer_size);
        out_json_close(o);
        return;
    }
    out_json_u64(o, "tid", r->tid);
    out_json_u64(o, "pid", r->pid);
    if (r->flags & TDEC_XRAY_RF_NO_CALL) out_json_null(o, "cpu"); /* the log has none */
    else out_json_u64(o, "cpu", r->cpu);
    switch (r->type) {
    case TDEC_XRAY_REC_FUNCTION:
        out_json_str(o, "action", xray_action_json(r->action));
        if (r->action > TDEC_XRAY_ENTER_ARGS) out_json_u64(o, "action_code", r->action);
        out_json_u64(o, "fid", r->fid);
        if (p->hdr.file_type == TDEC_XRAY_FDR) out_json_i64(o, "delta", r->delta);
        out_json_u64(o, "tsc", r->tsc);
        break;
    case TDEC_XRAY_REC_CALL_ARG:
        if (p->hdr.file_type == TDEC_XRAY_BASIC) {
            out_json_u64(o, "fid", r->fid);
            if (r->flags & TDEC_XRAY_RF_NO_CALL) out_json_null(o, "tsc");
            else out_json_u64(o, "tsc", r->tsc);
        }
        out_json_u64(o, "arg", r->value);
        break;
    case TDEC_XRAY_REC_NEW_CPU:
    case TDEC_XRAY_REC_TSC_WRAP:
        out_json_u64(o, "tsc", r->tsc);
        break;
    case TDEC_XRAY_REC_WALLTIME:
        out_json_i64(o, "sec", r->wall_sec);
        out_json_u64(o, "usec", r->wall_usec);
        break;
    case TDEC_XRAY_REC_BUFFER_EXTENTS:
        out_json_u64(o, "size", r->value);
        break;
    case TDEC_XRAY_REC_CUSTOM_EVENT:
    case TDEC_XRAY_REC_TYPED_EVENT:
        if (r->type == TDEC_XRAY_REC_TYPED_EVENT) out_json_u64(o, "type", r->event_type);
        if (r->type == TDEC_XRAY_REC_TYPED_EVENT || p->hdr.version >= 5) out_json_i64(o, "delta", r->delta);
        out_json_u64(o, "tsc", r->tsc);
        out_json_u64(o, "size", r->payload_size);
        out_json_key(o, "data_hex");
        out_char(o, '"');
        if (r->payload_size > 0) return; /* fragments follow */
        out_char(o, '"');
        break;
    case TDEC_XRAY_REC_PADDING:
        out_json_u64(o, "size", r->payload_size);
        return; /* all_zero follows once the bytes were seen */
    case TDEC_XRAY_REC_UNKNOWN:
        out_json_u64(o, "record_kind", r->meta_kind);
        out_json_key(o, "raw_hex");
        out_char(o, '"');
        out_hex_bytes(o, r->raw, r->raw_len);
        out_char(o, '"');
        break;
    default:
        break;
    }
    out_json_close(o);
}

/* ---- the loop -------------------------------------------------------------- */

static void xray_record(xray_printer *p, const tdec_xray_item *it)
{
    const tdec_xray_record *r = &it->u.rec;
    p->count[r->type]++;
    if (r->type == TDEC_XRAY_REC_PADDING || r->payload_size > 0) {
        p->pay_type = r->type;
        p->pay_offset = it->offset;
        p->pay_size = r->payload_size;
        p->pay_open = r->payload_size > 0;
        p->pay_seen = 0;
        p->pad_nonzero = 0;
    }
    if (!p->dump) return;
    if (p->json) xray_json_record(p, r, it->offset);
    else if (p->hdr.file_type == TDEC_XRAY_BASIC) xray_text_basic(p, r);
    else xray_text_fdr(p, r);
    if (!p->json) xray_notes_record(&p->notes, r, it->offset);
    if (r->type == TDEC_XRAY_REC_PADDING && r->payload_size == 0 && p->json) {
        out_json_bool(p->out, "all_zero", 1);
        out_json_close(p->out);
    }
}

static void xray_fragment(xray_printer *p, const tdec_frag *f)
{
    size_t i;
    if (f->flags & TDEC_FRAG_LAST) p->pay_open = 0;
    p->pay_seen += f->len;
    if (p->pay_type == TDEC_XRAY_REC_PADDING)
        for (i = 0; i < f->len && !p->pad_nonzero; i++) p->pad_nonzero = f->data[i] != 0;
    if (!p->dump) return;
    if (p->json) {
        if (p->pay_type != TDEC_XRAY_REC_PADDING) out_hex_bytes(p->out, f->data, f->len);
        if (f->flags & TDEC_FRAG_LAST) {
            if (p->pay_type == TDEC_XRAY_REC_PADDING) out_json_bool(p->out, "all_zero", !p->pad_nonzero);
            else out_char(p->out, '"');
            out_json_close(p->out);
        }
        return;
    }
    if (p->pay_type != TDEC_XRAY_REC_PADDING) out_mem(p->out, f->data, f->len);
    if (!(f->flags & TDEC_FRAG_LAST)) return;
    if (p->pay_type == TDEC_XRAY_REC_PADDING) xray_text_padding(p, p->pay_size);
    else xray_text_event_end(p->out, p->pay_type);
}

static void xray_gap(xray_printer *p, const tdec_xray_item *it)
{
    p->gaps++;
    p->gap_bytes += it->u.gap.len;
    if (p->json) {
        out_json_open(p->out);
        out_json_u64(p->out, "off", it->offset);
        out_json_str(p->out, "kind", "gap");
        out_json_u64(p->out, "len", it->u.gap.len);
        out_json_str(p->out, "reason", tdec_xray_reason_str(it->u.gap.reason));
        out_json_close(p->out);
    }
    xray_notes_gap(&p->notes, it);
}

static void xray_info(xray_printer *p)
{
    out_buf *o = p->out;
    uint32_t t;
    out_lit(o, "format:          ");
    out_str(o, p->hdr.file_type == TDEC_XRAY_FDR ? "xray fdr (flight data recorder)\n" : "xray basic\n");
    out_lit_u64(o, "version:         ", p->hdr.version);
    out_lit_u64(o, "\ncycle frequency: ", p->hdr.cycle_frequency);
    out_lit(o, " Hz\ntsc flags:       ");
    out_str(o, (p->hdr.flags & TDEC_XRAY_TSC_CONSTANT) ? "constant" : "-");
    out_str(o, (p->hdr.flags & TDEC_XRAY_TSC_NONSTOP) ? " nonstop\n" : " -\n");
    if (p->hdr.file_type == TDEC_XRAY_FDR) {
        out_lit_u64(o, "buffer size:     ", p->hdr.buffer_size);
        out_char(o, '\n');
    }
    out_lit(o, "records:\n");
    for (t = TDEC_XRAY_REC_FUNCTION; t <= TDEC_XRAY_REC_UNKNOWN; t++) {
        if (p->count[t] == 0) continue;
        out_lit(o, "  ");
        out_str(o, xray_rec_names[t]);
        out_lit_u64(o, ": ", p->count[t]);
        out_char(o, '\n');
    }
    out_lit_u64(o, "gaps:            ", p->gaps);
    out_lit_u64(o, " (", p->gap_bytes);
    out_lit(o, " bytes)\n");
}

/* An XRay log starts with its version (1-5) and file type (0 basic, 1
   FDR), 16-bit little-endian. A big-endian producer swaps both: that is
   XRay too, and the decoder says what is wrong with it. */
static int xray_header_plausible(uint64_t version, uint64_t type)
{
    return type <= TDEC_XRAY_FDR && version >= 1 && version <= 5;
}

static cli_match xray_detect(const cli_args *a, const cli_probe *p)
{
    uint8_t hdr[32]; /* what the header readers read */
    if (a->command == CLI_EXTRACT) return CLI_YES; /* a binary: extract says what is wrong with it */
    if (p->head_len < 4) return CLI_NO;
    memset(hdr, 0, sizeof hdr);
    memcpy(hdr, p->head, p->head_len < sizeof hdr ? p->head_len : sizeof hdr);
    if (xray_header_plausible(tdec_xray_header_version(hdr), tdec_xray_header_file_type(hdr))) return CLI_YES;
    return xray_header_plausible(cli_get_uint(hdr, 2, 1), cli_get_uint(hdr + 2, 2, 1)) ? CLI_YES : CLI_NO;
}

static int xray_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    static xray_printer p; /* large counters table; one run per process */
    tdec_xray_decoder d;
    tdec_xray_config cfg;
    tdec_xray_item it;
    tdec_status st;
    size_t n;

    memset(&p, 0, sizeof p);
    p.dump = a->command == CLI_DUMP;
    p.json = p.dump && a->output == CLI_OUT_JSON;
    p.out = p.notes.out = out;
    p.err = p.notes.err = err;
    memset(&cfg, 0, sizeof cfg);
    if (a->strict) cfg.flags |= TDEC_XRAY_F_STRICT;
    st = tdec_xray_init(&d, &cfg);
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_RECORD) {
                if (it.u.rec.type == TDEC_XRAY_REC_HEADER) p.hdr = p.notes.hdr = d.hdr;
                xray_record(&p, &it);
            } else if (it.kind == TDEC_ITEM_FRAGMENT) {
                xray_fragment(&p, &it.u.frag);
            } else {
                xray_gap(&p, &it);
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = cli_read(in);
        if (in->failed) break;
        st = n ? tdec_xray_feed(&d, in->buf, n) : tdec_xray_finish(&d);
    }
    if (!p.dump && d.st.err == TDEC_OK) xray_info(&p);
    if (p.dump && !p.json && st == TDEC_END && p.hdr.file_type == TDEC_XRAY_BASIC &&
        p.count[TDEC_XRAY_REC_FUNCTION] + p.count[TDEC_XRAY_REC_CALL_ARG] + p.count[TDEC_XRAY_REC_UNKNOWN] == 0)
        xray_notes_basic_empty(&p.notes, d.st.pos);
    out_flush(out);
    if (in->failed) {
        cli_diag(err, "error", -1, "read error", a->path);
        return 1;
    }
    if (st < 0) {
        if (p.pay_open && p.dump) {
            /* a cut payload's line is still open: end it, stdout stays line-based;
               a cut v1 buffer tail prints what llvm-xray prints of it */
            if (!p.json && p.pay_type == TDEC_XRAY_REC_PADDING) xray_text_padding(&p, p.pay_seen);
            else if (!p.json) out_char(out, '\n');
            else if (p.pay_type == TDEC_XRAY_REC_PADDING) out_json_close(out);
            else out_lit(out, "\"}\n");
            out_flush(out);
        }
        cli_diag(err, "error", (int64_t)d.st.err_offset, tdec_status_str(st),
                 tdec_xray_reason_str(d.st.err_reason));
        return 1;
    }
    return 0;
}

/* ---- the options of llvm-xray's commands (tools/cli/xray/xray.h) ---------- */

xray_options xray_opt = {.demangle = 1, .output_format = XRAY_FORMAT_RAW, .sort = 1};

/* arg is LLVM option `name` (-name or --name) or its one-letter alias
   (-x): where its "=VALUE" or its end is, else NULL. */
static const char *xray_opt_match(const char *arg, const char *name, const char *alias)
{
    const char *s;
    size_t n;
    if (arg[0] != '-') return NULL;
    s = arg + 1 + (arg[1] == '-');
    n = strcspn(s, "=");
    if ((strlen(name) == n && strncmp(s, name, n) == 0) ||
        (alias && s == arg + 1 && strlen(alias) == n && strncmp(s, alias, n) == 0))
        return s + n;
    return NULL;
}

/* argv[*i] is that option with a value: 1 and the value in *v (the next
   argument unless given as =VALUE; *i moved past it), -1 when the value is
   missing, 0 when it is another argument. */
static int xray_opt_value(int argc, char **argv, int *i, const char *name, const char *alias, const char **v)
{
    const char *end = xray_opt_match(argv[*i], name, alias);
    if (!end) return 0;
    if (*end == '=') {
        *v = end + 1;
        return 1;
    }
    if (*i + 1 >= argc) return -1;
    *v = argv[++*i];
    return 1;
}

/* A boolean option: -name, --name, -name=true|false|1|0 (or the alias):
   1 and *b set, -1 on a bad value, 0 when it is another argument. */
static int xray_opt_flag(const char *arg, const char *name, const char *alias, int *b)
{
    const char *end = xray_opt_match(arg, name, alias), *v;
    if (!end) return 0;
    v = *end == '=' ? end + 1 : "true";
    if (strcmp(v, "true") == 0 || strcmp(v, "TRUE") == 0 || strcmp(v, "True") == 0 || strcmp(v, "1") == 0) *b = 1;
    else if (strcmp(v, "false") == 0 || strcmp(v, "FALSE") == 0 || strcmp(v, "False") == 0 || strcmp(v, "0") == 0) *b = 0;
    else return -1;
    return 1;
}

/* v is one of the NULL-terminated names: 1 and its index in *k, else -1. */
static int xray_opt_choice(const char *v, const char *const *names, int *k)
{
    int n;
    for (n = 0; names[n]; n++) {
        if (strcmp(v, names[n]) == 0) {
            *k = n;
            return 1;
        }
    }
    return -1;
}

/* An int option's value (cl::opt<int>, decimal or 0x hex): 1 and *k, else -1. */
static int xray_opt_int(const char *v, int *k)
{
    uint32_t u;
    int negative = v[0] == '-';
    if (!cli_opt_number(v + negative, &u) || u > (negative ? 0x80000000u : 0x7fffffffu)) return -1;
    *k = negative ? (int)(0 - (int64_t)u) : (int)u;
    return 1;
}

/* --demangle and --no-demangle (extract, convert): llvm-xray 14 looks at
   where they are, not at their values: names stay mangled when
   --no-demangle comes after the last --demangle (or without one). */
static int xray_opt_demangle(const char *arg)
{
    int ignored, r;
    if ((r = xray_opt_flag(arg, "demangle", NULL, &ignored)) > 0) xray_opt.demangle = 1;
    else if (r == 0 && (r = xray_opt_flag(arg, "no-demangle", NULL, &ignored)) > 0) xray_opt.demangle = 0;
    return r;
}

/* A choice option: 1 and the index of its value in *k, -1 on a missing or
   unknown value, 0 when it is another argument. */
static int xray_opt_enum(int argc, char **argv, int *i, const char *name, const char *alias,
                         const char *const *names, int *k)
{
    const char *v;
    int r = xray_opt_value(argc, argv, i, name, alias, &v);
    return r > 0 ? xray_opt_choice(v, names, k) : r;
}

static int xray_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    static const char *const account_keys[] = {"funcid", "count", "min", "med", "90p", "99p", "max", "sum", "func", NULL};
    static const char *const orders[] = {"asc", "dsc", NULL};
    static const char *const account_formats[] = {"text", "csv", NULL};
    /* in the order of enum XRAY_FORMAT_*, XRAY_STACK_*, XRAY_AGGREGATE_* */
    static const char *const convert_formats[] = {"raw", "yaml", "trace_event", NULL};
    static const char *const stack_formats[] = {"human", "flame", NULL};
    static const char *const aggregations[] = {"time", "count", NULL};
    const char *arg = argv[*i], *v;
    int r = 0, k = 0;
    (void)err;
    switch (a->command) {
    case CLI_EXTRACT:
        if ((r = xray_opt_flag(arg, "symbolize", "s", &xray_opt.symbolize)) != 0) break;
        if ((r = xray_opt_demangle(arg)) != 0) break;
        r = xray_opt_value(argc, argv, i, "output", "o", &xray_opt.output);
        break;
    case CLI_DUMP: /* --chrome: convert's trace_event */
        if (a->output != CLI_OUT_CHROME) return CLI_OPT_NONE;
        r = xray_opt_value(argc, argv, i, "instr_map", "m", &xray_opt.instr_map);
        break;
    case CLI_CONVERT:
        if ((r = xray_opt_value(argc, argv, i, "instr_map", "m", &xray_opt.instr_map)) != 0) break;
        if ((r = xray_opt_value(argc, argv, i, "output", "o", &xray_opt.output)) != 0) break;
        if ((r = xray_opt_flag(arg, "symbolize", "y", &xray_opt.symbolize)) != 0) break;
        if ((r = xray_opt_flag(arg, "sort", "s", &xray_opt.sort)) != 0) break;
        if ((r = xray_opt_demangle(arg)) != 0) break;
        if ((r = xray_opt_enum(argc, argv, i, "output-format", "f", convert_formats, &k)) > 0)
            xray_opt.output_format = k;
        break;
    case CLI_STACK:
        if ((r = xray_opt_value(argc, argv, i, "instr_map", "m", &xray_opt.instr_map)) != 0) break;
        if ((r = xray_opt_flag(arg, "keep-going", "k", &xray_opt.keep_going)) != 0) break;
        if ((r = xray_opt_flag(arg, "per-thread-stacks", NULL, &xray_opt.per_thread_stacks)) != 0) break;
        if ((r = xray_opt_flag(arg, "aggregate-threads", NULL, &xray_opt.aggregate_threads)) != 0) break;
        if ((r = xray_opt_flag(arg, "all-stacks", NULL, &xray_opt.all_stacks)) != 0) break;
        if ((r = xray_opt_flag(arg, "all", NULL, &xray_opt.all_stacks)) != 0) break;
        if ((r = xray_opt_enum(argc, argv, i, "stack-format", NULL, stack_formats, &k)) != 0) {
            if (r > 0) xray_opt.stack_format = k;
            break;
        }
        if ((r = xray_opt_enum(argc, argv, i, "aggregation-type", NULL, aggregations, &k)) > 0) xray_opt.aggregation = k;
        break;
    case CLI_ACCOUNT:
        if ((r = xray_opt_value(argc, argv, i, "instr_map", "m", &xray_opt.instr_map)) != 0) break;
        if ((r = xray_opt_value(argc, argv, i, "output", "o", &xray_opt.output)) != 0) break;
        if ((r = xray_opt_flag(arg, "keep-going", "k", &xray_opt.keep_going)) != 0) break;
        if ((r = xray_opt_flag(arg, "deduce-sibling-calls", "d", &xray_opt.deduce_sibling_calls)) != 0) break;
        if ((r = xray_opt_flag(arg, "recursive-calls-only", NULL, &xray_opt.recursive_calls_only)) != 0) break;
        if ((r = xray_opt_enum(argc, argv, i, "sortorder", "r", orders, &xray_opt.sort_descending)) != 0) break;
        if ((r = xray_opt_enum(argc, argv, i, "format", "f", account_formats, &xray_opt.csv)) != 0) break;
        if ((r = xray_opt_enum(argc, argv, i, "sort", "s", account_keys, &k)) != 0) {
            if (r > 0) xray_opt.account_sort = k;
            break;
        }
        if ((r = xray_opt_value(argc, argv, i, "top", "p", &v)) > 0) r = xray_opt_int(v, &xray_opt.top);
        break;
    default:
        return CLI_OPT_NONE;
    }
    return r > 0 ? CLI_OPT_TAKEN : r < 0 ? CLI_OPT_USAGE : CLI_OPT_NONE;
}

static int xray_run_to(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    if (a->command == CLI_STACK) return xray_stack(a->path, in, out, err);
    if (a->command == CLI_ACCOUNT) return xray_account(a->path, in, out, err);
    if (a->command == CLI_EXTRACT) return xray_extract(a->path, out, err);
    if (a->command == CLI_CONVERT || a->output == CLI_OUT_CHROME)
        return xray_convert(a->path, in, a->command == CLI_DUMP, out, err);
    return xray_command(a, in, out, err);
}

/* The command, its output in the file of --output when given. */
static int xray_run(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    out_buf *file;
    int fd, rc;
    if (!xray_opt.output || strcmp(xray_opt.output, "-") == 0) return xray_run_to(a, in, out, err);
    fd = open(xray_opt.output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    file = fd >= 0 ? malloc(sizeof *file) : NULL;
    if (!file) {
        cli_diag(err, "error", -1, xray_opt.output, strerror(fd >= 0 ? ENOMEM : errno));
        if (fd >= 0) close(fd);
        return 1;
    }
    out_init(file, fd);
    rc = xray_run_to(a, in, file, err);
    out_flush(file);
    if (file->failed || close(fd) != 0) {
        cli_diag(err, "error", -1, xray_opt.output, "write error");
        rc = 1;
    }
    free(file);
    return rc;
}

static const char xray_help[] =
    "  dump           FDR logs: exactly llvm-xray fdr-dump's text; basic logs in\n"
    "                 the same style (docs/xray.md)\n"
    "  info           header fields and record counts\n"
    "  extract BINARY the instrumentation map of an XRay-instrumented ELF file\n"
    "                 (x86-64, AArch64) as llvm-xray extract's YAML;\n"
    "                 -s, --symbolize: function names; --no-demangle\n"
    "  convert        as llvm-xray convert: --output-format=raw|yaml|trace_event\n"
    "                 (-f; raw: llvm-xray's binary basic log, the default),\n"
    "                 --symbolize (-y), --sort=false (-s), --no-demangle\n"
    "  stack          as llvm-xray stack: the top 10 stacks by leaf time and count;\n"
    "                 --per-thread-stacks, --aggregate-threads, --keep-going (-k),\n"
    "                 --all-stacks --stack-format=flame, --aggregation-type=time|count\n"
    "  dump --chrome  convert --output-format=trace_event's JSON (names with -m)\n"
    "  account        per-function call statistics as llvm-xray account: -k,\n"
    "                 --keep-going; -d, --deduce-sibling-calls; -s, --sort=funcid|\n"
    "                 count|min|med|90p|99p|max|sum|func; -r, --sortorder=asc|dsc;\n"
    "                 -p, --top=N; -f, --format=text|csv; --recursive-calls-only\n"
    "  account, stack, convert: -m, --instr_map=BINARY names function ids\n"
    "  extract, convert, account: -o, --output=FILE writes the output to FILE\n";

const cli_format cli_xray = {
    .name = "xray",
    .inputs = "LLVM XRay logs",
    .dir = 0,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) | CLI_CMD(CLI_EXTRACT) | CLI_CMD(CLI_CONVERT) | CLI_CMD(CLI_STACK)
              | CLI_CMD(CLI_ACCOUNT),
    .chrome = 1,
    .help = xray_help,
    .format_names = NULL, /* the header tells it */
    .detect = xray_detect,
    .parse_opt = xray_parse_opt,
    .run = xray_run,
};
