/* Writes an ovni trace with real libovni 1.14: two looms, three processes,
   three threads each (one of them with an empty stream), user-set clocks
   shared between threads (equal-clock ties across streams), an unsorted
   OU[ ... OU] region, marks, affinity events, jumbo task types. */
#define _GNU_SOURCE
#include <ovni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t t0;
static int nevents = 1500;

static void emit(const char *mcv, uint64_t clock, const void *p, int n)
{
    struct ovni_ev ev;
    memset(&ev, 0, sizeof ev);
    ovni_ev_set_mcv(&ev, mcv);
    ovni_ev_set_clock(&ev, clock);
    if (n > 0) ovni_payload_add(&ev, (const uint8_t *)p, n);
    ovni_ev_emit(&ev);
}

struct targ { int idx, cpu, proc; };

static void *worker(void *arg)
{
    struct targ *a = arg;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    uint64_t c = t0 + (uint64_t)(a->idx % 2) * 50u; /* shared clock grid */
    int k;
    ovni_thread_init(tid);
    ovni_thread_require("ovni", "1.1.0");
    if (a->idx == 2) { /* initialised and freed without a flush: empty */
        ovni_thread_free();
        return NULL;
    }
    {
        int32_t cpu = a->cpu, creator = -1;
        uint64_t tag = (uint64_t)a->idx;
        uint8_t p[16];
        memcpy(p, &cpu, 4);
        memcpy(p + 4, &creator, 4);
        memcpy(p + 8, &tag, 8);
        emit("OHx", c, p, 16);
    }
    for (k = 0; k < nevents; k++) {
        c += 100;
        switch (k % 5) {
        case 0: emit("OB.", c, NULL, 0); break;
        case 1: { int32_t cpu = k % 4; emit("OAs", c, &cpu, 4); break; }
        case 2: { uint8_t p[12]; int64_t v = k; int32_t t = 1; memcpy(p, &v, 8); memcpy(p + 8, &t, 4); emit("OM=", c, p, 12); break; }
        case 3: emit("OHp", c, NULL, 0); break;
        default: emit("OHr", c, NULL, 0); break;
        }
        if (k == 700) { /* late-injected events, clocks in the past */
            emit("OU[", c + 1, NULL, 0);
            emit("KCO", c - 5000, NULL, 0);
            emit("KCI", c - 4900, NULL, 0);
            emit("OU]", c + 2, NULL, 0);
            c += 2;
        }
        if (k == 900 && a->idx == 0) {
            struct ovni_ev ev;
            char buf[64];
            uint32_t id = (uint32_t)(a->proc * 10 + 1);
            int n = snprintf(buf + 4, sizeof buf - 4, "task type of proc %d", a->proc);
            memcpy(buf, &id, 4);
            memset(&ev, 0, sizeof ev);
            ovni_ev_set_mcv(&ev, "VYc");
            c += 100;
            ovni_ev_set_clock(&ev, c);
            ovni_ev_jumbo_emit(&ev, (const uint8_t *)buf, (uint32_t)(4 + n + 1));
        }
    }
    emit("OHe", c + 100, NULL, 0);
    ovni_flush();
    ovni_thread_free();
    return NULL;
}

static void process(const char *loom, int proc, int rank, int nranks)
{
    pthread_t th[3];
    struct targ a[3];
    int i;
    ovni_version_check();
    ovni_proc_init(1, loom, getpid());
    ovni_thread_init(getpid());
    ovni_thread_require("ovni", "1.1.0");
    ovni_proc_set_rank(rank, nranks);
    for (i = 0; i < 4; i++) ovni_add_cpu(i, i + 4 * proc);
    emit("OB.", t0 + 100u * (uint64_t)(proc + 1), NULL, 0); /* ties with the workers' grid */
    for (i = 0; i < 3; i++) {
        a[i].idx = i;
        a[i].cpu = i;
        a[i].proc = proc;
        pthread_create(&th[i], NULL, worker, &a[i]);
    }
    for (i = 0; i < 3; i++) pthread_join(th[i], NULL);
    emit("OB.", t0 + 1000000u, NULL, 0);
    ovni_flush();
    ovni_thread_free();
    ovni_proc_fini();
}

int main(int argc, char **argv)
{
    static const char *looms[3] = {"hostA.0", "hostA.0", "hostB.1"};
    int p, status;
    if (argc > 1) nevents = atoi(argv[1]);
    t0 = ovni_clock_now();
    for (p = 0; p < 3; p++) {
        if (fork() == 0) {
            process(looms[p], p, p, 3);
            exit(0);
        }
        wait(&status);
    }
    return 0;
}
