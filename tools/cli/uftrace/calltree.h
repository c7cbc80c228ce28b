/* calltree.h - uftrace 0.13's call tree (its utils/graph.c), shared by
   `tracedec graph` (graph.c: a tree per session) and `dump --flame-graph`
   / `--graphviz` (views.c: one tree for the recording); calltree.c.

   A node is a function called from its parent node, found by name (a
   hash of (parent, name id); names are interned), with its call count,
   the total time of its calls and the time of their children; children
   are kept in the order of their first call. The fork rule: a node entering
   fork() (or vfork, daemon) is remembered with its task's pid, and a
   child task's first exit that does not match its current node (the
   exit of that fork) goes to the latest such node of its parent.
   Which tree and node a record goes to is the caller's policy.

   Memory: one node per distinct call path and one name per distinct
   function, nothing per call. */
#ifndef TDEC_TOOLS_UFT_CALLTREE_H
#define TDEC_TOOLS_UFT_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/uftrace/stream.h"

/* "no node" (uftrace's NULL node pointer), also "no name" */
#define CT_NONE UINT32_MAX
/* the root's node id */
#define CT_ROOT 0u

/* uft_sym pointer -> name id answers kept */
#define CT_NAME_CACHE 256
/* children of a node ct_call_sym() compares by symbol before a lookup by name */
#define CT_SCAN 8

typedef struct ct_node {
    uint64_t addr;  /* the address it was first entered at                   */
    uint64_t time;  /* total time of its calls                               */
    uint64_t child; /* of it, in its children (the flame graph: as sampled)  */
    uint64_t calls;
    uint32_t name;  /* id in calltree.names (the root: CT_NONE if unnamed)   */
    uint32_t parent, first, last, next; /* children in order of first call    */
    uint32_t nchildren;
    const uft_sym *sym; /* the symbol it was made for by ct_call_sym(), or NULL */
} ct_node;

/* a node entering fork(): where a child task's first exit continues */
typedef struct ct_fork {
    uint32_t node;
    int32_t  pid; /* the task that called it */
} ct_fork;

typedef struct calltree {
    ct_node  *nodes; /* [CT_ROOT] is the root */
    size_t    nnodes, cap;
    uint32_t *slots; /* open addressing: node by (parent, name), CT_NONE free */
    size_t    nslots;
    char    **names; /* interned, by id */
    size_t    nnames, names_cap;
    uint32_t *name_slots; /* open addressing: name id by text, CT_NONE free */
    size_t    nname_slots;
    const uft_sym *cache_sym[CT_NAME_CACHE]; /* name id of a symbol, by pointer */
    uint32_t       cache_id[CT_NAME_CACHE];
    ct_fork  *forks; /* the latest last */
    size_t    nforks, forks_cap;
} calltree;

/* An empty tree: its root, named root_name (NULL: unnamed). */
void ct_init(calltree *g, const char *root_name);
void ct_free(calltree *g);

/* The id of name (interned on first sight). */
uint32_t ct_name_id(calltree *g, const char *name);
/* The name of a node (the unnamed root: ""). */
const char *ct_name(const calltree *g, uint32_t node);

/* A call of name from parent, entered at addr: the child of parent called
   name (made, *made set, if new), its calls counted. */
uint32_t ct_call(calltree *g, uint32_t parent, uint32_t name, uint64_t addr, int *made);
/* ct_call() of the function sym (NULL: "<addr>", from sym_addr), by name. */
uint32_t ct_call_sym_by_name(calltree *g, uint32_t parent, const uft_sym *sym, uint64_t sym_addr, uint64_t addr,
                             int *made);

/* ct_call() of the function sym (NULL: "<addr>", from sym_addr): a
   child of the first CT_SCAN made for sym is found without a lookup by
   name (inline: the walks call it per record). */
static inline uint32_t ct_call_sym(calltree *g, uint32_t parent, const uft_sym *sym, uint64_t sym_addr, uint64_t addr,
                                   int *made)
{
    uint32_t node = g->nodes[parent].first;
    int k;
    for (k = 0; sym != NULL && node != CT_NONE && k < CT_SCAN; k++, node = g->nodes[node].next) {
        if (g->nodes[node].sym == sym) {
            g->nodes[node].calls++;
            *made = 0;
            return node;
        }
    }
    return ct_call_sym_by_name(g, parent, sym, sym_addr, addr, made);
}

/* Remembers node as a fork() of the task pid. */
void ct_fork_add(calltree *g, uint32_t node, int32_t pid);

/* The latest fork node of task's parent entered at exit_addr, taken
   from the fork nodes, or node if none. */
uint32_t ct_fork_take(calltree *g, uint32_t node, uint64_t exit_addr, const uft_task *task);

/* The exit of frame f from node: the node it counts to (the fork rule:
   ct_fork_take() when node was not entered at f's address), with f's
   time and its children's time added. The caller moves to that node's
   parent. (inline: the walks call it per record) */
static inline uint32_t ct_exit(calltree *g, uint32_t node, const uft_frame *f, uint64_t exit_addr,
                               const uft_task *task)
{
    if (g->nodes[node].addr != f->addr && task != NULL) node = ct_fork_take(g, node, exit_addr, task);
    g->nodes[node].time += f->time;
    g->nodes[node].child += f->child;
    return node;
}

/* The next node of a pre-order walk after node, CT_NONE at the end. */
uint32_t ct_next(const calltree *g, uint32_t node);

#endif
