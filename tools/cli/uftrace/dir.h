/* dir.h - the CLI's model of a uftrace data directory: the info file,
   tasks and sessions from task.txt, the memory maps and symbol tables of
   each session, dlopen()ed libraries, and argument-spec resolution. Built
   on the zero-allocation parsers of single/tdec_uftrace.h; this part of the
   CLI allocates freely (symbol tables are not the trace). */
#ifndef TDEC_TOOLS_UFT_DIR_H
#define TDEC_TOOLS_UFT_DIR_H

#include <stddef.h>
#include <stdint.h>

#include "single/tdec_uftrace.h"
#include "tools/cli/out.h"

/* A rare path of a hot function, kept out of line: inlined, it would make
   the hot function save more registers on every call. */
#if defined(__GNUC__) || defined(__clang__)
#define UFT_COLD __attribute__((noinline, cold))
#else
#define UFT_COLD
#endif

/* A hot function inlined into every caller, where the compiler would
   call it: a call makes the function save its registers on every record. */
#if defined(__GNUC__) || defined(__clang__)
#define UFT_INLINE inline __attribute__((always_inline))
#else
#define UFT_INLINE inline
#endif

/* Keeps the value of variable x in a register, loaded by itself. For
   copies of fields stored a moment ago one by one (a record the decoder
   just wrote): the compiler would otherwise merge loads of neighbouring
   fields into one wider load, which waits until all the stores it spans
   are written out (in uft_task_next() that stall cost more than the
   decoding itself). */
#if defined(__GNUC__) || defined(__clang__)
#define UFT_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define UFT_OPAQUE(x) (void)0
#endif

typedef struct uft_sym {
    uint64_t addr, size; /* relative to the module base */
    char     type;
    char    *name;       /* as uftrace shows it (demangled) */
    size_t   name_len;
} uft_sym;

typedef struct uft_module {
    char    *path;
    char    *build_id;
    int      loaded;
    uft_sym *syms; /* sorted by address */
    size_t   nsyms;
    struct uft_dbg_func *dbg; /* .dbg F:/A:/R: entries, sorted by address */
    size_t   ndbg;
    char    *enums;  /* .dbg E: definitions joined by ';', or NULL */
} uft_module;

typedef struct uft_dbg_func {
    uint64_t addr;
    char    *args;   /* A: specs after '@', or NULL */
    char    *retval; /* R: spec after '@', or NULL */
    char    *file;   /* L: its source file, or NULL  */
    uint64_t line;   /* L: its line                  */
} uft_dbg_func;

typedef struct uft_map {
    uint64_t    start, end;
    uft_module *mod;
} uft_map;

typedef struct uft_dlopen {
    uint64_t    time, base;
    uft_module *mod;
} uft_dlopen;

typedef struct uft_session {
    char        sid[17];
    int32_t     pid;
    uint64_t    start;
    char       *exename;
    uft_map    *maps;
    size_t      nmaps;
    uft_dlopen *dl; /* in time order */
    size_t      ndl;
} uft_session;

typedef struct uft_sref {
    uft_session *sess;
    uint64_t     start, end;
} uft_sref;

typedef struct uft_task {
    int32_t   tid, pid, ppid;
    uint64_t  time;     /* of its first TASK / FORK line */
    char      comm[16]; /* its name as uftrace 0.13 sets it from task.txt: the
                           session's exename, cut to 15 bytes (perf COMM
                           records rename it later) */
    uft_sref *refs;
    size_t    nrefs;
} uft_task;

/* One resolved argument/return spec: the decoder's layout plus what only
   printing needs. */
typedef struct uft_spec {
    tdec_uftrace_argspec layout;
    char                 type_name[TDEC_UFTRACE_MAX_ARGS][32]; /* enum / struct names */
} uft_spec;

