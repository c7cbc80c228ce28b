/* extract.c - `tracedec extract BINARY`: the instrumentation map as
   `llvm-xray extract` prints it, one YAML flow mapping per sled in section
   order; with --symbolize each function's name (llvm-xray's "@(hex
   address)" where the symbol table has none), demangled unless
   --no-demangle. Scalars are quoted by LLVM's YAML writer's rules. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/xray/xray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli/cli.h"
#include "tools/cli/xray/instrmap.h"

#define KIND(s) {s, sizeof(s) - 1}
static const struct {
    const char *text;
    size_t      len;
} extract_kinds[] = {KIND("function-enter"), KIND("function-exit"), KIND("tail-exit"), KIND("log-args-enter"),
                     KIND("custom-event")};
#undef KIND

/* YAML 1.2 core schema numbers, as LLVM's yaml::isNumeric tells them. */
static size_t skip_digits(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    return i;
}

static int yaml_numeric(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || (n == 1 && (s[0] == '+' || s[0] == '-'))) return 0;
    if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0) return 1;
    if (n > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x'))
        return strspn(s + 2, s[1] == 'o' ? "01234567" : "0123456789abcdefABCDEF") == n - 2;
    if (n == 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) return 0;
    if (s[0] == '-' || s[0] == '+') i = 1;
    if (strcmp(s + i, ".inf") == 0 || strcmp(s + i, ".Inf") == 0 || strcmp(s + i, ".INF") == 0) return 1;
    if (s[i] == '.' && (i + 1 == n || s[i + 1] < '0' || s[i + 1] > '9')) return 0;
    if (s[i] == 'e' || s[i] == 'E') return 0;
    i = skip_digits(s, i, n);
    if (i == n) return 1;
    if (s[i] == '.') {
        i = skip_digits(s, i + 1, n);
        if (i == n) return 1;
    }
    if (s[i] != 'e' && s[i] != 'E') return 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    return i < n && skip_digits(s, i, n) == n;
}

enum { YAML_PLAIN, YAML_SINGLE, YAML_DOUBLE };

/* LLVM's yaml::needsQuotes. */
static int yaml_quoting(const char *s)
{
    static const char *const words[] = {"null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE"};
    size_t n = strlen(s), i;
    int q = YAML_PLAIN;
    if (n == 0) return YAML_SINGLE;
    if (strchr(" \t\n\v\f\r", s[0]) || strchr(" \t\n\v\f\r", s[n - 1]) || strchr("-?:\\,[]{}#&*!|>'\"%@`", s[0]) ||
        yaml_numeric(s, n))
        q = YAML_SINGLE;
    for (i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(s, words[i]) == 0) q = YAML_SINGLE;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || strchr("_-^., \t", c))
            continue;
        if (c == 0x7f || c < 0x20 || c >= 0x80) {
            if (c != '\n' && c != '\r') return YAML_DOUBLE;
        }
        q = YAML_SINGLE;
    }
    return q;
}

/* The length of the UTF-8 sequence at s (1-4), or 0 when it is not valid. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0, i;
    uint32_t cp;
    if (len == 0 || s[0] > 0xf4 || len > n) return 0;
    cp = s[0] & (0x7fu >> len);
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* LLVM's yaml::escape for a double-quoted scalar (printable characters as
   they are; an invalid UTF-8 sequence ends the text with U+FFFD). */
static void yaml_escaped(out_buf *o, const char *s)
{
    static const char from[] = "\\\"\a\b\t\n\v\f\r\033", to[] = "\\\"abtnvfre";
    size_t n = strlen(s), i, len;
    for (i = 0; i < n; i += len) {
        unsigned char c = (unsigned char)s[i];
        const char *e = c ? strchr(from, c) : NULL;
        len = 1;
        if (e) {
            out_char(o, '\\');
            out_char(o, to[e - from]);
        } else if (c < 0x20) {
            out_lit(o, "\\x");
            out_hexw(o, c, 2);
        } else if (c < 0x80) {
            out_char(o, (char)c);
        } else if ((len = utf8_length((const unsigned char *)s + i, n - i)) == 0) {
            out_lit(o, "\xef\xbf\xbd");
            return;
        } else if (len == 2 && c == 0xc2 && ((unsigned char)s[i + 1] == 0x85 || (unsigned char)s[i + 1] == 0xa0)) {
            out_lit(o, "\\");
            out_char(o, (unsigned char)s[i + 1] == 0x85 ? 'N' : '_');
        } else if (len == 3 && c == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
                   ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9)) {
            out_lit(o, "\\");
            out_char(o, (unsigned char)s[i + 2] == 0xa8 ? 'L' : 'P');
        } else {
            out_mem(o, s + i, len);
        }
    }
}

