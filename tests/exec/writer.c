/* writer.c - turns a log of build/exec/plugin.so (which code ran under
   qemu-user) into the Intel PT trace that hardware tracing that run would
   have written, the code image and the executed instruction sequence
   (tests/data/ipt/exec/README.md says how the corpus is made).

       writer [-m 64|32] [-r] [-x] [-f PATH] [-p BYTES] [-t TRACE] [-i IMAGE] [-e EXPECTED] [-d DIGEST] LOG

   LOG may be a FIFO: it is read once, in order. Options:
     -m 64|32     the execution mode (qemu-x86_64: 64, qemu-i386: 32)
     -r           compress returns (a TNT bit for a return to the address
                  its call pushed); without: every return is a TIP
     -p BYTES     PSB+ every BYTES of trace (at the next instruction; 4096)
     -t TRACE     write the trace
     -i IMAGE     write the code pages that ran, zero-filled between pages
                  of one mapping, and IMAGE.sections: one line a section,
                  "OFFSET-END:VADDR" (hex, the image's bytes [OFFSET, END)
                  at VADDR: `tracedec flow --raw IMAGE:LINE`)
     -x           the image keeps only the bytes of the instructions that
                  ran (the rest zero: it compresses well)
     -e EXPECTED  write the instructions traced, one IP a line ("%016x",
                  as `tracedec flow` prints them)
     -d DIGEST    write "digest COUNT HASH" of the instructions traced
                  (tests/exec/digest.h): -e for a run too long to keep
     -f PATH      trace only the code of the file PATH (as /proc/self/maps
                  names it: the real path) with an IP filter range spanning
                  its mappings: leaving the range is a TIP.PGD at the
                  target, coming back MODE.Exec and TIP.PGE

   The trace is that of user-mode tracing (CPL 3 only) without timing
   packets: PSB, PSBEND, MODE.Exec, TIP.PGE at the start; TNT for
   conditional branches (and compressed returns); TIP for indirect
   branches and uncompressed returns; a system call (SYSCALL, INT) leaves
   user mode: TIP.PGD with the IP suppressed, then MODE.Exec and TIP.PGE at
   the instruction that runs next; PSB, MODE.Exec, FUP, PSBEND every -p
   bytes. IPs are compressed against the last IP as hardware does. The
   return compression follows the decoders' 64-entry return stack
   (FLOW.md §2.5), so a compressed return is always one they can resolve.
   Each instruction is classified with tdec_ipt_insn_decode; its length
   must be qemu's. A repeated string instruction is one instruction (qemu
   runs each iteration as a block of its own), and so is a page-crossing
   instruction that qemu 7.2 reports twice in a row. Any flow that no branch
   explains (an instruction that stopped its block half way) is an error. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"

#include "tests/exec/digest.h"

#include <intel-pt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE     4096u
#define MAX_GAP  (64u * PAGE) /* pages closer than this share a section */
#define OUT_CAP  (1u << 20)
#define RETSTACK 64u
#define PAGE_SLOTS (1u << 17)

typedef struct {
    uint64_t vaddr;
    uint8_t  bytes[PAGE];
    uint8_t  code[PAGE / 8]; /* bit set: the byte is an instruction's */
} page;

typedef struct {
    uint64_t vaddr;
    uint32_t first; /* index of its first instruction in insns[] */
    uint32_t n;
} block;

typedef struct {
    uint64_t           ip;
    tdec_ipt_insn_info info;
} insn;

static struct {
    int      mode, compress, code_only;
    uint64_t psb_every;
    FILE    *trace, *expected;
    /* the log */
    page    *pages;
    size_t   npages, cap_pages;
    block   *blocks;
    size_t   nblocks, cap_blocks;
    insn    *insns;
    size_t   ninsns, cap_insns;
    uint32_t page_at[PAGE_SLOTS]; /* pages[] index + 1 by page vaddr; 0 free */
    /* the trace */
    struct pt_encoder *enc;
    uint8_t  out[OUT_CAP];
    uint64_t written, last_psb, last_ip;
    uint64_t tnt;
    uint8_t  ntnt;
    uint64_t ret[RETSTACK];
    uint32_t ret_n;
    int      have_prev, enabled;
    insn     prev;
    uint64_t ran, count; /* instructions run, traced */
    uint64_t digest;     /* of the instructions traced */
    /* -f: the IP filter's range [filter_lo, filter_hi] */
    const char *filter_path;
    uint64_t filter_lo, filter_hi;
} w;

