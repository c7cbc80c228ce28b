/* convert.c - `tracedec convert` (llvm-xray 14 convert: --output-format=
   yaml|trace_event, --symbolize, --sort, --instr_map) and `dump --chrome`
   on XRay logs (the trace_event output). See convert.h. */
#include "tools/cli/xray/convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli/xray/densemap.h"
#include "tools/cli/xray/trace.h"
#include "tools/cli/xray/xray.h"

/* ---- YAML, as llvm::yaml::Output writes YAMLXRayTrace ------------------- */

/* llvm::yaml::needsQuotes: 0 plain, 1 single quotes, 2 double quotes. */
static int yaml_is_numeric(const char *s, size_t n)
{
    size_t i = 0, j;
    if (n == 0 || (n == 1 && (s[0] == '+' || s[0] == '-'))) return 0;
#define YAML_IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)
    if (YAML_IS(".nan") || YAML_IS(".NaN") || YAML_IS(".NAN")) return 1;
    if (s[0] == '-' || s[0] == '+') i = 1;
    if ((n - i == 4) && (!memcmp(s + i, ".inf", 4) || !memcmp(s + i, ".Inf", 4) || !memcmp(s + i, ".INF", 4)))
        return 1;
#undef YAML_IS
    if (n > 1 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
        const char *ok = s[1] == 'o' ? "01234567" : "0123456789abcdefABCDEF";
        if (n == 2) return 0;
        for (j = 2; j < n; j++)
            if (!strchr(ok, s[j])) return 0;
        return 1;
    }
    if (s[i] == '.' && (n - i == 1 || !(s[i + 1] >= '0' && s[i + 1] <= '9'))) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) return 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == n) return 1;
    if (s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == n) return 1;
    }
    if (s[i] != 'e' && s[i] != 'E') return 0;
    i++;
    if (i == n) return 0;
    if (s[i] == '+' || s[i] == '-') {
        if (++i == n) return 0;
    }
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    return i == n;
}

static int yaml_quoting(const char *s, size_t n)
{
    static const char indicators[] = "-?:\\,[]{}#&*!|>'\"%@`";
    int q = 0;
    size_t i;
    if (n == 0) return 1;
#define YAML_SPACE(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
    if (YAML_SPACE(s[0]) || YAML_SPACE(s[n - 1])) q = 1;
#undef YAML_SPACE
#define YAML_IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)
    if (YAML_IS("null") || YAML_IS("Null") || YAML_IS("NULL") || YAML_IS("~") || YAML_IS("true") ||
        YAML_IS("True") || YAML_IS("TRUE") || YAML_IS("false") || YAML_IS("False") || YAML_IS("FALSE"))
        q = 1;
#undef YAML_IS
    if (yaml_is_numeric(s, n)) q = 1;
    if (strchr(indicators, s[0]) && s[0] != '\0') q = 1;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
        switch (c) {
        case '_': case '-': case '^': case '.': case ',': case ' ': case '\t':
            continue;
        case '\n': case '\r': case 0x7F:
            return 2;
        default:
            if (c <= 0x1F || (c & 0x80)) return 2;
            q = 1;
        }
    }
    return q;
}

/* llvm's decodeUTF8 (YAMLParser.cpp): the code point at s and its length,
   length 0 when the bytes are no valid UTF-8. */
static size_t yaml_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n >= 2 && (s[0] & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3Fu);
        if (*cp >= 0x80) return 2;
    }
    if (n >= 3 && (s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3Fu);
        if (*cp >= 0x800 && (*cp < 0xD800 || *cp > 0xDFFF)) return 3;
    }
    if (n >= 4 && (s[0] & 0xF8) == 0xF0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
        (s[3] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (uint32_t)(s[2] & 0x3F) << 6 |
              (s[3] & 0x3Fu);
        if (*cp >= 0x10000 && *cp <= 0x10FFFF) return 4;
    }
    return 0;
}

