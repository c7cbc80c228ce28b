/* plugin.c - a QEMU TCG plugin (qemu-user 7.2, plugin API version 1) that
   records which code ran, for the Intel PT real-execution corpus
   (tests/exec/README, tests/data/ipt/exec/README.md):

       qemu-x86_64 -plugin build/exec/plugin.so,out=LOG prog args...

   LOG is a stream of records, little-endian, in execution order:
     'P' u64 vaddr, 4096 bytes   a code page, copied when its first
                                 instruction is translated
     'T' u32 id, u64 vaddr, u16 n, n x u8 size, the n instructions' bytes
                                 a translated block (straight-line code)
     'X' u32 id                  that block ran (all of its instructions)
     'M' u64 start, u64 end, u16 n, n bytes of path
                                 a file mapping [start, end) in guest
                                 addresses, when the first block is
                                 translated (among them the program's and
                                 its loader's; qemu's own too where they
                                 fall in the guest's address range)
   One vCPU only (the programs recorded are single-threaded). The plugin
   API is a stable C ABI: the few functions and types used are declared
   here, as qemu's include/qemu/qemu-plugin.h of 7.2 declares them. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- the plugin API (qemu 7.2) --------------------------------------------- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* not looked at */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, void (*cb)(unsigned int, void *),
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *),
                                    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);

/* ---- the recorder -------------------------------------------------------- */
#define PAGE       4096u
#define PAGE_SLOTS (1u << 16) /* code pages remembered (open addressing) */
#define INSN_MAX   15u        /* the longest x86 instruction */

static FILE    *log_fp;
static uint32_t next_id;
static uint64_t pages[PAGE_SLOTS]; /* page vaddr + 1; 0 = free slot */

static void die(const char *what)
{
    fprintf(stderr, "exec plugin: %s\n", what);
    exit(2);
}

static void put(const void *p, size_t n)
{
    if (fwrite(p, 1, n, log_fp) != n)
        die("cannot write the log");
}

/* Copies the page holding vaddr (host address haddr) the first time. */
static void record_page(uint64_t vaddr, const uint8_t *haddr)
{
    uint64_t page = vaddr & ~(uint64_t)(PAGE - 1);
    uint32_t slot = (uint32_t)((page >> 12) * 2654435761u) & (PAGE_SLOTS - 1);
    while (pages[slot] != 0) {
        if (pages[slot] == page + 1)
            return;
        slot = (slot + 1) & (PAGE_SLOTS - 1);
    }
    pages[slot] = page + 1;
    put("P", 1);
    put(&page, 8);
    put(haddr - (vaddr - page), PAGE);
}

/* Is the host page at p mapped? (guest pages are host pages in qemu-user) */
static int mapped(const uint8_t *p)
{
    return msync((void *)((uintptr_t)p & ~(uintptr_t)(PAGE - 1)), PAGE, MS_ASYNC) == 0;
}

static void on_exec(unsigned int vcpu, void *userdata)
{
    uint32_t id = (uint32_t)(uintptr_t)userdata;
    if (vcpu != 0)
        die("a second vCPU (threads are not supported)");
    put("X", 1);
    put(&id, 4);
}

/* The file mappings, from the host's /proc/self/maps: host address =
   guest address + guest_base. (qemu maps the guest's code without host
   execute permission: every file mapping is recorded.) */
static void record_mappings(uint64_t guest_base)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096 + 128];
    while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
        unsigned long long start, end;
        char *path = strchr(line, '/');
        uint16_t n;
        if (sscanf(line, "%llx-%llx", &start, &end) != 2 || path == NULL || start < guest_base)
            continue;
        start -= guest_base;
        end -= guest_base;
        n = (uint16_t)strcspn(path, "\n");
        put("M", 1);
        put(&start, 8);
        put(&end, 8);
        put(&n, 2);
        put(path, n);
    }
    if (maps == NULL || fclose(maps) != 0)
        die("cannot read /proc/self/maps");
}

static void on_translate(qemu_plugin_id_t plugin, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i;
    uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
    uint32_t id = next_id++;
    uint16_t n16 = (uint16_t)n;
    (void)plugin;
    if (n == 0 || n > 0xffff)
        die("a block of 0 or more than 65535 instructions");
    if (id == 0) {
        const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, 0);
        record_mappings((uint64_t)(uintptr_t)qemu_plugin_insn_haddr(insn) - qemu_plugin_insn_vaddr(insn));
    }
    for (i = 0; i < n; i++) {
        const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const uint8_t *h = qemu_plugin_insn_haddr(insn);
        uint64_t va = qemu_plugin_insn_vaddr(insn);
        size_t size = qemu_plugin_insn_size(insn);
        if (h == NULL)
            die("an instruction without a host address");
        record_page(va, h);
        /* qemu 7.2 gives a page-crossing instruction a wrong size: the
           next page too, whenever the instruction may reach it */
        if ((va & (PAGE - 1)) + size > PAGE ||
            ((va & (PAGE - 1)) + INSN_MAX > PAGE && mapped(h + (PAGE - (va & (PAGE - 1))))))
            record_page(va + (PAGE - (va & (PAGE - 1))), h + (PAGE - (va & (PAGE - 1))));
    }
    put("T", 1);
    put(&id, 4);
    put(&vaddr, 8);
    put(&n16, 2);
    for (i = 0; i < n; i++) {
        uint8_t size = (uint8_t)qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i));
        put(&size, 1);
    }
    for (i = 0; i < n; i++) {
        const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        put(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)id);
}

static void on_atexit(qemu_plugin_id_t plugin, void *userdata)
{
    (void)plugin;
    (void)userdata;
    if (fclose(log_fp) != 0)
        die("cannot write the log");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv)
{
    const char *path = NULL;
    int i;
    (void)info;
    for (i = 0; i < argc; i++)
        if (strncmp(argv[i], "out=", 4) == 0)
            path = argv[i] + 4;
    if (path == NULL) {
        fprintf(stderr, "exec plugin: give out=LOG\n");
        return -1;
    }
    log_fp = fopen(path, "wb");
    if (log_fp == NULL) {
        perror(path);
        return -1;
    }
    setvbuf(log_fp, NULL, _IOFBF, 1u << 20);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
    return 0;
}
