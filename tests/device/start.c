/* start.c - the bare-metal side of the device programs (Cortex-M0/M4 under
   qemu-system-arm): the vector table, the reset handler, semihosting for
   output and exit status, the stack painting, and the memcpy/memset the
   library's code may call. No libc: built with -nostdlib -ffreestanding,
   linked with -lgcc for the 32-bit division and 64-bit shift helpers. */
#include "tests/device/platform.h"

/* From the linker script (tests/device/common.ld). */
extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_limit[], __stack_top[];

int main(void);
void dev_reset(void);
void dev_fault(void);

/* ARM semihosting: the operation in r0, its argument in r1, BKPT 0xAB. */
#define SYS_WRITE0 0x04
#define SYS_EXIT   0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUNTIME_ERROR    0x20023u

static void semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
}

void dev_write(const char *s, size_t len)
{
    char buf[65];
    size_t n;
    while (len > 0) {
        n = len < 64 ? len : 64;
        memcpy(buf, s, n);
        buf[n] = 0;
        semihost(SYS_WRITE0, buf);
        s += n;
        len -= n;
    }
}

/* QEMU ends with status 0 for an application exit, 1 for any other reason. */
void dev_exit(int status)
{
    semihost(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                                             : ADP_STOPPED_RUNTIME_ERROR));
    for (;;) {
    }
}

/* ---- the stack's high-water mark ---------------------------------------- */

#define DEV_PAINT 0xA5A5A5A5u

static uintptr_t dev_sp(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* Paints the free stack below the caller's frame (keeping 64 bytes for this
   function's own) and returns the caller's stack pointer. */
uintptr_t dev_stack_paint(void)
{
    uintptr_t sp = dev_sp();
    uint32_t *p;
    for (p = __stack_limit; (uintptr_t)(p + 16) < sp; p++) *p = DEV_PAINT;
    return sp;
}

/* Bytes of stack used below `from` (a dev_stack_paint() result) since. */
size_t dev_stack_used(uintptr_t from)
{
    const uint32_t *p = __stack_limit;
    while ((uintptr_t)p < from && *p == DEV_PAINT) p++;
    return (uintptr_t)p < from ? (size_t)(from - (uintptr_t)p) : 0;
}

/* ---- the library's memcpy and memset ------------------------------------- */

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n-- > 0) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    while (n-- > 0) *d++ = (unsigned char)c;
    return dst;
}

/* ---- reset and faults ----------------------------------------------------- */

void dev_reset(void)
{
    uint32_t *src = __data_load, *dst;
    for (dst = __data_start; dst < __data_end; dst++) *dst = *src++;
    for (dst = __bss_start; dst < __bss_end; dst++) *dst = 0;
    dev_exit(main());
}

void dev_fault(void)
{
    static const char msg[] = "# fault\n";
    dev_write(msg, sizeof msg - 1);
    dev_exit(1);
}

/* Initial stack pointer, reset, then NMI .. SysTick: every other exception
   is a fault here. */
typedef void (*dev_vector)(void);
__attribute__((section(".vectors"), used)) static const dev_vector dev_vectors[16] = {
    (dev_vector)(uintptr_t)__stack_top, dev_reset, dev_fault, dev_fault, dev_fault, dev_fault, dev_fault, 0, 0, 0, 0,
    dev_fault, dev_fault, 0, dev_fault, dev_fault};
