/* ipt.h - what the two files of the Intel PT front end share: ipt.c (its
   row of the table, ptdump's options, dump and info), layer2.c (the
   events and queries commands) and flow.c (the flow command). */
#ifndef TDEC_TOOLS_IPT_H
#define TDEC_TOOLS_IPT_H

#include "tools/cli/formats.h"

/* The decoder configuration of the ptdump options: 1, or 0 when --cpu names
   a CPU libipt does not know (no errata then). */
struct tdec_ipt_config;
int ipt_config(struct tdec_ipt_config *cfg);

/* `tracedec events FILE` and `tracedec queries FILE` on the opened `path`
   (libipt's event and query decoder transcripts, docs/ipt.md). Returns the
   exit status. */
int ipt_layer2(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err);

/* flow.c: argv[*i] is one of `tracedec flow`'s own options (ptxed's, as
   ipt_parse_opt's CLI_OPT_* answers; the others are ptdump's)? */
int ipt_flow_opt(int argc, char **argv, int *i, out_buf *err);
/* `tracedec flow`: ptxed --no-inst's output. Returns the exit status. */
int ipt_flow(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err);

#endif
