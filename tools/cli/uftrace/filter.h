/* filter.h - uftrace 0.13's filters and triggers (-F, -N, -T: its
   utils/filter.c) as tables of address ranges per session: each term
   "[!]PATTERN[@ACTION[,ACTION...]]" is matched (regex, glob or exactly)
   against the symbol names of every module mapped in the session (or of
   the module its non-action word names), and every symbol it matches
   becomes a range carrying the term's trigger; terms that match the same
   symbol merge their triggers. The stream (stream.c) looks up a
   function's address there at its entry, as uftrace's fstack does. */
#ifndef TDEC_TOOLS_UFT_FILTER_H
#define TDEC_TOOLS_UFT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/uftrace/dir.h"

/* trigger flags (uftrace's TRIGGER_FL_*, those tracedec acts on) */
#define UFT_TR_FILTER    0x0001u /* -F / -N, @filter, @notrace: fmode       */
#define UFT_TR_DEPTH     0x0002u /* @depth=N                                */
#define UFT_TR_TRACE_ON  0x0004u /* @trace_on                               */
#define UFT_TR_TRACE_OFF 0x0008u /* @trace_off                              */
#define UFT_TR_TIME      0x0010u /* @time=TIME: a time filter below it      */
#define UFT_TR_HIDE      0x0020u /* @hide                                   */
#define UFT_TR_TRACE     0x0040u /* @trace: shown whatever the time filter  */
#define UFT_TR_BACKTRACE 0x0080u /* @backtrace                              */

typedef struct uft_trigger {
    unsigned flags;
    char     fmode; /* UFT_TR_FILTER: 'i' shown (-F), 'o' hidden (-N)  */
    long     depth; /* UFT_TR_DEPTH                                      */
    uint64_t time;  /* UFT_TR_TIME, in ns                                */
} uft_trigger;

typedef struct uft_filter {
    uint64_t    start, end; /* absolute addresses of the symbol */
    uft_trigger tr;
} uft_filter;

/* The ranges of one session, sorted by start. */
typedef struct uft_session_filters {
    const uft_session *sess;
    uft_filter        *f;
    size_t             n, cap;
} uft_session_filters;

/* A lookup of uft_filters_match(), kept: functions are entered again and
   again. */
typedef struct uft_filter_hit {
    const uft_session *sess; /* NULL: unused */
    uint64_t           addr;
    const uft_trigger *tr;
} uft_filter_hit;
#define UFT_FILTER_HITS 64

typedef struct uft_filters {
    uft_filter_hit       hits[UFT_FILTER_HITS];
    uft_session_filters *sess; /* one per session of the directory */
    size_t               nsess;
    size_t               count; /* ranges in all sessions */
    char                 mode;  /* uftrace's fstack_filter_mode: 0 none, 'i' some -F, 'o' only -N */
    int                  time;  /* some trigger has UFT_TR_TIME */
} uft_filters;

/* Builds the tables of filter_str (-F/-N terms) and trigger_str (-T
   terms), either may be NULL, with patterns of kind match ('r' regex, 'g'
   glob, 's' exact) against the names d shows (d->demangle). As uftrace: when the filters match no symbol (or the triggers
   none), the line "Usage: failed to set filter or trigger: ..." is
   appended to *usage and what is left is not set up. */
void uft_filters_setup(uft_filters *fs, uft_dir *d, const char *filter_str, const char *trigger_str, char match,
                       char **usage);
void uft_filters_free(uft_filters *fs);

/* The trigger of the range of session s holding addr, or NULL. */
const uft_trigger *uft_filters_match(uft_filters *fs, const uft_session *s, uint64_t addr);

#endif