static void die(const char *fmt, unsigned long long a)
{
    fprintf(stderr, "writer: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    exit(1);
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    *cap = need * 2 + 64;
    p = realloc(p, *cap * elem);
    if (p == NULL)
        die("out of memory (%llu)", (unsigned long long)need);
    return p;
}

/* ---- packets ---------------------------------------------------------------- */
static void flush_out(void)
{
    uint64_t off = 0;
    pt_enc_get_offset(w.enc, &off);
    if (off > 0 && w.trace != NULL && fwrite(w.out, 1, off, w.trace) != off)
        die("cannot write the trace (%llu)", off);
    w.written += off;
    pt_enc_sync_set(w.enc, 0);
}

static uint64_t trace_offset(void)
{
    uint64_t off = 0;
    pt_enc_get_offset(w.enc, &off);
    return w.written + off;
}

static void emit(struct pt_packet *p)
{
    uint64_t off = 0;
    int rc = pt_enc_next(w.enc, p);
    if (rc < 0)
        die("pt_enc_next failed (packet type %llu)", (unsigned long long)p->type);
    pt_enc_get_offset(w.enc, &off);
    if (off > OUT_CAP - 64)
        flush_out();
}

static void emit_plain(enum pt_packet_type type)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = type;
    emit(&p);
}

/* An IP packet, compressed against the last IP as hardware does. */
static void emit_ip(enum pt_packet_type type, uint64_t ip, int suppressed)
{
    struct pt_packet p;
    uint64_t last = w.last_ip;
    memset(&p, 0, sizeof p);
    p.type = type;
    if (suppressed) {
        p.payload.ip.ipc = pt_ipc_suppressed;
    } else if ((ip >> 16) == (last >> 16)) {
        p.payload.ip.ipc = pt_ipc_update_16;
        p.payload.ip.ip = ip & 0xffffu;
    } else if ((ip >> 32) == (last >> 32)) {
        p.payload.ip.ipc = pt_ipc_update_32;
        p.payload.ip.ip = ip & 0xffffffffu;
    } else if ((ip >> 48) == (last >> 48)) {
        p.payload.ip.ipc = pt_ipc_update_48;
        p.payload.ip.ip = ip & 0xffffffffffffull;
    } else if ((uint64_t)((int64_t)(ip << 16) >> 16) == ip) {
        p.payload.ip.ipc = pt_ipc_sext_48;
        p.payload.ip.ip = ip & 0xffffffffffffull;
    } else {
        p.payload.ip.ipc = pt_ipc_full;
        p.payload.ip.ip = ip;
    }
    if (!suppressed)
        w.last_ip = ip;
    emit(&p);
}

static void emit_mode_exec(void)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_mode;
    p.payload.mode.leaf = pt_mol_exec;
    p.payload.mode.bits.exec.csl = w.mode == 64;
    p.payload.mode.bits.exec.csd = w.mode == 32;
    emit(&p);
}

static void flush_tnt(void)
{
    struct pt_packet p;
    if (w.ntnt == 0)
        return;
    memset(&p, 0, sizeof p);
    p.type = w.ntnt <= 6 ? ppt_tnt_8 : ppt_tnt_64;
    p.payload.tnt.bit_size = w.ntnt;
    p.payload.tnt.payload = w.tnt;
    emit(&p);
    w.tnt = 0;
    w.ntnt = 0;
}

/* One TNT bit, the oldest bit the highest. */
static void add_tnt(int taken)
{
    w.tnt = (w.tnt << 1) | (taken ? 1u : 0u);
    if (++w.ntnt == 47)
        flush_tnt();
}

static void emit_psb(int with_fup, uint64_t ip)
{
    flush_tnt();
    emit_plain(ppt_psb);
    w.last_ip = 0;
    if (with_fup) {
        emit_mode_exec();
        emit_ip(ppt_fup, ip, 0);
    }
    emit_plain(ppt_psbend);
    w.last_psb = trace_offset();
}

