/* cli.h - helpers shared by main and every front end of the CLI: reading a
   file in CLI_CHUNK pieces, diagnostics on stderr, option values and
   integers of either byte order. They call nothing else of the CLI
   (tools/cli/cli.c); the output module is tools/cli/out.h. */
#ifndef TDEC_TOOLS_CLI_H
#define TDEC_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"

#ifndef CLI_CHUNK /* tests build the CLI with tiny chunks too */
#define CLI_CHUNK (64u * 1024u) /* the CLI reads its input this much at a time */
#endif

/* Reads a file in CLI_CHUNK pieces; main reads the first one whole to
   detect the format (cli_read_first), and cli_read() hands it out first. */
typedef struct cli_reader {
    int      fd;      /* -1: open(2) failed with open_errno                  */
    uint8_t *buf;     /* CLI_CHUNK bytes                                    */
    size_t   pending; /* bytes of the first chunk not yet handed out         */
    int      failed;  /* read(2) failed                                     */
    int      open_errno;
} cli_reader;

/* Fills r->buf with the first chunk: CLI_CHUNK bytes, fewer only at the end
   of the file. 0, or -1 with errno set by read(2). */
int cli_read_first(cli_reader *r);

/* Next chunk: its length, 0 at end of file or on a read error (see failed). */
size_t cli_read(cli_reader *r);

/* "tracedec: LEVEL: [offset N: ]MSG[: DETAIL]" on err, flushed. offset < 0:
   no offset. */
void cli_diag(out_buf *err, const char *level, int64_t offset, const char *msg, const char *detail);

/* "--name=VALUE": VALUE if arg is that option, else NULL. */
const char *cli_opt_value(const char *arg, const char *name);

/* A number option (decimal or 0x hex) into *v: 1, or 0 when malformed. */
int cli_opt_number(const char *s, uint32_t *v);

/* The n-byte (n <= 8) unsigned integer at p, big- or little-endian. */
uint64_t cli_get_uint(const uint8_t *p, unsigned n, int big_endian);

#endif
