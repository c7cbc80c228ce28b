/* host.c - the host side of the device programs: output on stdout, no
   stack painting (dev_stack_paint() returns 0: no '#' lines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/device/platform.h"

void dev_write(const char *s, size_t len)
{
    fwrite(s, 1, len, stdout);
}

void dev_exit(int status)
{
    exit(status);
}

uintptr_t dev_stack_paint(void)
{
    return 0;
}

size_t dev_stack_used(uintptr_t from)
{
    (void)from;
    return 0;
}