/* ---- the flow ------------------------------------------------------------------ */
static void push_ret(uint64_t ip)
{
    memmove(w.ret, w.ret + (w.ret_n == RETSTACK), (w.ret_n - (w.ret_n == RETSTACK)) * sizeof w.ret[0]);
    if (w.ret_n < RETSTACK)
        w.ret_n++;
    w.ret[w.ret_n - 1] = ip;
}

static void bad_flow(const insn *from, uint64_t to)
{
    fprintf(stderr, "writer: instruction %llu: %#llx (class %u, %u bytes) went to %#llx\n",
            (unsigned long long)w.ran, (unsigned long long)from->ip, from->info.iclass, from->info.size,
            (unsigned long long)to);
    exit(1);
}

/* Is ip the previous instruction again: another iteration of a string
   instruction, or a page-crossing one that qemu 7.2 reports at the end of
   a block and again as a block of its own? */
static int again(uint64_t ip)
{
    const insn *p = &w.prev;
    uint64_t target = p->ip + p->info.size + (uint64_t)p->info.disp;
    int direct = (p->info.flags & TDEC_IPT_INSNF_DIRECT) && p->info.kind != TDEC_IPT_INSN_JMPABS;
    int crosses = (p->ip & (PAGE - 1)) + p->info.size > PAGE;
    return ip == p->ip && (p->info.iclass == TDEC_IPT_IC_OTHER || (crosses && !(direct && target == ip)));
}

/* Is code at ip traced: inside the IP filter's range, when there is one? */
static int traced(uint64_t ip)
{
    return w.filter_path == NULL || (ip >= w.filter_lo && ip <= w.filter_hi);
}

/* Tracing (re)starts at ip. */
static void enable(uint64_t ip)
{
    emit_mode_exec();
    emit_ip(ppt_tip_pge, ip, 0);
    w.enabled = 1;
}

/* The previous instruction left the traced range for ip: a system call
   (the IP suppressed), or a branch leaving the filter's range (the
   branch's target). The decoders push no return address for such a call
   (libipt does not proceed past an instruction that disabled tracing). */
static void leave(uint64_t ip)
{
    const insn *p = &w.prev;
    uint64_t next = p->ip + p->info.size;
    uint64_t target = next + (uint64_t)p->info.disp;
    int direct = (p->info.flags & TDEC_IPT_INSNF_DIRECT) && p->info.kind != TDEC_IPT_INSN_JMPABS;
    flush_tnt();
    w.enabled = 0;
    if (p->info.iclass == TDEC_IPT_IC_FAR_CALL) {
        emit_ip(ppt_tip_pgd, 0, 1);
        return;
    }
    if (p->info.iclass == TDEC_IPT_IC_OTHER || p->info.iclass == TDEC_IPT_IC_PTWRITE ||
        (p->info.iclass == TDEC_IPT_IC_COND_JUMP && (ip != target || target == next)) || (direct && ip != target))
        bad_flow(p, ip);
    emit_ip(ppt_tip_pgd, ip, 0);
}

/* The packets that take the flow from the previous instruction to ip,
   both traced. */
static void go_to(uint64_t ip)
{
    const insn *p = &w.prev;
    uint64_t next = p->ip + p->info.size;
    uint64_t target = next + (uint64_t)p->info.disp;
    int direct = (p->info.flags & TDEC_IPT_INSNF_DIRECT) && p->info.kind != TDEC_IPT_INSN_JMPABS;
    switch (p->info.iclass) {
    case TDEC_IPT_IC_OTHER:
    case TDEC_IPT_IC_PTWRITE:
        if (ip != next)
            bad_flow(p, ip);
        return;
    case TDEC_IPT_IC_CALL:
        if (direct && ip != target)
            bad_flow(p, ip);
        if (!direct || p->info.disp != 0)
            push_ret(next);
        if (!direct) {
            flush_tnt();
            emit_ip(ppt_tip, ip, 0);
        }
        return;
    case TDEC_IPT_IC_JUMP:
        if (direct) {
            if (ip != target)
                bad_flow(p, ip);
            return;
        }
        flush_tnt();
        emit_ip(ppt_tip, ip, 0);
        return;
    case TDEC_IPT_IC_COND_JUMP:
        if (ip != target && ip != next)
            bad_flow(p, ip);
        add_tnt(ip != next);
        return;
    case TDEC_IPT_IC_RETURN:
        if (w.compress && w.ret_n > 0 && w.ret[w.ret_n - 1] == ip) {
            w.ret_n--;
            add_tnt(1);
            return;
        }
        flush_tnt();
        emit_ip(ppt_tip, ip, 0);
        return;
    case TDEC_IPT_IC_FAR_CALL:
        /* A system call: user-mode tracing stops in the kernel. */
        leave(ip);
        enable(ip);
        return;
    default:
        bad_flow(p, ip);
    }
}