/* "\x1F", "\u00AD", "\U0001F600": llvm's utohexstr is upper case. */
static void yaml_escape_cp(out_buf *o, uint32_t cp)
{
    static const char hex[] = "0123456789ABCDEF";
    unsigned digits = cp <= 0xFF ? 2 : cp <= 0xFFFF ? 4 : 8;
    out_char(o, '\\');
    out_char(o, digits == 2 ? 'x' : digits == 4 ? 'u' : 'U');
    while (digits-- > 0) out_char(o, hex[(cp >> (4 * digits)) & 15u]);
}

/* yaml::escape(S, EscapePrintable = false). Printable code points: all but
   the C0 and C1 controls (LLVM 14's table of non-printable code points also
   lists unassigned and format characters, which pass through here). An
   invalid UTF-8 sequence ends the string with U+FFFD, as in LLVM. */
static void yaml_escape(out_buf *o, const unsigned char *s, size_t n)
{
    size_t i, len;
    uint32_t cp;
    for (i = 0; i < n; i++) {
        unsigned char c = s[i];
        switch (c) {
        case '\\': out_lit(o, "\\\\"); continue;
        case '"': out_lit(o, "\\\""); continue;
        case 0: out_lit(o, "\\0"); continue;
        case 0x07: out_lit(o, "\\a"); continue;
        case 0x08: out_lit(o, "\\b"); continue;
        case 0x09: out_lit(o, "\\t"); continue;
        case 0x0A: out_lit(o, "\\n"); continue;
        case 0x0B: out_lit(o, "\\v"); continue;
        case 0x0C: out_lit(o, "\\f"); continue;
        case 0x0D: out_lit(o, "\\r"); continue;
        case 0x1B: out_lit(o, "\\e"); continue;
        default: break;
        }
        if (c < 0x20) {
            yaml_escape_cp(o, c);
            continue;
        }
        if (!(c & 0x80)) {
            out_char(o, (char)c);
            continue;
        }
        len = yaml_utf8(s + i, n - i, &cp);
        if (len == 0) {
            out_lit(o, "\xEF\xBF\xBD");
            return;
        }
        if (cp == 0x85) out_lit(o, "\\N");
        else if (cp == 0xA0) out_lit(o, "\\_");
        else if (cp == 0x2028) out_lit(o, "\\L");
        else if (cp == 0x2029) out_lit(o, "\\P");
        else if (cp <= 0x9F) yaml_escape_cp(o, cp);
        else out_mem(o, s + i, len);
        i += len - 1;
    }
}

/* Output::scalarString */
static void yaml_scalar(out_buf *o, const char *s, size_t n)
{
    size_t i, from = 0;
    int q = yaml_quoting(s, n);
    if (n == 0) {
        out_lit(o, "''");
        return;
    }
    if (q == 0) {
        out_mem(o, s, n);
        return;
    }
    if (q == 2) {
        out_char(o, '"');
        yaml_escape(o, (const unsigned char *)s, n);
        out_char(o, '"');
        return;
    }
    out_char(o, '\'');
    for (i = 0; i < n; i++) {
        if (s[i] != '\'') continue;
        out_mem(o, s + from, i + 1 - from); /* the quote, doubled */
        out_char(o, '\'');
        from = i + 1;
    }
    out_mem(o, s + from, n - from);
    out_char(o, '\'');
}

static void yaml_header(out_buf *o, const tdec_xray_header *h)
{
    out_lit_u64(o, "---\nheader:\n  version:         ", h->version);
    out_lit_u64(o, "\n  type:            ", h->file_type);
    out_lit(o, "\n  constant-tsc:    ");
    out_str(o, (h->flags & TDEC_XRAY_TSC_CONSTANT) ? "true" : "false");
    out_lit(o, "\n  nonstop-tsc:     ");
    out_str(o, (h->flags & TDEC_XRAY_TSC_NONSTOP) ? "true" : "false");
    out_lit_u64(o, "\n  cycle-frequency: ", h->cycle_frequency);
    out_char(o, '\n');
}

