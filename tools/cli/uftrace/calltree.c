/* calltree.c - uftrace's call tree; see calltree.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/calltree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *ct_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return p;
    *cap = need * 2 + 16;
    return uft_xrealloc(p, *cap * size);
}

static size_t ct_hash_text(const char *s)
{
    size_t h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

static size_t ct_hash_pair(uint32_t parent, uint32_t name)
{
    uint64_t k = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15u;
    return (size_t)(k >> 17);
}

/* A table of n free slots. */
static uint32_t *ct_slots(size_t n)
{
    return memset(uft_xrealloc(NULL, n * sizeof(uint32_t)), 0xff, n * sizeof(uint32_t));
}

uint32_t ct_name_id(calltree *g, const char *name)
{
    size_t i, mask;
    if (2 * (g->nnames + 1) > g->nname_slots) { /* rehash at half full */
        size_t n = g->nname_slots ? g->nname_slots * 2 : 256, k;
        free(g->name_slots);
        g->name_slots = ct_slots(n);
        g->nname_slots = n;
        for (k = 0; k < g->nnames; k++) {
            for (i = ct_hash_text(g->names[k]) & (n - 1); g->name_slots[i] != CT_NONE; i = (i + 1) & (n - 1)) continue;
            g->name_slots[i] = (uint32_t)k;
        }
    }
    mask = g->nname_slots - 1;
    for (i = ct_hash_text(name) & mask; g->name_slots[i] != CT_NONE; i = (i + 1) & mask)
        if (strcmp(g->names[g->name_slots[i]], name) == 0) return g->name_slots[i];
    g->names = ct_grow(g->names, &g->names_cap, g->nnames + 1, sizeof *g->names);
    g->names[g->nnames] = uft_xrealloc(NULL, strlen(name) + 1);
    strcpy(g->names[g->nnames], name);
    g->name_slots[i] = (uint32_t)g->nnames;
    return (uint32_t)g->nnames++;
}

const char *ct_name(const calltree *g, uint32_t node)
{
    return g->nodes[node].name == CT_NONE ? "" : g->names[g->nodes[node].name];
}

void ct_init(calltree *g, const char *root_name)
{
    memset(g, 0, sizeof *g);
    g->nodes = ct_grow(NULL, &g->cap, 1, sizeof *g->nodes);
    memset(&g->nodes[CT_ROOT], 0, sizeof g->nodes[CT_ROOT]);
    g->nodes[CT_ROOT].parent = g->nodes[CT_ROOT].first = g->nodes[CT_ROOT].last = g->nodes[CT_ROOT].next = CT_NONE;
    g->nodes[CT_ROOT].name = root_name ? ct_name_id(g, root_name) : CT_NONE;
    g->nnodes = 1;
}

void ct_free(calltree *g)
{
    size_t i;
    for (i = 0; i < g->nnames; i++) free(g->names[i]);
    free(g->names);
    free(g->name_slots);
    free(g->nodes);
    free(g->slots);
    free(g->forks);
}

static void ct_slots_insert(calltree *g, uint32_t node)
{
    size_t mask = g->nslots - 1, i;
    for (i = ct_hash_pair(g->nodes[node].parent, g->nodes[node].name) & mask; g->slots[i] != CT_NONE; i = (i + 1) & mask)
        continue;
    g->slots[i] = node;
}

uint32_t ct_call(calltree *g, uint32_t parent, uint32_t name, uint64_t addr, int *made)
{
    size_t mask, i;
    ct_node *n;
    uint32_t id;
    if (2 * (g->nnodes + 1) > g->nslots) {
        size_t k, ns = g->nslots ? g->nslots * 2 : 1024;
        free(g->slots);
        g->slots = ct_slots(ns);
        g->nslots = ns;
        for (k = 1; k < g->nnodes; k++) ct_slots_insert(g, (uint32_t)k);
    }
    mask = g->nslots - 1;
    *made = 0;
    for (i = ct_hash_pair(parent, name) & mask; g->slots[i] != CT_NONE; i = (i + 1) & mask) {
        n = &g->nodes[g->slots[i]];
        if (n->parent == parent && n->name == name) {
            n->calls++;
            return g->slots[i];
        }
    }
    if (g->nnodes >= CT_NONE - 1) {
        fputs("tracedec: out of memory\n", stderr);
        exit(2);
    }
    g->nodes = ct_grow(g->nodes, &g->cap, g->nnodes + 1, sizeof *g->nodes);
    id = (uint32_t)g->nnodes++;
    n = &g->nodes[id];
    memset(n, 0, sizeof *n);
    n->addr = addr;
    n->name = name;
    n->parent = parent;
    n->first = n->last = n->next = CT_NONE;
    n->calls = 1;
    if (g->nodes[parent].last == CT_NONE) g->nodes[parent].first = id;
    else g->nodes[g->nodes[parent].last].next = id;
    g->nodes[parent].last = id;
    g->nodes[parent].nchildren++;
    g->slots[i] = id;
    *made = 1;
    return id;
}

uint32_t ct_call_sym_by_name(calltree *g, uint32_t parent, const uft_sym *sym, uint64_t sym_addr, uint64_t addr,
                             int *made)
{
    size_t slot = ((uintptr_t)sym >> 4) % CT_NAME_CACHE;
    char buf[32];
    uint32_t node;
    if (sym == NULL) {
        snprintf(buf, sizeof buf, "<%llx>", (unsigned long long)sym_addr);
        return ct_call(g, parent, ct_name_id(g, buf), addr, made);
    }
    if (g->cache_sym[slot] != sym) {
        g->cache_id[slot] = ct_name_id(g, sym->name);
        g->cache_sym[slot] = sym;
    }
    node = ct_call(g, parent, g->cache_id[slot], addr, made);
    if (*made) g->nodes[node].sym = sym;
    return node;
}

void ct_fork_add(calltree *g, uint32_t node, int32_t pid)
{
    g->forks = ct_grow(g->forks, &g->forks_cap, g->nforks + 1, sizeof *g->forks);
    g->forks[g->nforks].node = node;
    g->forks[g->nforks++].pid = pid;
}

uint32_t ct_fork_take(calltree *g, uint32_t node, uint64_t exit_addr, const uft_task *task)
{
    size_t k;
    for (k = g->nforks; k-- > 0;) { /* the latest first */
        if (g->nodes[g->forks[k].node].addr == exit_addr && g->forks[k].pid == task->ppid) {
            node = g->forks[k].node;
            memmove(&g->forks[k], &g->forks[k + 1], (g->nforks - k - 1) * sizeof *g->forks);
            g->nforks--;
            break;
        }
    }
    return node;
}

uint32_t ct_next(const calltree *g, uint32_t node)
{
    if (g->nodes[node].first != CT_NONE) return g->nodes[node].first;
    while (node != CT_NONE && g->nodes[node].next == CT_NONE) node = g->nodes[node].parent;
    return node == CT_NONE ? CT_NONE : g->nodes[node].next;
}
