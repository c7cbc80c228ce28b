/* cli.c - the CLI's shared helpers; see cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_read_first(cli_reader *r)
{
    size_t got = 0;
    ssize_t k;
    while (got < CLI_CHUNK) {
        k = read(r->fd, r->buf + got, CLI_CHUNK - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) break;
        got += (size_t)k;
    }
    r->pending = got;
    return 0;
}

size_t cli_read(cli_reader *r)
{
    size_t n;
    ssize_t k;
    if (r->pending > 0) {
        n = r->pending;
        r->pending = 0;
        return n;
    }
    for (;;) {
        k = read(r->fd, r->buf, CLI_CHUNK);
        if (k >= 0) return (size_t)k;
        if (errno != EINTR) {
            r->failed = 1;
            return 0;
        }
    }
}

void cli_diag(out_buf *err, const char *level, int64_t offset, const char *msg, const char *detail)
{
    out_str(err, "tracedec: ");
    out_str(err, level);
    out_str(err, ": ");
    if (offset >= 0) {
        out_str(err, "offset ");
        out_i64(err, offset);
        out_str(err, ": ");
    }
    out_str(err, msg);
    if (detail && *detail) {
        out_str(err, ": ");
        out_str(err, detail);
    }
    out_char(err, '\n');
    out_flush(err);
}

const char *cli_opt_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

int cli_opt_number(const char *s, uint32_t *v)
{
    char *end;
    unsigned long x;
    if (s == NULL || *s == '\0') return 0;
    errno = 0;
    x = strtoul(s, &end, 0);
    if (errno || *end != '\0' || x > UINT32_MAX) return 0;
    *v = (uint32_t)x;
    return 1;
}

uint64_t cli_get_uint(const uint8_t *p, unsigned n, int big_endian)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[big_endian ? i : n - 1 - i] << (8 * (n - 1 - i));
    return v;
}