/* The kinds' names and lengths, for the hot line. */
static const struct {
    const char *text;
    size_t      len;
} yaml_kinds[] = {{"function-enter", 14},     {"function-exit", 13}, {"function-tail-exit", 18},
                  {"function-enter-arg", 18}, {"custom-event", 12},  {"typed-event", 11}};

static void yaml_record(out_buf *o, const xray_trace_record *r, const char *name, size_t name_len)
{
    size_t i;
    char *w = out_reserve(o, 64); /* 12 + 5 + 11 + 11 + 12 */
    w = fmt_u64(fmt_lit(w, "  - { type: "), r->record_type);
    w = fmt_i64(fmt_lit(w, ", func-id: "), r->fid);
    out_commit(o, fmt_lit(w, ", function: "));
    yaml_scalar(o, name, name_len);
    if (r->nargs > 0) {
        out_lit(o, ", args: [ ");
        for (i = 0; i < r->nargs; i++) {
            if (i > 0) out_lit(o, ", ");
            out_u64(o, r->args[i]);
        }
        out_lit(o, " ]");
    }
    w = out_reserve(o, 160); /* 7 + 5 + 10 + 10 + 11 + 10 + 8 + 18 + 7 + 20 + 8 */
    w = fmt_u64(fmt_lit(w, ", cpu: "), r->cpu);
    if (r->tid != 0) w = fmt_u64(fmt_lit(w, ", thread: "), r->tid);
    if (r->pid != 0) w = fmt_u64(fmt_lit(w, ", process: "), r->pid);
    w = fmt_mem(fmt_lit(w, ", kind: "), yaml_kinds[r->kind].text, yaml_kinds[r->kind].len);
    w = fmt_u64(fmt_lit(w, ", tsc: "), r->tsc);
    w = fmt_lit(w, ", data: ");
    if (r->data_len == 0) {
        out_commit(o, fmt_lit(w, "'' }\n"));
        return;
    }
    out_commit(o, w);
    yaml_scalar(o, (const char *)r->data, r->data_len);
    out_lit(o, " }\n");
}

/* ---- trace_event (Chrome), as exportAsChromeTraceEventFormat ------------ */

/* llvm-xray gives every distinct call path (the function ids from a root)
   one stack id, shared by all threads, numbered in order of first use
   (its per-thread tries linked across threads amount to that). The paths
   are kept here as one trie; a thread's state is its current node. */
typedef struct te_node {
    int32_t  fid;
    uint32_t parent; /* node id + 1; 0: a root */
} te_node;

typedef struct te_state {
    te_node    *nodes;
    size_t      nodes_cap;
    xray_keymap children; /* (parent, fid) -> node id                     */
    uint32_t   *cursor;   /* per thread: its node id + 1; 0: no open call */
    size_t      cursor_cap;
    xray_keymap threads;  /* tid -> thread                                */
} te_state;

/* The node of a thread's current call: where the thread's state is, or
   NULL when out of memory. */
static uint32_t *te_cursor(te_state *s, uint32_t tid)
{
    uint32_t i = xray_keymap_find(&s->threads, tid);
    if (i != UINT32_MAX) return &s->cursor[i];
    if (!xray_grow((void **)&s->cursor, s->threads.nkeys, &s->cursor_cap, sizeof *s->cursor) ||
        (i = xray_keymap_add(&s->threads, tid)) == UINT32_MAX)
        return NULL;
    s->cursor[i] = 0;
    return &s->cursor[i];
}

/* The node of path parent + fid, made when new: its id + 1, 0 when out of memory. */
static uint32_t te_node_of(te_state *s, uint32_t parent, int32_t fid)
{
    uint64_t key = (uint64_t)parent << 32 | (uint32_t)fid;
    uint32_t i = xray_keymap_find(&s->children, key);
    if (i != UINT32_MAX) return i + 1;
    if (!xray_grow((void **)&s->nodes, s->children.nkeys, &s->nodes_cap, sizeof *s->nodes) ||
        (i = xray_keymap_add(&s->children, key)) == UINT32_MAX)
        return 0;
    s->nodes[i].fid = fid;
    s->nodes[i].parent = parent;
    return i + 1;
}

