/* frontends.h - what tools/cli/main.c shares with its per-format front ends:
   command-line options, the chunked file reader and diagnostics. */
#ifndef TDEC_TOOLS_FRONTENDS_H
#define TDEC_TOOLS_FRONTENDS_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"

#ifndef CLI_CHUNK /* tests build the CLI with tiny chunks too */
#define CLI_CHUNK (64u * 1024u) /* the CLI reads its input this much at a time */
#endif

enum cli_command { CLI_DUMP, CLI_INFO, CLI_REPLAY, CLI_TOP, CLI_EVENTS, CLI_QUERIES };

/* Intel PT: ptdump's options (fe_ipt.c parses them; docs/ipt.md). */
typedef struct cli_ipt_opts {
    uint32_t show;      /* ptdump's switches, IPT_O_* bits in fe_ipt.c          */
    int      given;     /* a ptdump-only option was given: the file is PT       */
    int      cpu_set;   /* --cpu f/m[/s] (not "none")                           */
    int      iflags;    /* --iflags: IFLAGS events (events, queries)            */
    uint32_t cpu_family, cpu_model, cpu_stepping;
    uint8_t  mtc_freq, nom_freq;
    uint32_t cpuid_eax, cpuid_ebx;
    int      has_range; /* FILE:FROM[-TO]                                       */
    uint64_t from, size; /* size 0: to the end of the file                      */
} cli_ipt_opts;

typedef struct cli_opts {
    int         command; /* CLI_DUMP, CLI_INFO or CLI_REPLAY                 */
    int         json;    /* dump: JSON lines instead of the reference text    */
    int         hex;     /* ovni dump: payload bytes instead of descriptions  */
    int         ovnidump_ties; /* ovni: equal clocks in ovnidump's heap order */
    const char *format;  /* --format=NAME, or NULL: detect                    */
    /* xtrace readings (docs/xtrace.md): --vl, --snap-header, --time-size,
       --iovec-data, --big-endian, --token-size */
    uint32_t        xt_vl, xt_time_size;
    uint32_t        xt_snap_header; /* 0 auto, 1 present, 2 absent (TDEC_XTRACE_HDR_*) */
    int             xt_iovec_data, xt_big_endian;
    const uint32_t *xt_token_size; /* 256 sizes by token byte, or NULL      */
    int         strict;  /* tolerated anomalies become errors                */
    cli_ipt_opts ipt;    /* Intel PT (ptdump's options)                      */
    const char *path;
} cli_opts;

/* Reads a file in CLI_CHUNK pieces; the first chunk was read for detection. */
typedef struct cli_reader {
    int      fd;         /* -1: open(2) failed with open_errno (PT reports it) */
    uint8_t *buf;        /* CLI_CHUNK bytes                                   */
    size_t   pending;    /* bytes of the first chunk not yet handed out        */
    int      failed;     /* read(2) failed                                    */
    int      open_errno;
} cli_reader;

/* Next chunk: its length, 0 at end of file or on a read error (see failed). */
size_t cli_read(cli_reader *r);

/* Diagnostics on stderr, prefixed "tracedec: ". offset < 0: no offset. */
void cli_diag(out_buf *err, const char *level, int64_t offset, const char *msg, const char *detail);

/* XRay: fe_xray.c */
int fe_xray_detect(const uint8_t *p, size_t n);
int fe_xray_run(const cli_opts *opt, cli_reader *in, out_buf *out, out_buf *err);

/* uftrace: fe_uftrace.c (a data directory) */
int fe_uftrace_detect_dir(const char *path);
int fe_uftrace_run(const cli_opts *opt, out_buf *out, out_buf *err);
/* `tracedec dump --json DIR`: fe_uftrace_json.c (docs/uftrace.md) */
int fe_uftrace_json(const cli_opts *opt, out_buf *out, out_buf *err);
/* `tracedec replay DIR`: fe_uftrace_replay.c */
int fe_uftrace_replay(const cli_opts *opt, out_buf *out, out_buf *err);

/* xtrace: fe_xtrace.c (detected by file name, or --format=xtrace[-snapshot]) */
int fe_xtrace_detect(const char *path);
int fe_xtrace_run(const cli_opts *opt, cli_reader *in, out_buf *out, out_buf *err);

/* ovni: fe_ovni.c (a trace directory, any layout) */
int fe_ovni_detect_dir(const char *path);
int fe_ovni_run(const cli_opts *opt, out_buf *out, out_buf *err);

/* Intel PT: fe_ipt.c. A trace is PT when it starts with a PSB, or with
   --format=ipt, a ptdump option or a FILE:FROM[-TO] range; fe_ipt_maybe()
   is the last guess (a .pt name, or a PSB somewhere in the first chunk). */
int fe_ipt_detect(const uint8_t *p, size_t n);
int fe_ipt_maybe(const char *path, const uint8_t *p, size_t n);
/* argv[*i] is one of ptdump's options: 1 (its value consumed, *i moved on),
   0 not one, -1 bad value (ptdump's message on err; exit status 1). */
int fe_ipt_parse_opt(cli_opts *o, int argc, char **argv, int *i, out_buf *err);
/* ptdump's FILE[:FROM[-TO]]: 1 with the name in path[cap] and the range,
   0 when arg has no range suffix, -1 for TO <= FROM. */
int fe_ipt_range(const char *arg, char *path, size_t cap, uint64_t *from, uint64_t *size);
int fe_ipt_run(const cli_opts *opt, cli_reader *in, out_buf *out, out_buf *err);
/* The decoder configuration of the ptdump options: 1, or 0 when --cpu names
   a CPU libipt does not know (no errata then). */
struct tdec_ipt_config;
int fe_ipt_config(const cli_opts *opt, struct tdec_ipt_config *cfg);
/* `tracedec events FILE` and `tracedec queries FILE`: fe_ipt_layer2.c
   (libipt's event and query decoder transcripts, docs/ipt.md). */
int fe_ipt_layer2(const cli_opts *opt, cli_reader *in, out_buf *out, out_buf *err);

#endif
