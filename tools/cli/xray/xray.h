/* xray.h - what the CLI's XRay row (tools/cli/xray.c) shares with its
   commands (tools/cli/xray/): the options its parse_opt took, in
   llvm-xray 14's spellings, and each command's entry point.

   parse_opt takes an option only for the commands llvm-xray takes it for
   (an option of another XRay command is a usage error, as in llvm-xray).
   LLVM's option syntax: --name=VALUE, --name VALUE, -name=VALUE, -name
   VALUE, and the one-letter alias as -x VALUE or -x=VALUE; a boolean also as
   --name=true|false|1|0. Each helper adding an option adds its field here
   and its lines to xray_parse_opt. */
#ifndef TDEC_TOOLS_XRAY_XRAY_H
#define TDEC_TOOLS_XRAY_XRAY_H

#include "tools/cli/cli.h"

/* The values of the choice options below (ints, as xray_opt_choice
   gives them). */
enum { XRAY_FORMAT_RAW, XRAY_FORMAT_YAML, XRAY_FORMAT_TRACE_EVENT };
enum { XRAY_STACK_HUMAN, XRAY_STACK_FLAME };
enum { XRAY_AGGREGATE_TIME, XRAY_AGGREGATE_COUNT };
enum {
    XRAY_SORT_FUNCID, XRAY_SORT_COUNT, XRAY_SORT_MIN, XRAY_SORT_MED, XRAY_SORT_PCT90,
    XRAY_SORT_PCT99, XRAY_SORT_MAX, XRAY_SORT_SUM, XRAY_SORT_FUNC
};

typedef struct xray_options {
    /* --instr_map=FILE, -m FILE (account, convert, stack): the instrumented
       binary whose map names the function ids; NULL when not given. Load it
       with xray_instrmap_load() (tools/cli/xray/instrmap.h). */
    const char *instr_map;
    /* --symbolize (extract: -s; convert: -y): names instead of ids */
    int symbolize;
    /* --no-demangle after the last --demangle, whatever their values, as
       llvm-xray 14 reads them (extract, convert): C++ names as in the
       symbol table (xray_instrmap_symbol), else demangled
       (xray_instrmap_name) */
    int demangle;
    /* convert --output-format=yaml|trace_event|raw (-f): llvm-xray's
       default is raw */
    int output_format; /* XRAY_FORMAT_* */
    /* convert --sort (-s; the default) / --sort=false: records by TSC */
    int sort;
    /* stack: --keep-going (-k), --per-thread-stacks, --aggregate-threads,
       --all-stacks (--all), --stack-format=human|flame,
       --aggregation-type=time|count */
    int keep_going, per_thread_stacks, aggregate_threads, all_stacks;
    int stack_format; /* XRAY_STACK_* */
    int aggregation;  /* XRAY_AGGREGATE_* */
    /* account: --keep-going (-k, above), --deduce-sibling-calls (-d),
       --sort=KEY (-s; XRAY_SORT_*, llvm-xray's order of the keys),
       --sortorder=dsc (-r), --top=N (-p; rows shown when > 0),
       --format=csv (-f), --recursive-calls-only (only the calls of a
       function that is already on its thread's stack, and the calls that
       enclose them) */
    int deduce_sibling_calls, sort_descending, top, csv, recursive_calls_only;
    int account_sort; /* XRAY_SORT_* */
    /* --output=FILE, -o FILE (extract, convert, account): where the output
       goes (the row's run opens it); NULL or "-": stdout */
    const char *output;
} xray_options;

/* Set by the row's parse_opt before run is called. */
extern xray_options xray_opt;

/* `tracedec extract BINARY`: llvm-xray extract's YAML (extract.c). Returns
   the exit status. */
int xray_extract(const char *path, out_buf *out, out_buf *err);

/* `tracedec convert` (chrome = 0) and `dump --chrome` (1, trace_event) on
   the log at path, read from in (convert.c). Returns the exit status. */
int xray_convert(const char *path, cli_reader *in, int chrome, out_buf *out, out_buf *err);

/* `tracedec stack` on the log at path (stack.c). Returns the exit status. */
int xray_stack(const char *path, cli_reader *in, out_buf *out, out_buf *err);

/* `tracedec account` on the log at path (account.c). Returns the exit
   status. */
int xray_account(const char *path, cli_reader *in, out_buf *out, out_buf *err);

#endif