static void te_name(out_buf *o, xray_names *names, int32_t fid)
{
    size_t len, i;
    const char *name = xray_names_get(names, fid, &len);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f) {
            out_json_chars(o, name, len); /* llvm-xray writes such names unescaped: no JSON */
            return;
        }
    }
    out_mem(o, name, len);
}

/* printf("%.*f", decimals, v) for a finite v >= 0 below 1e15 (decimals 3
   or 4), as glibc rounds it: the exact binary value, ties to even. Writes
   at most 21 bytes at w and returns their end, or NULL when v is out of
   that range: the caller uses snprintf. */
static char *te_fixed(char *w, double v, unsigned decimals)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    uint64_t m, q, scale = decimals == 4 ? 10000u : 1000u;
    u128 n, r, half;
    int e;
    if (!(v >= 0) || v >= 1e15) return NULL;
    m = (uint64_t)ldexp(frexp(v, &e), 53); /* v = m * 2^(e - 53) exactly */
    e -= 53;
    if (e >= 0) {
        q = (m << e) * scale; /* v < 1e15: no overflow */
    } else {
        if (e < -100) return NULL;
        n = (u128)m * scale;
        q = (uint64_t)(n >> -e);
        r = n - ((u128)q << -e);
        half = (u128)1 << (-e - 1);
        if (r > half || (r == half && (q & 1u))) q++;
    }
    w = fmt_u64(w, q / scale);
    *w++ = '.';
    return fmt_u64w(w, q % scale, decimals, '0');
#else
    (void)w;
    (void)v;
    (void)decimals;
    return NULL;
#endif
}

/* `{ "name" : "f", "ph" : "B", "tid" : "1", "pid" : "2", "ts" : "1.2345", "sf" : "0" }`;
   versions 1-2: "pid" : "1" and 3 decimals. */
static void te_event(out_buf *o, xray_names *names, const tdec_xray_header *h, int32_t fid, char ph,
                     const xray_trace_record *r, double us, uint32_t sf, int *first)
{
    char *w, *e;
    if (!*first) out_lit(o, ",\n");
    *first = 0;
    out_lit(o, "    { \"name\" : \"");
    te_name(o, names, fid);
    w = out_reserve(o, 160); /* 12 + 1 + 11 + 10 + 11 + 10 + 10 + 32 + 11 + 10 + 3 */
    w = fmt_lit(w, "\", \"ph\" : \"");
    *w++ = ph;
    w = fmt_u64(fmt_lit(w, "\", \"tid\" : \""), r->tid);
    if (h->version >= 3) w = fmt_u64(fmt_lit(w, "\", \"pid\" : \""), r->pid);
    else w = fmt_lit(w, "\", \"pid\" : \"1");
    w = fmt_lit(w, "\", \"ts\" : \"");
    if (isnan(us)) e = fmt_lit(w, "nan");
    else if (isinf(us)) e = us < 0 ? fmt_lit(w, "-INF") : fmt_lit(w, "INF");
    else if (!(e = te_fixed(w, us, h->version >= 3 ? 4 : 3))) /* llvm::write_double's 32-byte buffer */
        e = w + strlen((snprintf(w, 32, h->version >= 3 ? "%.4f" : "%.3f", us), w));
    e = fmt_u64(fmt_lit(e, "\", \"sf\" : \""), sf);
    out_commit(o, fmt_lit(e, "\" }"));
}

/* "stackFrames": one entry per stack id, in the order of llvm-xray's
   DenseMap<unsigned, ...> of them (ids inserted 0, 1, 2, ...). */
