/* formats.h - the table main dispatches on: one row (cli_format) per
   format, defined by that format's front end, and what main hands a row.

   main (tools/cli/main.c) parses the command and the common options into a
   cli_args and offers every other argument to the rows' parse_opt. It then
   opens the path and asks detect of every row that reads that kind of
   input (files or directories) and runs that command: the highest answer
   wins, the earlier row on a tie, and its run gets the input. A front end
   keeps its own options (static in its file) and uses only cli.h and out.h
   besides the library: nothing calls back into main.

   A new format: a front end that defines its row, and a place for it in
   main's list (the detection order). */
#ifndef TDEC_TOOLS_FORMATS_H
#define TDEC_TOOLS_FORMATS_H

#include "tools/cli/cli.h"

/* The commands; main.c's cli_commands names them in this order. Most belong
   to one format (replay, report and graph: uftrace; top: ovni; events,
   queries and flow: Intel PT; extract, account, stack and convert: XRay). */
typedef enum cli_command {
    CLI_DUMP, CLI_INFO, CLI_REPLAY, CLI_TOP, CLI_EVENTS, CLI_QUERIES, CLI_FLOW,
    CLI_REPORT, CLI_GRAPH, CLI_EXTRACT, CLI_ACCOUNT, CLI_STACK, CLI_CONVERT
} cli_command;
#define CLI_CMD(c) (1u << (c)) /* a bit of cli_format.commands */

/* How dump (and events, queries, flow) print. */
typedef enum cli_output {
    CLI_OUT_TEXT,  /* the reference tool's text                              */
    CLI_OUT_JSON,  /* --json: one object per line                            */
    CLI_OUT_CHROME /* dump --chrome: Chrome trace-event JSON (DESIGN.md, "The
                      CLI"), printed by the formats with spans; the others
                      refuse it with exit status 2 */
} cli_output;

/* The common options. */
typedef struct cli_args {
    cli_command command;
    cli_output  output;
    int         strict; /* --strict: tolerated anomalies become errors       */
    const char *format; /* --format=NAME (a row's format_names), or NULL     */
    const char *path;   /* FILE or DIR as given (a row's parse_opt may set it:
                           uftrace's -d DIR)                                  */
} cli_args;

/* What main found at the path. */
typedef struct cli_probe {
    int            opened;   /* 0: open(2) failed (cli_reader.open_errno)   */
    int            dir;      /* a directory                                 */
    const uint8_t *head;     /* a file's first chunk (cli_read_first)       */
    size_t         head_len;
} cli_probe;

/* detect's answer, weakest first. */
typedef enum cli_match {
    CLI_NO,
    CLI_GUESS,  /* a weak sign (a file name, a sync pattern somewhere)       */
    CLI_YES,    /* the input's own signature                                 */
    CLI_FORCED  /* the user chose this format (--format, its own options)    */
} cli_match;

/* parse_opt's answer. */
enum {
    CLI_OPT_NONE,   /* not this format's option                              */
    CLI_OPT_TAKEN,  /* taken, its value too (*i moved past it)               */
    CLI_OPT_USAGE,  /* its option with a malformed value: usage, exit 2      */
    CLI_OPT_FAILED  /* a bad value, message printed on err: exit 1 (ptdump's) */
};

typedef struct cli_format {
    const char *name;
    const char *inputs;   /* what it reads, for messages ("ovni trace directories") */
    int         dir;      /* it reads directories (else files)               */
    unsigned    commands; /* CLI_CMD() of each command it runs               */
    int         chrome;   /* its dump takes --chrome (CLI_OUT_CHROME)        */
    /* --format values that choose it (detect answers CLI_FORCED), NULL-
       terminated; NULL when its bytes always tell it. */
    const char *const *format_names;
    /* Called for every input of its kind that main could open and, for
       files, also for one it could not (p->opened == 0). */
    cli_match (*detect)(const cli_args *a, const cli_probe *p);
    /* The lines `tracedec --help` prints for this format: its commands and
       options, each line indented by two spaces and ending in a newline. */
    const char *help;
    /* argv[*i]: is it one of this format's options? (see CLI_OPT_*). main
       offers every argument it does not know itself to each row in turn,
       so a row takes an option only for a->command when that command is
       one it runs (uftrace's -s and XRay's -s differ). NULL: no options. */
    int (*parse_opt)(cli_args *a, int argc, char **argv, int *i, out_buf *err);
    /* Runs a->command on the input: a file's reader (its first chunk still
       pending; fd -1 when it could not be opened), or for a directory an
       unused reader. Returns the exit status: 0 ok, 1 decoding error, 2
       usage or unreadable input. */
    int (*run)(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err);
} cli_format;

/* The rows, one per front end (main.c lists them in detection order). */
extern const cli_format cli_ipt, cli_xtrace, cli_xray, cli_uftrace, cli_ovni;

#endif
