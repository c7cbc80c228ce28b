/* a time filter at record time (-t) is kept in default.opts for replay;
   the time=0 trigger makes record keep short calls under mixed() */
#include <stdlib.h>
#include <unistd.h>

int quick(int n)
{
    return n + 1;
}

int slow(int n)
{
    usleep(100);
    return quick(n) * 2;
}

int mixed(int n)
{
    void *p = malloc(16);
    free(p);
    return quick(n) + slow(n);
}

int main(void)
{
    int i, s = 0;
    for (i = 0; i < 2; i++) s += mixed(i) + quick(i);
    return s == 0;
}
