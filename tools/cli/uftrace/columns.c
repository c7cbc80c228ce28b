/* columns.c - the columns of `tracedec report` and `graph`; see columns.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/columns.h"

#include <stdio.h>
#include <string.h>

void uft_col_time(out_buf *o, uint64_t ns)
{
    static const char units[][3] = {"us", "ms", " s", " m", " h"};
    static const uint64_t limit[] = {1000, 1000, 1000, 60, 24, 0x7fffffff};
    uint64_t d = (int64_t)ns < 0 ? (uint64_t)0 - ns : ns, small = 0; /* uftrace's llabs() */
    unsigned idx;
    char buf[32];
    if (ns == 0) {
        out_lit(o, "          ");
        return;
    }
    for (idx = 0; idx < 5; idx++) {
        small = d % limit[idx];
        d /= limit[idx];
        if (d < limit[idx + 1]) break;
    }
    if (idx == 5) idx = 4;
    if (d > 999) d = small = 999; /* "for some error cases" */
    snprintf(buf, sizeof buf, "%3u.%03u %s", (unsigned)d, (unsigned)small, units[idx]);
    out_mem(o, buf, 10);
}

/* Does the -f word name column f? */
static int uft_field_is(const uft_field *f, const char *word, size_t len)
{
    return (strlen(f->name) == len && memcmp(f->name, word, len) == 0) ||
           (f->alias != NULL && strlen(f->alias) == len && memcmp(f->alias, word, len) == 0);
}

int uft_col_fields(const char *spec, const uft_field *table, size_t n, const int *defaults, int *shown,
                   out_buf *out)
{
    int on[UFT_MAX_FIELDS] = {0}, all = 0, count = 0;
    const char *p, *end;
    size_t i, len;
    if (spec == NULL) {
        for (i = 0; defaults[i] >= 0; i++) shown[count++] = defaults[i];
        return count;
    }
    if (strcmp(spec, "none") == 0) return 0;
    if (*spec == '+') {
        for (i = 0; defaults[i] >= 0; i++) on[defaults[i]] = 1;
        spec++;
    }
    for (p = spec;; p = end + 1) { /* comma-separated words (empty ones too) */
        end = strchr(p, ',');
        if (end == NULL) end = p + strlen(p);
        len = (size_t)(end - p);
        if (len == 3 && memcmp(p, "all", 3) == 0) {
            all = 1;
            break;
        }
        for (i = 0; i < n && !uft_field_is(&table[i], p, len); i++) continue;
        if (i == n) {
            out_lit(out, "uftrace: Unknown field name '");
            out_mem(out, p, len);
            out_lit(out, "'\nuftrace:   Possible fields are:");
            for (i = 0; i < n; i++) {
                out_char(out, ' ');
                out_str(out, table[i].name);
            }
            out_char(out, '\n');
            return -1;
        }
        on[i] = 1;
        if (*end == '\0') break;
    }
    for (i = 0; i < n; i++) /* in table order, as uftrace lists them */
        if (on[i] || all) shown[count++] = (int)i;
    return count;
}

const char *uft_col_name(uft_stream *s, uft_stask *t, uint64_t time, uint64_t addr, char *buf, size_t len,
                         uint64_t *size)
{
    const uft_sym *sym = NULL;
    if (uft_stream_session(s, t, time) != NULL) {
        sym = uft_find_sym(s->dir, t->t, time, addr);
        if (sym != NULL) {
            *size = sym->size;
            return sym->name;
        }
        if (addr == UFT_EV_SCHED_IN || addr == UFT_EV_SCHED_OUT || addr == UFT_EV_SCHEDULE) {
            *size = 1;
            return "linux:schedule";
        }
        if (addr == UFT_EV_SCHED_OUT_PRE || addr == UFT_EV_SCHEDULE_PRE) {
            *size = 1;
            return "linux:schedule (pre-empted)";
        }
    }
    snprintf(buf, len, "<%llx>", (unsigned long long)addr);
    return buf;
}