/* A symbol lookup, reused while it is still the answer. */
typedef struct uft_sym_hit {
    const uft_task *task;
    uint64_t        from, span; /* its session reference's time window (span > 0) */
    uint64_t        lo, size;   /* the symbol's absolute address range */
    const uft_sym  *sym;        /* NULL: unused (then size is 0) */
    const uft_map  *map;
} uft_sym_hit;

#define UFT_SYM_HITS 16

typedef struct uft_dir {
    char                    *path;
    tdec_uftrace_header hdr;
    tdec_uftrace_config      cfg;       /* byte order for the decoders            */
    int32_t                 *tids;      /* taskinfo:tids, in that order            */
    size_t                   ntids;
    unsigned char           *tid_dat;   /* per tids[i]: 1 if <tid>.dat exists       */
    char                    *exename;
    char                    *argspec, *retspec, *argauto, *retauto;
    char                    *enumauto;  /* info enumauto: (applies with FEAT_AUTO_ARGS) */
    int                      auto_args;
    int                      pattern;   /* 'r' regex, 'g' glob, 's' simple          */
    unsigned                 long_size, f80_size;
    const char *const       *regs;      /* register names of the recorded arch, as
                                           uftrace 0.13 infers it (NULL: none)      */
    uft_session            **sess;
    size_t                   nsess;
    uft_task                *tasks;
    size_t                   ntasks;
    uft_module             **mods;
    size_t                   nmods;
    struct uft_event_def    *events;    /* events.txt */
    size_t                   nevents;
    struct uft_spec_cache   *cache;     /* resolved specs by (session, function)  */
    size_t                   ncache;
    uft_sym_hit              hits[UFT_SYM_HITS]; /* recent lookups by address: see uft_find_sym_map */
    char                   **perf_files; /* perf-cpu*.dat names, in glob order */
    size_t                   nperf_files;
    char                     demangle;  /* symbol names as --demangle shows them: 's'
                                           simple (also 0), 'f' full, 'n' as stored;
                                           set before the first symbol lookup */
} uft_dir;

typedef struct uft_event_def {
    uint32_t id;
    char    *name;
} uft_event_def;

/* Opens DIR: reads info, task.txt, the maps, events.txt. Returns 0, or -1
   with a message in err. */
int uft_dir_open(uft_dir *d, const char *path, char *err, size_t errlen);

/* uft_dir_open() without its demands (what `info` reads): -1 with a
   message in err when the info file cannot be read, 1 without task.txt,
   else 0. */
int uft_dir_load(uft_dir *d, const char *path, char *err, size_t errlen);

/* The task of tid, or NULL. */
const uft_task *uft_find_task(const uft_dir *d, int32_t tid);

/* The session of task at time (inheriting from parent or leader). */
const uft_session *uft_task_session(const uft_dir *d, const uft_task *t, uint64_t time);
/* The same, with the time window [*from, *to) of the task's own session
   reference the answer came from (empty when it came from a parent). */
const uft_session *uft_task_session_win(const uft_dir *d, const uft_task *t, uint64_t time, uint64_t *from,
                                        uint64_t *to);

/* The symbol at addr in session s (its maps, then the libraries it had
   dlopen()ed by time), or NULL. */
const uft_sym *uft_session_sym(const uft_dir *d, const uft_session *s, uint64_t time, uint64_t addr);

/* The symbol at addr for task at time, or NULL. */
static inline const uft_sym *uft_find_sym(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr);

/* As uft_find_sym; *map (may be NULL) is set to the session map holding
   addr, or NULL when addr is in none (a dlopen()ed library, or unknown). */
static inline const uft_sym *uft_find_sym_map(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr,
                                             const uft_map **map);

/* The lookup behind uft_find_sym_map, which fills d->hits. */
const uft_sym *uft_find_sym_slow(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, const uft_map **map);

static inline uft_sym_hit *uft_sym_hit_slot(uft_dir *d, uint64_t addr)
{
    return &d->hits[(addr ^ addr >> 4 ^ addr >> 8) % UFT_SYM_HITS];
}