static int te_stack_frames(out_buf *o, const te_state *s, xray_names *names)
{
    xray_keymap ids = XRAY_KEYMAP(xray_hash_int);
    uint32_t i, pos = 0;
    int first = 1;
    for (i = 0; i < s->children.nkeys; i++)
        if (xray_keymap_add(&ids, i) == UINT32_MAX) {
            xray_keymap_free(&ids);
            return 0;
        }
    out_lit(o, "  \"stackFrames\": {");
    while ((i = xray_keymap_next(&ids, &pos)) != UINT32_MAX) {
        out_str(o, first ? "\n" : ",\n");
        first = 0;
        out_lit_u64(o, "    \"", i);
        out_lit(o, "\" : { \"name\" : \"");
        te_name(o, names, s->nodes[i].fid);
        out_char(o, '"');
        if (s->nodes[i].parent) {
            out_lit_u64(o, ", \"parent\": \"", s->nodes[i].parent - 1);
            out_char(o, '"');
        }
        out_lit(o, " }");
    }
    out_lit(o, "\n  }\n}\n");
    xray_keymap_free(&ids);
    return 1;
}

int xray_convert_trace_event(xray_trace *t, xray_names *names, out_buf *out, out_buf *err)
{
    const tdec_xray_header *h = xray_trace_header(t);
    te_state s = {NULL, 0, XRAY_KEYMAP(xray_hash_pair), NULL, 0, XRAY_KEYMAP(xray_hash_int)};
    const xray_trace_record *r;
    double per_tick = 1000000.0 / (double)h->cycle_frequency, us;
    uint32_t node, popped, *cur;
    int first = 1, failed = 0, rc;
    out_lit(out, "{\n  \"traceEvents\": [\n");
    while (!failed && (r = xray_trace_next(t)) != NULL) {
        if (r->kind == XRAY_CUSTOM_EVENT || r->kind == XRAY_TYPED_EVENT) continue;
        if (!(cur = te_cursor(&s, r->tid))) {
            failed = 1;
            break;
        }
        us = per_tick * (double)r->tsc;
        if (r->kind == XRAY_ENTER || r->kind == XRAY_ENTER_ARG) {
            if (!(node = te_node_of(&s, *cur, r->fid))) {
                failed = 1;
                break;
            }
            *cur = node;
            te_event(out, names, h, r->fid, 'B', r, us, node - 1, &first);
            continue;
        }
        /* an exit closes frames up to the one of its function, or all */
        while (*cur) {
            popped = *cur - 1;
            te_event(out, names, h, s.nodes[popped].fid, 'E', r, us, popped, &first);
            *cur = s.nodes[popped].parent;
            if (s.nodes[popped].fid == r->fid) break;
        }
    }
    out_lit(out, "\n  ],\n  \"displayTimeUnit\": \"ns\",\n");
    if (!failed && !te_stack_frames(out, &s, names)) failed = 1;
    if (failed) {
        out_lit(out, "  \"stackFrames\": {}\n}\n");
        cli_diag(err, "error", -1, "out of memory", NULL);
    }
    rc = failed ? 1 : xray_trace_status(t);
    free(s.nodes);
    free(s.cursor);
    xray_keymap_free(&s.children);
    xray_keymap_free(&s.threads);
    return rc;
}

/* ---- the command ------------------------------------------------------------ */

const char *xray_names_get(xray_names *n, int32_t fid, size_t *len)
{
    const char *name;
    uint64_t address;
    char *e = n->buf;
    if (n->symbolize && n->map && xray_instrmap_address(n->map, fid, &address)) {
        name = n->demangle ? xray_instrmap_name(n->map, fid) : xray_instrmap_symbol(n->map, fid);
        if (name) {
            *len = strlen(name);
            return name;
        }
        e = fmt_hex(fmt_lit(e, "@("), address);
        *e++ = ')';
    } else {
        if (n->symbolize) *e++ = '#';
        e = fmt_i64(e, fid);
    }
    *len = (size_t)(e - n->buf);
    return n->buf;
}

