/* testlib.h - tiny helpers for tracedec's unit tests. Every check prints one
   line, "PASS name" or "FAIL name: detail"; tests/run.sh counts them. A check
   may make many assertions: the first failing one is its detail.

       tl_case c;
       tl_begin(&c, "xray header of %s", name);
       TL_EQI(&c, st, TDEC_END);
       TL_TRUE(&c, n == 3, "n = %d", n);
       tl_end(&c);                     prints the line
       ...
       return tl_exit_code();          non-zero if anything failed
   TL_TIMING=1 in the environment prints each case's CPU time on stderr.
   Also: configuration rows, file reading, and a check every format's unit
   test makes the same way, on what its header states: the sizes of its
   MEMORY section (TL_DEFINE_SIZEOF_TEST). The Ending rule of the CONTRACT
   is checked by the oracles on every decode (tests/lib/check_common.h). */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct tl_case {
    char name[160];
    char why[400];
    int  bad;
} tl_case;

static int tl_passed, tl_failed;

/* One decoder configuration a chunk-invariance test runs under: a tag for
   the case names, the decoder's flags and its max_fragment. */
typedef struct tl_cfg_row {
    const char *tag;
    uint32_t    flags, max_fragment;
} tl_cfg_row;

static void tl_begin(tl_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->name, sizeof c->name, fmt, ap);
    va_end(ap);
    c->why[0] = 0;
    c->bad = 0;
}

/* Records the first failure of a case; returns cond. */
static int tl_expect(tl_case *c, int cond, int line, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (cond || c->bad) return cond;
    c->bad = 1;
    n = snprintf(c->why, sizeof c->why, "line %d: ", line);
    va_start(ap, fmt);
    vsnprintf(c->why + n, sizeof c->why - (size_t)n, fmt, ap);
    va_end(ap);
    return cond;
}

#define TL_TRUE(c, cond, ...) tl_expect((c), (cond) != 0, __LINE__, __VA_ARGS__)
/* Each operand is evaluated once (they are often calls with effects). */
static int tl_eqi(tl_case *c, int line, const char *expr, long long a, long long b)
{
    return tl_expect(c, a == b, line, "%s = %lld, expected %lld", expr, a, b);
}
static int tl_equ(tl_case *c, int line, const char *expr, unsigned long long a, unsigned long long b)
{
    return tl_expect(c, a == b, line, "%s = %llu, expected %llu", expr, a, b);
}
#define TL_EQI(c, a, b) tl_eqi((c), __LINE__, #a, (long long)(a), (long long)(b))
#define TL_EQU(c, a, b) tl_equ((c), __LINE__, #a, (unsigned long long)(a), (unsigned long long)(b))

/* Prints the case's line; returns 1 if it passed. */
static int tl_end(tl_case *c)
{
    static clock_t t0;
    clock_t t = clock();
    if (getenv("TL_TIMING")) /* CPU seconds per case on stderr, to find slow ones */
        fprintf(stderr, "%6.2fs %s\n", (double)(t - t0) / CLOCKS_PER_SEC, c->name);
    t0 = t;
    if (c->bad) {
        printf("FAIL %s: %s\n", c->name, c->why);
        tl_failed++;
    } else {
        printf("PASS %s\n", c->name);
        tl_passed++;
    }
    fflush(stdout);
    return !c->bad;
}

static int tl_exit_code(void)
{
    return tl_failed ? 1 : 0;
}

/* TDEC_TEST_QUICK=N (N > 0) in the environment: tests multiply their split
   and prefix strides by N (pick one coprime to 8 and 16, e.g. 13), the same
   checks over fewer cuts, for slow hosts such as the big-endian run under
   qemu. 1 when unset. */
static inline size_t tl_quick(void)
{
    const char *s = getenv("TDEC_TEST_QUICK");
    return s && atoi(s) > 0 ? (size_t)atoi(s) : 1;
}

/* Reads a whole file into malloc'd memory (NUL-terminated for text use);
   NULL (and *len 0) if it cannot. */
static inline unsigned char *tl_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p;
    long n;
    *len = 0;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    p = (unsigned char *)malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) {
        p[n] = 0;
        *len = (size_t)n;
    }
    return p;
}

/* Where a test finds its data when it is given no directory: the first of
   the n directories that holds the file `marker` (such as an index), else
   the last one. */
static inline const char *tl_find_dir(const char *const *dirs, size_t n, const char *marker)
{
    char path[256];
    FILE *f;
    size_t i;
    for (i = 0; i + 1 < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dirs[i], marker);
        if ((f = fopen(path, "r")) != NULL) {
            fclose(f);
            return dirs[i];
        }
    }
    return dirs[n - 1];
}

/* The sizes a header's MEMORY section states for `type`, from its line
   "sizeof(TYPE) = N on LP64, M on ILP32 (Cortex-M)" (the header is read
   from the repository root, where tests run). Returns 1 with *lp64 and
   *ilp32 set, 0 when there is no such line. */
static inline int tl_doc_sizeof(const char *header, const char *type, unsigned long *lp64, unsigned long *ilp32)
{
    char key[160];
    const char *p;
    size_t len;
    int end = -1;
    unsigned char *text = tl_read_file(header, &len);
    if (text == NULL) return 0;
    snprintf(key, sizeof key, "sizeof(%s) = ", type);
    p = strstr((const char *)text, key);
    if (p) sscanf(p + strlen(key), "%lu on LP64, %lu on ILP32 (Cortex-M)%n", lp64, ilp32, &end);
    free(text);
    return end > 0;
}

/* TL_DEFINE_SIZEOF_TEST(T, header): defines tl_sizeof_T(), a case checking
   sizeof(T) against the header's MEMORY line: equal to the LP64 figure on
   LP64 hosts, at most that elsewhere (pointers and size_t shrink, nothing
   grows; i386 aligns uint64_t to 4 and is smaller than Cortex-M). The
   compile matrix checks the Cortex-M figure. */
#define TL_DEFINE_SIZEOF_TEST(T, header)                                                          \
    static void tl_sizeof_##T(void)                                                               \
    {                                                                                             \
        tl_case c;                                                                                \
        unsigned long lp64 = 0, ilp32 = 0;                                                        \
        tl_begin(&c, "sizeof(" #T ") as " header "'s MEMORY section states");                     \
        if (TL_TRUE(&c, tl_doc_sizeof(header, #T, &lp64, &ilp32), "no sizeof(" #T ") line") &&    \
            TL_TRUE(&c, ilp32 > 0 && ilp32 <= lp64, "ILP32 %lu above LP64 %lu", ilp32, lp64)) {   \
            if (sizeof(void *) == 8 && sizeof(long) == 8)                                         \
                TL_EQU(&c, sizeof(T), lp64);                                                      \
            else                                                                                  \
                TL_TRUE(&c, sizeof(T) <= lp64, "%zu above the LP64 figure %lu", sizeof(T), lp64); \
        }                                                                                         \
        tl_end(&c);                                                                               \
    }

#endif /* TESTLIB_H */