static void step(const insn *in)
{
    int inside = traced(in->ip);
    if (!w.have_prev) {
        emit_psb(0, 0);
        if (inside)
            enable(in->ip);
        w.have_prev = 1;
    } else if (again(in->ip)) {
        return;
    } else if (w.enabled && inside) {
        go_to(in->ip);
    } else if (w.enabled) {
        leave(in->ip);
    } else if (inside) {
        enable(in->ip);
    }
    if (w.enabled) {
        if (trace_offset() - w.last_psb >= w.psb_every)
            emit_psb(1, in->ip);
        if (w.expected != NULL)
            fprintf(w.expected, "%016llx\n", (unsigned long long)in->ip);
        w.digest = exec_digest(w.digest, in->ip);
        w.count++;
    }
    w.prev = *in;
    w.ran++;
}

static void finish(void)
{
    if (!w.have_prev || w.prev.info.iclass != TDEC_IPT_IC_FAR_CALL)
        die("the log does not end in a system call (%llu instructions)", (unsigned long long)w.ran);
    if (w.enabled)
        leave(0);
    flush_out();
}

/* ---- the log --------------------------------------------------------------------- */
static void get(FILE *fp, void *p, size_t n)
{
    if (fread(p, 1, n, fp) != n)
        die("the log ends inside a record (%llu instructions)", (unsigned long long)w.ran);
}

/* The code page at vaddr (page-aligned), or NULL. */
static const page *find_page(uint64_t vaddr)
{
    uint32_t slot = (uint32_t)((vaddr >> 12) * 2654435761u) & (PAGE_SLOTS - 1);
    while (w.page_at[slot] != 0) {
        if (w.pages[w.page_at[slot] - 1].vaddr == vaddr)
            return &w.pages[w.page_at[slot] - 1];
        slot = (slot + 1) & (PAGE_SLOTS - 1);
    }
    return NULL;
}

static void read_page(FILE *fp)
{
    page *pg;
    uint32_t slot;
    w.pages = grow(w.pages, &w.cap_pages, w.npages + 1, sizeof *w.pages);
    pg = &w.pages[w.npages++];
    get(fp, &pg->vaddr, 8);
    get(fp, pg->bytes, PAGE);
    if (w.npages >= PAGE_SLOTS / 2 || find_page(pg->vaddr) != NULL)
        die("too many code pages, or one twice (%#llx)", (unsigned long long)pg->vaddr);
    slot = (uint32_t)((pg->vaddr >> 12) * 2654435761u) & (PAGE_SLOTS - 1);
    while (w.page_at[slot] != 0)
        slot = (slot + 1) & (PAGE_SLOTS - 1);
    w.page_at[slot] = (uint32_t)w.npages;
}

/* Up to 15 bytes of code at ip from the pages; how many. */
static size_t code_at(uint64_t ip, uint8_t *buf)
{
    size_t n = 0;
    while (n < TDEC_IPT_INSN_MAX) {
        const page *pg = find_page((ip + n) & ~(uint64_t)(PAGE - 1));
        if (pg == NULL)
            break;
        buf[n] = pg->bytes[(ip + n) & (PAGE - 1)];
        n++;
    }
    return n;
}

static void mark_code(uint64_t ip, uint8_t size)
{
    uint8_t k;
    for (k = 0; k < size; k++) {
        uint64_t a = ip + k;
        page *pg = (page *)find_page(a & ~(uint64_t)(PAGE - 1));
        pg->code[(a & (PAGE - 1)) / 8] = (uint8_t)(pg->code[(a & (PAGE - 1)) / 8] | 1u << (a & 7));
    }
}

