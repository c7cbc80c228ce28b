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
#include "tools/cli/out.h"

typedef struct xray_options {
    /* --instr_map=FILE, -m FILE (account, convert, stack): the instrumented
       binary whose map names the function ids; NULL when not given. Load it
       with xray_instrmap_load() (tools/cli/xray/instrmap.h). */
    const char *instr_map;
    /* --symbolize (extract: -s; convert: -y): names instead of ids */
    int symbolize;
    /* --demangle (the default) / --no-demangle (extract, convert): C++
       names demangled (xray_instrmap_name) or as in the symbol table
       (xray_instrmap_symbol) */
    int demangle;
} xray_options;

/* Set by the row's parse_opt before run is called. */
extern xray_options xray_opt;

/* `tracedec extract BINARY`: llvm-xray extract's YAML (extract.c). Returns
   the exit status. */
int xray_extract(const char *path, out_buf *out, out_buf *err);

/* account's own options (account.c): one of them at argv[*i] (formats.h's
   CLI_OPT_* answers; a value may be the next argument, *i moves past it). */
int xray_account_opt(int argc, char **argv, int *i);

/* `tracedec account FILE`: llvm-xray account's table (account.c), the log
   read from `in` (main's reader). Returns the exit status. */
int xray_account(const char *path, cli_reader *in, out_buf *out, out_buf *err);

#endif
