/* ipt.h - what the files of the Intel PT front end share: ipt.c (its row
   of the table, ptdump's options, dump and info), layer2.c (the events and
   queries commands), flow.c (the flow command) and elf.c (its --elf). */
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

/* elf.c: the sections of ptxed's --elf (the ELF file's bytes, size bytes,
   BASE or 0) appended to out[*count] (room entries in all). Returns 1, or 0
   after an error message on err naming path. */
struct tdec_ipt_section;
int ipt_elf_sections(const uint8_t *file, uint64_t size, uint64_t base, const char *path,
                     struct tdec_ipt_section *out, size_t room, size_t *count, out_buf *err);

/* layer2.c: an event's JSON fields ("event", "status", its fields, the
   time), as `tracedec events --json` prints them, into an open object. */
struct tdec_ipt_event;
void ipt_event_json(out_buf *o, const struct tdec_ipt_event *ev);

/* flow.c: argv[*i] is one of `tracedec flow`'s own options (ptxed's, as
   ipt_parse_opt's CLI_OPT_* answers; the others are ptdump's)? */
int ipt_flow_opt(int argc, char **argv, int *i, out_buf *err);
/* `tracedec flow`: ptxed --no-inst's output. Returns the exit status. */
int ipt_flow(const cli_args *a, const char *path, cli_reader *in, out_buf *out, out_buf *err);

#endif