/* A string scalar as LLVM's YAML writer prints it. */
static void yaml_string(out_buf *o, const char *s)
{
    int q = yaml_quoting(s);
    if (*s == '\0') {
        out_lit(o, "''");
        return;
    }
    if (q == YAML_PLAIN) {
        out_str(o, s);
    } else if (q == YAML_DOUBLE) {
        out_char(o, '"');
        yaml_escaped(o, s);
        out_char(o, '"');
    } else {
        out_char(o, '\'');
        for (; *s; s++) {
            if (*s == '\'') out_char(o, '\'');
            out_char(o, *s);
        }
        out_char(o, '\'');
    }
}

/* 0x and upper-case hex: LLVM's Hex64. */
static void yaml_hex(out_buf *o, uint64_t v)
{
    char buf[18], *p = buf + sizeof buf;
    do {
        *--p = "0123456789ABCDEF"[v & 15];
        v >>= 4;
    } while (v);
    *--p = 'x';
    *--p = '0';
    out_mem(o, p, (size_t)(buf + sizeof buf - p));
}

/* The YAML of the map at path on out. */
int xray_extract(const char *path, out_buf *out, out_buf *err)
{
    xray_instrmap *m;
    const xray_sled *sleds;
    size_t n, i;
    uint64_t address;
    int32_t named_fid = 0; /* the function whose quoted name is in `named` */
    out_buf *named;
    const char *long_name = NULL;
    char why[256], msg[64 + 4096], fallback[32];
    if (xray_instrmap_open(path, &m, why, sizeof why) != 0) {
        snprintf(msg, sizeof msg, "Cannot extract instrumentation map from '%s'", path);
        cli_diag(err, "error", -1, msg, why);
        return 1;
    }
    if (xray_opt.symbolize && xray_instrmap_symbol_error(m)) { /* llvm-xray aborts, printing nothing */
        snprintf(msg, sizeof msg, "Cannot symbolize the functions of '%s'", path);
        cli_diag(err, "error", -1, msg, xray_instrmap_symbol_error(m));
        xray_instrmap_free(m);
        return 1;
    }
    n = xray_instrmap_sleds(m, &sleds);
    named = calloc(1, sizeof *named);
    if (!named) {
        cli_diag(err, "error", -1, path, "out of memory");
        xray_instrmap_free(m);
        return 1;
    }
    out_init(named, -1);
    out_lit(out, "---\n");
    if (n == 0) out_lit(out, "[]\n");
    for (i = 0; i < n; i++) {
        const xray_sled *s = &sleds[i];
        int32_t fid = xray_instrmap_fid(m, s->function);
        out_lit(out, "- { id: ");
        out_i64(out, fid);
        out_lit(out, ", address: ");
        yaml_hex(out, s->address);
        out_lit(out, ", function: ");
        yaml_hex(out, s->function);
        out_lit(out, ", kind: ");
        out_mem(out, extract_kinds[s->kind].text, extract_kinds[s->kind].len);
        if (s->always_instrument) out_lit(out, ", always-instrument: true, function-name: ");
        else out_lit(out, ", always-instrument: false, function-name: ");
        /* a function's sleds come together: its name is quoted once, into a
           buffer that is never flushed (a name quotes to at most 4 times its
           length; a longer one is quoted for each sled) */
        if (i == 0 || fid != named_fid) {
            const char *name = "";
            if (xray_opt.symbolize) {
                name = xray_opt.demangle ? xray_instrmap_name(m, fid) : xray_instrmap_symbol(m, fid);
                if (!name && xray_instrmap_address(m, fid, &address)) {
                    snprintf(fallback, sizeof fallback, "@(%llx)", (unsigned long long)address);
                    name = fallback;
                }
            }
            named->len = 0;
            named_fid = fid;
            long_name = strlen(name) >= OUT_BUF_SIZE / 4 ? name : NULL;
            if (!long_name) yaml_string(named, name);
        }
        if (long_name) yaml_string(out, long_name);
        else out_mem(out, named->buf, named->len);
        if (s->version != 0) out_lit_u64(out, ", version: ", s->version); /* an optional key, 0 by default */
        out_lit(out, " }\n");
    }
    out_lit(out, "...\n");
    free(named);
    xray_instrmap_free(m);
    return 0;
}
