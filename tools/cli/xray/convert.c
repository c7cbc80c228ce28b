/* convert.c - `tracedec convert` (llvm-xray 14 convert: --output-format=
   yaml|trace_event, --symbolize, --sort, --instr_map) and `dump --chrome`
   on XRay logs (the trace_event output). See convert.h. */
#include "tools/cli/xray/convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli/xray/trace.h"

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

static const char *const yaml_kinds[] = {"function-enter",    "function-exit", "function-tail-exit",
                                         "function-enter-arg", "custom-event",  "typed-event"};

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

static void yaml_record(out_buf *o, const xray_trace_record *r, const char *name, size_t name_len)
{
    size_t i;
    out_lit_u64(o, "  - { type: ", r->record_type);
    out_lit(o, ", func-id: ");
    out_i64(o, r->fid);
    out_lit(o, ", function: ");
    yaml_scalar(o, name, name_len);
    if (r->nargs > 0) {
        out_lit(o, ", args: [ ");
        for (i = 0; i < r->nargs; i++) {
            if (i > 0) out_lit(o, ", ");
            out_u64(o, r->args[i]);
        }
        out_lit(o, " ]");
    }
    out_lit_u64(o, ", cpu: ", r->cpu);
    if (r->tid != 0) out_lit_u64(o, ", thread: ", r->tid);
    if (r->pid != 0) out_lit_u64(o, ", process: ", r->pid);
    out_lit(o, ", kind: ");
    out_str(o, yaml_kinds[r->kind]);
    out_lit_u64(o, ", tsc: ", r->tsc);
    out_lit(o, ", data: ");
    yaml_scalar(o, (const char *)r->data, r->data_len);
    out_lit(o, " }\n");
}

/* ---- the command ------------------------------------------------------------ */

const char *xray_names_get(xray_names *n, int32_t fid, size_t *len)
{
    char *e = n->buf;
    if (n->symbolize) *e++ = '#'; /* no map: every id is unknown */
    if (fid < 0) {
        *e++ = '-';
        e = fmt_u64(e, (uint64_t)0 - (uint64_t)(int64_t)fid);
    } else {
        e = fmt_u64(e, (uint64_t)fid);
    }
    *len = (size_t)(e - n->buf);
    return n->buf;
}

int xray_convert_yaml(xray_trace *t, xray_names *names, out_buf *out)
{
    xray_trace_record r;
    const char *name;
    size_t len;
    int any = 0;
    yaml_header(out, xray_trace_header(t));
    while (xray_trace_next(t, &r)) {
        if (!any) out_lit(out, "records:\n");
        any = 1;
        name = xray_names_get(names, r.fid, &len);
        yaml_record(out, &r, name, len);
    }
    if (!any) out_lit(out, "records:         []\n");
    out_lit(out, "...\n");
    return xray_trace_status(t);
}
