/* common.h - helpers shared by the benchmark programs
   (tools/bench/NAME.c): a monotonic clock, whole-file reading and the byte-sum
   memory scan every decoder is compared with. Include-only (static
   functions); the includer defines _POSIX_C_SOURCE 199309L (or later)
   before any include, for clock_gettime. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_FN static __attribute__((unused))
#else
#define BENCH_FN static
#endif

/* Seconds of CLOCK_MONOTONIC. */
BENCH_FN double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file in a malloc'ed buffer (one spare byte), or NULL. */
BENCH_FN uint8_t *bench_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = (uint8_t *)malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int bench__cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0, n) (sorts v). */
BENCH_FN double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench__cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The memory-scan baseline: a byte sum the compiler can vectorise. */
BENCH_FN uint64_t bench_memsum(const uint8_t *buf, size_t len)
{
    uint64_t sum = 0;
    uint32_t part;
    size_t i = 0, j, n;
    while (i < len) {
        n = len - i < 65536 ? len - i : 65536; /* 32-bit partial sums cannot overflow */
        part = 0;
        for (j = 0; j < n; j++) part += buf[i + j];
        sum += part;
        i += n;
    }
    return sum;
}

#endif /* BENCH_COMMON_H */