int xray_convert_yaml(xray_trace *t, xray_names *names, out_buf *out)
{
    const xray_trace_record *r;
    const char *name;
    size_t len;
    int any = 0;
    yaml_header(out, xray_trace_header(t));
    while ((r = xray_trace_next(t)) != NULL) {
        if (!any) out_lit(out, "records:\n");
        any = 1;
        name = xray_names_get(names, r->fid, &len);
        yaml_record(out, r, name, len);
    }
    if (!any) out_lit(out, "records:         []\n");
    out_lit(out, "...\n");
    return xray_trace_status(t);
}

/* ---- raw: llvm-xray's basic-mode ("v1") writer ------------------------------- */

static uint8_t *raw_put(uint8_t *w, uint64_t v, unsigned bytes)
{
    unsigned i;
    for (i = 0; i < bytes; i++) w[i] = (uint8_t)(v >> (8 * i));
    return w + bytes;
}

int xray_convert_raw(xray_trace *t, out_buf *out)
{
    const tdec_xray_header *h = xray_trace_header(t);
    const xray_trace_record *r;
    uint8_t buf[32], *w;
    /* the 32-byte header: the input's version and file type (also an FDR
       log's), the TSC flags, the cycle frequency, 16 zero bytes */
    memset(buf, 0, sizeof buf);
    w = raw_put(buf, h->version, 2);
    w = raw_put(w, h->file_type, 2);
    w = raw_put(w, ((h->flags & TDEC_XRAY_TSC_CONSTANT) ? 1u : 0u) | ((h->flags & TDEC_XRAY_TSC_NONSTOP) ? 2u : 0u), 4);
    raw_put(w, h->cycle_frequency, 8);
    out_mem(out, buf, sizeof buf);
    /* 32 bytes a function record: record type, CPU (8 bits), 0 enter (also
       with arguments, which are left out), 1 exit, 2 tail exit, function id,
       TSC, thread id, process id (version 3 on, else 0), 8 zero bytes;
       events are left out */
    while ((r = xray_trace_next(t)) != NULL) {
        if (r->kind == XRAY_CUSTOM_EVENT || r->kind == XRAY_TYPED_EVENT) continue;
        memset(buf, 0, sizeof buf);
        w = raw_put(buf, r->record_type, 2);
        w = raw_put(w, (uint8_t)r->cpu, 1);
        w = raw_put(w, r->kind == XRAY_EXIT ? 1u : r->kind == XRAY_TAIL_EXIT ? 2u : 0u, 1);
        w = raw_put(w, (uint32_t)r->fid, 4);
        w = raw_put(w, r->tsc, 8);
        w = raw_put(w, r->tid, 4);
        raw_put(w, h->version >= 3 ? r->pid : 0, 4);
        out_mem(out, buf, sizeof buf);
    }
    return xray_trace_status(t);
}

int xray_convert(const char *path, cli_reader *in, int chrome, out_buf *out, out_buf *err)
{
    xray_instrmap *map = NULL;
    xray_trace *t;
    xray_names names;
    int rc;
    if (xray_opt.instr_map && (rc = xray_instrmap_load(xray_opt.instr_map, &map, err)) != 0) return rc;
    if ((rc = xray_trace_open(in, path, chrome || xray_opt.sort, &t, err)) != 0) {
        xray_instrmap_free(map);
        return rc;
    }
    memset(&names, 0, sizeof names);
    names.map = map;
    /* dump --chrome names functions whenever it has a map */
    names.symbolize = xray_opt.symbolize || (chrome && map);
    names.demangle = xray_opt.demangle;
    if (chrome || xray_opt.output_format == XRAY_FORMAT_TRACE_EVENT)
        rc = xray_convert_trace_event(t, &names, out, err);
    else if (xray_opt.output_format == XRAY_FORMAT_YAML)
        rc = xray_convert_yaml(t, &names, out);
    else
        rc = xray_convert_raw(t, out);
    xray_trace_close(t);
    xray_instrmap_free(map);
    return rc;
}