static inline const uft_sym *uft_find_sym_map(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr,
                                             const uft_map **map)
{
    const uft_sym_hit *c = uft_sym_hit_slot(d, addr);
    /* Records mostly hit a symbol looked up a moment before (entry and
       exit records carry the function's own address): the answer holds
       while the task's session reference and the symbol's address range
       hold (map symbols only: dlopen ones depend on time). */
    if (c->task == t && time - c->from < c->span && addr >= c->lo && addr - c->lo < c->size) {
        if (map) *map = c->map;
        return c->sym;
    }
    return uft_find_sym_slow(d, t, time, addr, map);
}

static inline const uft_sym *uft_find_sym(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr)
{
    return uft_find_sym_map(d, t, time, addr, NULL);
}

/* Value val of enum `name` as uftrace 0.13 shows it, into buf: the
   definitions of module m (.dbg E: lines; m may be NULL) first, then info
   enumauto. An exact value gives its name, else bit flags "A|B" (with
   "+0x.." for what is left), else the number. */
void uft_enum_text(const uft_dir *d, uft_module *m, const char *name, int32_t val, char *buf, size_t len);

/* uft_enum_text() of an enum argument or return value of the function at
   address func, called by task t at time: the definitions are those of the
   function's module, as in uftrace 0.13's dump and replay. Returns 1, or 0
   (buf untouched) when func is in no map of the task's session (uftrace
   then prints a fallback). */
int uft_func_enum_text(uft_dir *d, const uft_task *t, uint64_t time, uint64_t func, const char *name, int32_t val,
                       char *buf, size_t len);

/* Resolves the argument (is_exit == 0) or return-value spec of the
   function at addr. Returns 1 with *out filled, 0 when no spec applies. */
int uft_resolve_spec(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, int is_exit,
                     uft_spec *out);

/* The lines uftrace 0.13 prints on stdout, before anything else, for the
   spec items it rejects ("Usage: unknown register name: arg1%RAX"): the
   first bad item of each entry of the argspec: and retspec: lines, in the
   order it reads them, once per session. */
void uft_spec_usage(const uft_dir *d, out_buf *out);

/* 1 if tid is in taskinfo:tids and wrote its <tid>.dat. uftrace 0.13
   skips a listed task without one (a shell under `record --force` with
   nothing to record) and its perf records. */
int uft_tid_recorded(const uft_dir *d, int32_t tid);

/* Event name as uftrace prints it, into buf. */
const char *uft_event_name(const uft_dir *d, uint64_t id, char *buf, size_t len);

/* --srcline: "FILE:LINE" of the function at addr called by task t at
   time into buf, as uftrace 0.13's task_find_loc_addr(): the .dbg L: line
   of the F: entry inside the function's symbol (a function of the
   session's maps, not a PLT entry). 0 when there is none. */
int uft_srcline(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, char *buf, size_t len);
/* The same for the function at addr in session s at time. */
int uft_session_srcline(const uft_dir *d, const uft_session *s, uint64_t time, uint64_t addr, char *buf, size_t len);

/* The symbol table of module m (loaded on first use). */
const uft_module *uft_module_symbols(const uft_dir *d, uft_module *m);

/* A symbol name as stored (mangled) into buf as uftrace 0.13 shows it in
   mode d->demangle: simple (uft_demangle_simple), full (libstdc++'s
   __cxa_demangle, as uftrace; loaded when first needed) or unchanged. */
void uft_display_name(const uft_dir *d, const char *name, char *buf, size_t len);

/* realloc() that exits on failure ("tracedec: out of memory", status 2). */
void *uft_xrealloc(void *p, size_t n);
/* calloc(1, n), or "tracedec: out of memory" and exit status 2. */
void *uft_zalloc(size_t n);
/* Appends text to the allocated string *s (NULL: empty). */
void uft_append(char **s, const char *text);

/* Reads a whole file (NUL-terminated); NULL if it cannot. */
char *uft_read_file(const char *path, size_t *len);

#endif