/* A block: its instructions are decoded from the code pages, and must be
   what qemu ran: the same bytes and length. qemu 7.2 gives a wrong size
   (and too few bytes) for an instruction that crosses a page boundary;
   there the decoded length counts, and the next block must start after it. */
static void read_block(FILE *fp)
{
    uint32_t id, i;
    uint64_t vaddr, ip;
    uint16_t n;
    uint8_t sizes[65536];
    block *b;
    get(fp, &id, 4);
    get(fp, &vaddr, 8);
    get(fp, &n, 2);
    if (id != w.nblocks)
        die("block %llu out of order", (unsigned long long)id);
    get(fp, sizes, n);
    w.blocks = grow(w.blocks, &w.cap_blocks, w.nblocks + 1, sizeof *w.blocks);
    w.insns = grow(w.insns, &w.cap_insns, w.ninsns + n, sizeof *w.insns);
    b = &w.blocks[w.nblocks++];
    b->vaddr = vaddr;
    b->first = (uint32_t)w.ninsns;
    b->n = n;
    for (i = 0, ip = vaddr; i < n; i++) {
        insn *in = &w.insns[w.ninsns++];
        uint8_t ran[16], code[16];
        uint32_t reason = 0;
        size_t have = code_at(ip, code);
        int crosses = (ip & (PAGE - 1)) + have > PAGE;
        get(fp, ran, sizes[i]);
        in->ip = ip;
        if (tdec_ipt_insn_decode(code, have, w.mode == 64 ? TDEC_IPT_MODE_64 : TDEC_IPT_MODE_32, &in->info,
                                 &reason) != TDEC_OK)
            die("tdec_ipt_insn_decode fails at %#llx", (unsigned long long)ip);
        if (sizes[i] > have || memcmp(ran, code, sizes[i]) != 0)
            die("the code at %#llx is not that of its page", (unsigned long long)ip);
        if (in->info.size != sizes[i] && !(crosses && (ip & (PAGE - 1)) + in->info.size > PAGE))
            die("tdec_ipt_insn_decode disagrees with qemu on the length at %#llx", (unsigned long long)ip);
        if (in->info.size != sizes[i] && i + 1 != n)
            die("a page-crossing instruction inside a block at %#llx", (unsigned long long)ip);
        mark_code(ip, in->info.size);
        ip += in->info.size;
    }
}

/* A file mapping: with -f PATH, the filter range spans PATH's mappings. */
static void read_mapping(FILE *fp)
{
    uint64_t start, end;
    uint16_t n;
    char path[65536];
    get(fp, &start, 8);
    get(fp, &end, 8);
    get(fp, &n, 2);
    get(fp, path, n);
    path[n] = '\0';
    if (w.filter_path == NULL || strcmp(path, w.filter_path) != 0 || end <= start)
        return;
    if (w.filter_hi == 0 || start < w.filter_lo)
        w.filter_lo = start;
    if (end - 1 > w.filter_hi)
        w.filter_hi = end - 1;
}

static void read_log(FILE *fp)
{
    int tag;
    while ((tag = getc(fp)) != EOF) {
        if (tag == 'X') {
            uint32_t id, i;
            get(fp, &id, 4);
            if (w.filter_path != NULL && w.filter_hi == 0)
                die("-f: the log maps no such file (%llu)", 0);
            if (id >= w.nblocks)
                die("an unknown block %llu ran", (unsigned long long)id);
            for (i = 0; i < w.blocks[id].n; i++)
                step(&w.insns[w.blocks[id].first + i]);
        } else if (tag == 'T') {
            read_block(fp);
        } else if (tag == 'P') {
            read_page(fp);
        } else if (tag == 'M') {
            read_mapping(fp);
        } else {
            die("a record of unknown kind %#llx", (unsigned long long)tag);
        }
    }
}

/* ---- the image ------------------------------------------------------------------- */
static int by_vaddr(const void *a, const void *b)
{
    uint64_t x = ((const page *)a)->vaddr, y = ((const page *)b)->vaddr;
    return x < y ? -1 : x > y;
}

