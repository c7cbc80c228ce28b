/* columns.h - the columns `tracedec report` and `graph` share
   (columns.c): uftrace 0.13's time column, its choice of output fields
   (-f), its names of functions. */
#ifndef TDEC_TOOLS_UFT_COLUMNS_H
#define TDEC_TOOLS_UFT_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"
#include "tools/cli/uftrace/stream.h"

/* uftrace's print_time_unit(): "%3u.%03u UU", the value in the largest
   unit (us, ms, " s", " m", " h") that keeps it under 1000; blank (10
   spaces) for 0. */
void uft_col_time(out_buf *o, uint64_t ns);

/* A column a command can show (uftrace's struct display_field). */
typedef struct uft_field {
    const char *name, *alias; /* as -f names it (alias may be NULL) */
    const char *header;
    int         width;
} uft_field;

#define UFT_MAX_FIELDS 16

/* uftrace's setup_field(): the columns to show, as indexes into table[n]
   (n <= UFT_MAX_FIELDS), in table order, into shown[]; their number.
   spec: the -f value (NULL: the defaults; "none": no column; a leading
   '+': the defaults and these; "all"). defaults: the default columns'
   indexes, ending with -1. An unknown name: uftrace's two lines on out
   ("uftrace: Unknown field name ...") and -1. */
int uft_col_fields(const char *spec, const uft_field *table, size_t n, const int *defaults, int *shown,
                   out_buf *out);

/* The name uftrace shows for the function at addr that task t ran at time
   (its task_find_sym_addr() and symbol_getname()): the symbol's name,
   "linux:schedule" and "linux:schedule (pre-empted)" for the scheduler
   events, else "<hex addr>" (into buf). *size: the symbol's size, left
   alone when there is no symbol. */
const char *uft_col_name(uft_stream *s, uft_stask *t, uint64_t time, uint64_t addr, char *buf, size_t len,
                         uint64_t *size);

#endif
