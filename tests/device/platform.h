/* platform.h - what a device program asks of its platform: start.c on the
   boards, host.c on the host. */
#ifndef TDEC_DEVICE_PLATFORM_H
#define TDEC_DEVICE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

void      dev_write(const char *s, size_t len);
void      dev_exit(int status);
uintptr_t dev_stack_paint(void);          /* paints the free stack; returns the sp */
size_t    dev_stack_used(uintptr_t from); /* stack used below `from` since         */
void     *memcpy(void *dst, const void *src, size_t n);
void     *memset(void *dst, int c, size_t n);

#endif /* TDEC_DEVICE_PLATFORM_H */
