/* uftrace_hot.c - the hot loop tools/bench/uftrace.sh records with
   `uftrace record` (built with gcc -pg -O0: every call is recorded): each
   turn calls mid() and leaf(), two ENTRY and two EXIT records of 16 bytes.

     uftrace_hot N     N turns */
#include <stdlib.h>

int leaf(int x);
int mid(int x);

int leaf(int x) { return x ^ 0x5a; }
int mid(int x) { return leaf(x) + 1; }

int main(int argc, char **argv)
{
    long i, n = argc > 1 ? atol(argv[1]) : 1000;
    int s = 0;
    for (i = 0; i < n; i++) s += mid((int)i);
    return s == 7;
}