static void write_image(const char *path)
{
    char name[4096];
    FILE *img, *sec;
    size_t i = 0;
    uint64_t offset = 0;
    static const uint8_t zero[PAGE];
    snprintf(name, sizeof name, "%s.sections", path);
    img = fopen(path, "wb");
    sec = fopen(name, "w");
    if (img == NULL || sec == NULL)
        die("cannot write the image (%llu)", 0);
    while (i < w.npages) {
        uint64_t start = w.pages[i].vaddr, end = start;
        size_t j = i;
        for (; j < w.npages && w.pages[j].vaddr - end <= MAX_GAP; j++) {
            for (; end < w.pages[j].vaddr; end += PAGE)
                fwrite(zero, 1, PAGE, img);
            if (w.code_only) {
                uint32_t k;
                for (k = 0; k < PAGE; k++)
                    if (!(w.pages[j].code[k / 8] >> (k & 7) & 1))
                        w.pages[j].bytes[k] = 0;
            }
            fwrite(w.pages[j].bytes, 1, PAGE, img);
            end += PAGE;
        }
        fprintf(sec, "0x%llx-0x%llx:0x%llx\n", (unsigned long long)offset,
                (unsigned long long)(offset + end - start), (unsigned long long)start);
        offset += end - start;
        i = j;
    }
    if (fclose(img) != 0 || fclose(sec) != 0)
        die("cannot write the image (%llu)", 1);
}

int main(int argc, char **argv)
{
    const char *trace = NULL, *image = NULL, *expected = NULL, *digest = NULL;
    struct pt_config cfg;
    FILE *fp;
    int opt;
    w.mode = 64;
    w.psb_every = 4096;
    w.digest = EXEC_DIGEST_START;
    while ((opt = getopt(argc, argv, "m:rxp:t:i:e:d:f:")) != -1) {
        switch (opt) {
        case 'm': w.mode = atoi(optarg); break;
        case 'r': w.compress = 1; break;
        case 'x': w.code_only = 1; break;
        case 'p': w.psb_every = strtoull(optarg, NULL, 0); break;
        case 't': trace = optarg; break;
        case 'i': image = optarg; break;
        case 'e': expected = optarg; break;
        case 'd': digest = optarg; break;
        case 'f': w.filter_path = optarg; break;
        default: return 2;
        }
    }
    if (optind + 1 != argc || (w.mode != 64 && w.mode != 32)) {
        fprintf(stderr, "usage: writer [-m 64|32] [-r] [-x] [-f PATH] [-p BYTES] [-t TRACE] [-i IMAGE] [-e EXPECTED] [-d DIGEST] LOG\n");
        return 2;
    }
    fp = fopen(argv[optind], "rb");
    if (fp == NULL) {
        perror(argv[optind]);
        return 1;
    }
    if (trace != NULL && (w.trace = fopen(trace, "wb")) == NULL) {
        perror(trace);
        return 1;
    }
    if (expected != NULL && (w.expected = fopen(expected, "w")) == NULL) {
        perror(expected);
        return 1;
    }
    pt_config_init(&cfg);
    cfg.begin = w.out;
    cfg.end = w.out + OUT_CAP;
    w.enc = pt_alloc_encoder(&cfg);
    if (w.enc == NULL)
        die("pt_alloc_encoder (%llu)", 0);
    setvbuf(fp, NULL, _IOFBF, 1u << 20);
    read_log(fp);
    finish();
    qsort(w.pages, w.npages, sizeof *w.pages, by_vaddr);
    if (image != NULL)
        write_image(image);
    if (w.trace != NULL && fclose(w.trace) != 0)
        die("cannot write the trace (%llu)", 0);
    if (w.expected != NULL && fclose(w.expected) != 0)
        die("cannot write the expected sequence (%llu)", 0);
    if (digest != NULL) {
        FILE *fp_digest = fopen(digest, "w");
        if (fp_digest == NULL ||
            fprintf(fp_digest, "digest %llu %016llx\n", (unsigned long long)w.count, (unsigned long long)w.digest) < 0 ||
            fclose(fp_digest) != 0)
            die("cannot write the digest (%llu)", 0);
    }
    fprintf(stderr, "writer: %llu instructions, %llu traced, %llu bytes of trace, %llu code pages\n",
            (unsigned long long)w.ran, (unsigned long long)w.count, (unsigned long long)w.written,
            (unsigned long long)w.npages);
    pt_free_encoder(w.enc);
    return 0;
}
