/* device.h - what every device program shares: output, the item digest and
   the ring-buffer decode loop. A program includes its tracedec header (the
   declarations; the implementation is a TU of its own, tests/device/lib.c),
   then this file. The same program is built for the boards (start.c: the
   vector table, semihosting, stack painting) and for the host (host.c), and
   both print the same lines for the same traces:
     T name length            a trace starts (name: the program's)
     I index kind offset hash an item: kind, stream offset and an FNV-1a
                              hash of its fields (fragment bytes included)
     E status items pos       the decode ended: final status, items, where
   Numbers are hex. Lines starting with '#' are the board's alone (stack
   high-water marks) and are left out of the comparison. */
#ifndef TDEC_DEVICE_H
#define TDEC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "tests/device/platform.h"

/* A trace in the image: name[] .. name_end[], the file's bytes, assembled
   in (.incbin); DEV_TRACE_CUT: its first `bytes` (a stream cut where an
   item starts, to fit the Cortex-M0's flash). The Makefile reads the paths
   from these lines. */
#define DEV_TRACE_CUT(name, path, bytes)                                                                  \
    extern const uint8_t name[], name##_end[];                                                            \
    __asm__(".pushsection .rodata\n.balign 8\n.global " #name "\n" #name ":\n.incbin \"" path "\"" bytes   \
            "\n.global " #name "_end\n" #name "_end:\n.byte 0\n.popsection\n")
#define DEV_TRACE(name, path) DEV_TRACE_CUT(name, path, "")
#define DEV_LEN(name) ((size_t)(name##_end - name))

/* ---- output: one line at a time, from a static buffer ---------------------- */

static char   dev_line[128];
static size_t dev_line_len;

static void dev_str(const char *s)
{
    while (*s && dev_line_len < sizeof dev_line - 1) dev_line[dev_line_len++] = *s++;
}

static void dev_hex(uint64_t v)
{
    char tmp[16];
    int n = 0;
    dev_str(" ");
    do {
        tmp[n++] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    } while (v != 0);
    while (n > 0 && dev_line_len < sizeof dev_line - 1) dev_line[dev_line_len++] = tmp[--n];
}

static void dev_end_line(void)
{
    dev_line[dev_line_len++] = '\n';
    dev_write(dev_line, dev_line_len);
    dev_line_len = 0;
}

/* ---- the digest: FNV-1a over each field as 8 little-endian bytes ------------ */

static uint32_t dev_hash;

static void dev_h(uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) {
        dev_hash = (dev_hash ^ (uint32_t)(v & 0xFFu)) * 16777619u;
        v >>= 8;
    }
}

static void dev_h_bytes(const uint8_t *p, size_t n)
{
    while (n-- > 0) dev_hash = (dev_hash ^ *p++) * 16777619u;
}

static inline void dev_h_frag(const tdec_frag *f)
{
    dev_h(f->len);
    dev_h(f->offset);
    dev_h(f->total);
    dev_h(f->flags);
    dev_h_bytes(f->data, f->len);
}

static inline void dev_h_gap(const tdec_gap *g)
{
    dev_h(g->len);
    dev_h(g->reason);
}

static size_t dev_items;

/* Starts an item's digest; dev_item_end() prints its line. */
static void dev_item_begin(void)
{
    dev_hash = 2166136261u;
}

static void dev_item_end(uint32_t kind, uint64_t offset)
{
    dev_str("I");
    dev_hex(dev_items++);
    dev_hex(kind);
    dev_hex(offset);
    dev_hex(dev_hash);
    dev_end_line();
}

/* ---- the decode loop ---------------------------------------------------------- */

/* One streaming decoder of the tracedec shape (init done by the caller):
   feed/finish/next on dec, items into item; digest hashes and prints one
   item; after_item (optional) answers a request of the decoder (uftrace's
   argument spec) before the next call; pos gives the E line's position
   (the stream's, or where the error was). */
typedef struct dev_stream {
    void *dec;
    void *item;
    tdec_status (*feed)(void *dec, const void *data, size_t len);
    tdec_status (*finish)(void *dec);
    tdec_status (*next)(void *dec, void *item);
    void (*digest)(const void *dec, const void *item);
    tdec_status (*after_item)(void *dec);
    uint64_t (*pos)(const void *dec);
} dev_stream;

/* The wrappers for decoder type T with functions PREFIXfeed, ...: names
   dev_PREFIXfeed, ... */
#define DEV_CALLS(P, T, ITEM)                                                                             \
    static tdec_status dev_##P##feed(void *d, const void *p, size_t n) { return P##feed((T *)d, p, n); } \
    static tdec_status dev_##P##finish(void *d) { return P##finish((T *)d); }                          \
    static tdec_status dev_##P##next(void *d, void *it) { return P##next((T *)d, (ITEM *)it); }

#define DEV_RING 64 /* bytes: what a DMA or UART ring would hold */

/* The chunk sizes the "DMA" delivers, in turn: 1 byte, odd sizes, the ring. */
static const uint8_t dev_chunks[] = {1, 3, DEV_RING, 7, 13, 1, 31, DEV_RING, 5, 17, 63, 2};

/* The deepest stack any decode reached, measured below main's frame. */
static size_t    dev_stack_max;
static uintptr_t dev_stack_from;

/* Decodes trace[0, len) as delivered into a ring buffer in changing chunk
   sizes: every chunk is copied into the ring after the previous one (wrapping
   around), then fed where it lies, in two feeds when it wraps. Prints the T,
   I and E lines; returns the final status. */
static tdec_status dev_run(const char *name, const dev_stream *s, const uint8_t *trace, size_t len)
{
    static uint8_t ring[DEV_RING];
    size_t delivered = 0, head = 0, pending = 0, k = 0, n, i;
    tdec_status st;
    dev_str("T ");
    dev_str(name);
    dev_hex(len);
    dev_end_line();
    dev_items = 0;
    dev_stack_from = dev_stack_paint();
    for (;;) {
        st = s->next(s->dec, s->item);
        if (st == TDEC_OK) {
            s->digest(s->dec, s->item);
            if (s->after_item != NULL && (st = s->after_item(s->dec)) < 0) break;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        if (pending == 0) { /* the ring is empty: everything fed was used */
            if (delivered == len) {
                if ((st = s->finish(s->dec)) < 0) break;
                continue;
            }
            n = dev_chunks[k++ % sizeof dev_chunks];
            if (n > len - delivered) n = len - delivered;
            for (i = 0; i < n; i++) ring[(head + i) % DEV_RING] = trace[delivered + i];
            delivered += n;
            pending = n;
        }
        n = DEV_RING - head < pending ? DEV_RING - head : pending;
        st = s->feed(s->dec, ring + head, n);
        head = (head + n) % DEV_RING;
        pending -= n;
        if (st < 0) break;
    }
    n = dev_stack_used(dev_stack_from);
    if (n > dev_stack_max) dev_stack_max = n;
    dev_str("E");
    dev_hex((uint64_t)(int64_t)st);
    dev_hex(dev_items);
    dev_hex(s->pos(s->dec));
    dev_end_line();
    return st;
}

/* The program's last line (the board's only): the deepest decode's stack. */
static int dev_done(int status)
{
    if (dev_stack_from != 0) {
        dev_str("# stack");
        dev_hex(dev_stack_max);
        dev_end_line();
    }
    return status;
}

#endif /* TDEC_DEVICE_H */
