/* opts.h - the options of the uftrace commands, as uftrace 0.13 names and
   reads them (uftrace.c's getopt table and parse_option()), and the
   recording's default.opts applied after them as uftrace does.

   One table (opts.c, uft_optdefs) lists every option: its short and long
   name, whether it takes a value, the commands that take it on the
   command line, and the function that stores it in a uft_opts. A command
   adds its options by adding rows (and fields below). The row's parse_opt
   (uftrace.c) calls uft_opts_parse(); run then calls uft_opts_default()
   and hands the result to the command, which hands it to the stream
   (uft_stream_open_opts: the filters live there, as in uftrace's fstack). */
#ifndef TDEC_TOOLS_UFT_OPTS_H
#define TDEC_TOOLS_UFT_OPTS_H

#include <stdint.h>

#include "tools/cli/formats.h"

/* uftrace's OPT_DEPTH_DEFAULT and OPT_DEPTH_MAX (-D) */
#define UFT_DEPTH_DEFAULT 1024
#define UFT_DEPTH_MAX     65535

typedef struct uft_opts {
    /* what the stream applies (uftrace's fstack) */
    char    *filter;     /* -F FUNC and -N FUNC (as "!FUNC"), joined by ';' */
    char    *trigger;    /* -T FUNC@ACT[,ACT...], joined by ';'             */
    long     depth;      /* -D N (UFT_DEPTH_DEFAULT)                         */
    uint64_t threshold;  /* -t TIME in ns, 0: none                          */
    char    *tid;        /* --tid TID[,TID...], joined by ';'; NULL: all    */
    char     match;      /* --match: 'r' regex (default), 'g' glob           */
    int      no_event;   /* --no-event: no events at all                     */
    int      event_full; /* --event-full: events outside user functions too  */
    /* what replay's printer applies */
    int         no_libcall;   /* --no-libcall: PLT functions hidden          */
    int         no_args;      /* --no-args                                   */
    char       *fields;       /* -f FIELD[,FIELD...] as given, NULL: default */
    int         flat;         /* --flat                                      */
    int         srcline;      /* --srcline                                   */
    int         task_newline; /* --task-newline                              */
    int         column_view;  /* --column-view                               */
    long        column_offset;/* --column-offset N (8)                       */
    int         no_comment;   /* --no-comment                                */
    int         no_merge;     /* --no-merge                                  */
    char        demangle;     /* --demangle: 's' simple (default), 'f' full, 'n' no */
    /* dump's views (--chrome is main's CLI_OUT_CHROME) */
    int         flame_graph;  /* --flame-graph                               */
    int         graphviz;     /* --graphviz                                  */
    /* what info, report and graph apply */
    int         task;         /* --task                                      */
    const char *sort;         /* -s KEY[,KEY...] as given, NULL: default     */
    int         avg_total;    /* --avg-total                                 */
    int         avg_self;     /* --avg-self                                  */
    const char *func;         /* graph FUNC, NULL: the whole graph           */
    /* uftrace's "Usage: ..." lines about ignored values, which it prints on
       stdout before anything else: the command prints them first */
    char       *usage;
} uft_opts;

/* uftrace's defaults. */
void uft_opts_init(uft_opts *o);

/* Is argv[*i] an option of command cmd? CLI_OPT_NONE, or CLI_OPT_TAKEN
   (stored; *i moved past its value), CLI_OPT_USAGE (a value missing or
   malformed), CLI_OPT_FAILED (message on err). -d DIR / --data=DIR sets
   *path (CLI_OPT_USAGE when a path was given already). */
int uft_opts_parse(uft_opts *o, cli_command cmd, const char **path, int argc, char **argv, int *i, out_buf *err);

/* Applies DIR/default.opts as uftrace 0.13 does for its analysis
   commands: the options in it are read after the command line's, those of
   every command (a -t there yields to the command line's); options
   tracedec does not know are named in a note on err. Returns 0, or 1 when
   a value there stops uftrace too (message on err). */
int uft_opts_default(uft_opts *o, const char *dir, out_buf *err);

#endif
