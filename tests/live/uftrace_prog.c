/* uftrace_prog.c - the program tests/live/uftrace.sh records with
   `uftrace record` (built with gcc -pg -O0 -g): nested calls, recursion,
   a loop, libc calls (strlen, snprintf, malloc/free, puts), a thread and
   a fork, string, integer and floating-point arguments and return values. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int fib(int n);
int leaf(int x);
int middle(int x);
int outer(int x);
size_t greet(const char *name, int times);
double scale(double v, double k);
const char *pick(int i);
long sum_loop(int n);
void *worker(void *arg);

int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int leaf(int x)
{
    return x * 3 + 1;
}

int middle(int x)
{
    return leaf(x) + leaf(x + 1);
}

int outer(int x)
{
    return middle(x) - middle(x - 1);
}

size_t greet(const char *name, int times)
{
    char buf[64];
    size_t n = strlen(name);
    snprintf(buf, sizeof buf, "hello %s x%d", name, times);
    return n + strlen(buf);
}

double scale(double v, double k)
{
    return v * k;
}

const char *pick(int i)
{
    static const char *const names[] = { "alpha", "beta", "gamma" };
    return names[i % 3];
}

long sum_loop(int n)
{
    long s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += leaf(i);
    return s;
}

void *worker(void *arg)
{
    int k = *(int *)arg;
    *(int *)arg = fib(k) + outer(k);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th;
    int targ = 6;
    char *p;
    pid_t pid;
    int i;
    long total = 0;
    (void)argv;

    total += fib(5);
    total += outer(argc + 2);
    for (i = 0; i < 3; i++)
        total += (long)greet(pick(i), i);
    total += (long)scale(1.5, (double)argc * 2.0);
    total += sum_loop(4);

    p = malloc(32);
    if (!p) return 1;
    strcpy(p, "tracedec");
    total += (long)greet(p, 7);
    free(p);

    if (pthread_create(&th, NULL, worker, &targ) != 0) return 1;
    pthread_join(th, NULL);
    total += targ;

    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        total = fib(4) + middle(2);
        exit(total > 0 ? 0 : 1);
    }
    if (pid > 0) waitpid(pid, NULL, 0);

    printf("total %ld\n", total);
    return 0;
}
