/* xray_prog.c - the program tests/live/xray.sh records with the XRay
   runtime of the clang on this machine: three threads, argument logging,
   custom events, recursion. The Makefile builds it as build/live/xray_prog
   with
       clang -O0 -fxray-instrument -fxray-instruction-threshold=1
   (-O0: clang 14 crashes lowering custom event sleds at -O1 and above).

     xray_prog fdr     FDR mode: starts and flushes the log itself
     xray_prog basic   basic mode: the runtime writes the log at exit

   The XRay control API ships only as C++ headers; these are its extern "C"
   entry points, declared here (the C++ enums are int-sized). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

#define LX_NOINST __attribute__((xray_never_instrument))
#define LX_NOINLINE __attribute__((noinline))
/* clang honours xray_log_args only together with xray_always_instrument. */
#define LX_ARG1 __attribute__((xray_always_instrument, xray_log_args(1)))

static volatile long lx_sink;
static int lx_fdr;

LX_NOINLINE static long lx_leaf(long x)
{
    lx_sink += x;
    return x ^ 0x5a;
}

LX_ARG1 LX_NOINLINE static long lx_logged(long x)
{
    return lx_leaf(x) + 1;
}

LX_NOINLINE static long lx_deep(int n)
{
    return n == 0 ? lx_leaf(n) : lx_deep(n - 1) + 1;
}

LX_NOINLINE static void lx_event(const char *text)
{
    __xray_customevent(text, strlen(text));
}

LX_NOINLINE static void *lx_worker(void *arg)
{
    long id = (long)arg, s = 0;
    char msg[48];
    int i;
    for (i = 0; i < 20; i++) {
        s += lx_logged(id * 1000 + i);
        if (i % 4 == 0) {
            snprintf(msg, sizeof msg, "thread %ld step %d", id, i);
            lx_event(msg);
        }
    }
    s += lx_deep(5 + (int)id);
    lx_sink += s;
    return NULL;
}

LX_NOINST int main(int argc, char **argv)
{
    enum { N = 3 };
    pthread_t t[N];
    long i;
    int st;
    lx_fdr = argc > 1 && strcmp(argv[1], "fdr") == 0;
    if (lx_fdr) {
        st = __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0 buffer_size=1024 buffer_max=256");
        if (st != 2) {
            fprintf(stderr, "live_xray_prog: xray-fdr init failed: %d\n", st);
            return 1;
        }
    }
    lx_event("main start");
    for (i = 0; i < N; i++) pthread_create(&t[i], NULL, lx_worker, (void *)(i + 1));
    lx_worker((void *)0);
    for (i = 0; i < N; i++) pthread_join(t[i], NULL);
    lx_event("main end");
    if (lx_fdr) {
        int f = __xray_log_finalize();
        int g = __xray_log_flushLog();
        if (f != 4 || g != 2) {
            fprintf(stderr, "live_xray_prog: finalize %d flush %d\n", f, g);
            return 1;
        }
    }
    printf("sink %ld\n", lx_sink);
    return 0;
}
