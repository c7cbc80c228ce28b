/* account.h - `tracedec account`: llvm-xray account's per-function latency
   statistics (count, min, median, 90th and 99th percentile, max, sum of the
   call durations), in its text and CSV layouts. tools/cli/xray/account.c.

   The accountant follows llvm-xray 14 record by record: the records in
   LLVM's own (unsorted) order, one call stack per thread, the same rules
   for exits that match no enter, and its hash maps' iteration order where
   that order shows (rows that sort equal, the thread dumps on errors).
   Exact percentiles need every duration: it keeps one 8-byte duration per
   call (docs/xray.md). */
#ifndef TDEC_TOOLS_XRAY_ACCOUNT_H
#define TDEC_TOOLS_XRAY_ACCOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"
#include "tools/cli/xray/instrmap.h"

/* --sort's keys, in llvm-xray's order. */
typedef enum xray_account_key {
    XRAY_ACCT_FUNCID, XRAY_ACCT_COUNT, XRAY_ACCT_MIN, XRAY_ACCT_MED, XRAY_ACCT_PCT90,
    XRAY_ACCT_PCT99, XRAY_ACCT_MAX, XRAY_ACCT_SUM, XRAY_ACCT_FUNC
} xray_account_key;

typedef struct xray_account_opts {
    int              keep_going; /* --keep-going, -k                              */
    int              deduce;     /* --deduce-sibling-calls, -d                     */
    int              csv;        /* --format=csv, -f csv                           */
    int              descending; /* --sortorder=dsc, -r dsc                        */
    xray_account_key sort;       /* --sort, -s                                     */
    int32_t          top;        /* --top, -p: rows shown when > 0                 */
} xray_account_opts;

/* argv[*i], for the account command: one of its options (formats.h's
   CLI_OPT_* answers; a value may be the next argument). */
int xray_account_opt(xray_account_opts *o, int argc, char **argv, int *i);

/* What the accountant reads of one of LLVM's XRayRecords. */
typedef enum xray_account_type {
    XRAY_ACCT_ENTER, XRAY_ACCT_EXIT, XRAY_ACCT_TAIL_EXIT, XRAY_ACCT_ENTER_ARG, XRAY_ACCT_CUSTOM,
    XRAY_ACCT_TYPED
} xray_account_type;

typedef struct xray_account_record {
    uint16_t          record_type; /* LLVM's RecordType field (printed on errors) */
    uint16_t          cpu;
    xray_account_type type;
    int32_t           fid;
    uint64_t          tsc;
    uint32_t          tid, pid;
} xray_account_record;

typedef struct xray_account xray_account; /* opaque */

/* names: the instrumentation map, or NULL (ids print as "#N"). err gets
   the error reports of records that do not fit. NULL when out of memory. */
xray_account *xray_account_new(const xray_account_opts *o, const xray_instrmap *names, out_buf *err);
void xray_account_free(xray_account *acc);

/* Accounts one record: 1, or 0 after reporting it on err as llvm-xray does
   (the caller stops unless keep_going). -1 when out of memory. */
int xray_account_add(xray_account *acc, const xray_account_record *r);

/* The table, for a log whose header gives cycle_frequency (0: durations
   stay in cycles). 0, or -1 when out of memory. */
int xray_account_print(xray_account *acc, uint64_t cycle_frequency, out_buf *out);

#endif
