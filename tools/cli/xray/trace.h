/* trace.h - an XRay log as llvm-xray 14 loads it (llvm/lib/XRay/Trace.cpp,
   loadTraceFile): the records that convert, account and stack work on, in
   llvm-xray's order, streamed from the file in two passes.

   What a record is (llvm-xray's XRayRecord):
   - FDR logs: every function record and custom/typed event of a buffer,
     with the CallArgument records that follow it as args (an argument
     makes the record an enter-with-args, whatever its action). The
     function id and the typed-event type are never reset between records
     of one (process, thread): an event takes the id of the last function
     record before it, and after a typed event every record of that thread
     carries its type (LLVM's FDRTraceExpander does so). Records after a
     v1 EndOfBuffer (the buffer's padding) are not records. A v1-v3 custom
     event has CPU 0.
   - basic logs: every normal record with the argument records after it.

   The order (--sort=false): FDR records are grouped per (pid, tid) in the
   iteration order of LLVM's DenseMap of those keys, which is reproduced
   here (its hash, probing and growth); a group's blocks (one per NewBuffer)
   come in the order libstdc++'s std::sort leaves them under LLVM's block
   comparator (seconds < seconds AND micros < micros of their WallTime:
   blocks of the same second are unordered, so many of them get shuffled),
   a block's records in file order. Basic logs: file order.
   --sort (llvm-xray's default): that sequence stable-sorted by TSC.

   How: the first pass (xray_trace_open) reads the file once and keeps one
   small entry per block and per run (a stretch of a block whose TSCs do
   not decrease); the second pass decodes the runs again, one cursor per
   run, merging them by TSC when sorting. Both read the file mapped
   read-only, in windows whose pages are let go every few MB (the resident
   set stays small). Memory grows with the number of blocks and runs
   (about 100 bytes each), not with the records. The input must be a
   regular file that does not change while it is read.

   Logs llvm-xray rejects although they are sound (zero-size events, the
   runtime's typed-event extents bug, basic arguments without their call)
   and tolerated damage give the records tracedec can decode, with the
   notes `tracedec dump` prints on stderr; a cut or corrupt log gives the
   records before the damage, then the error (see xray_trace_status). */
#ifndef TDEC_TOOLS_XRAY_TRACE_H
#define TDEC_TOOLS_XRAY_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "single/tdec_xray.h"
#include "tools/cli/cli.h"

/* Record kinds, numbered as llvm::xray::RecordTypes. */
enum xray_kind {
    XRAY_ENTER, XRAY_EXIT, XRAY_TAIL_EXIT, XRAY_ENTER_ARG, XRAY_CUSTOM_EVENT, XRAY_TYPED_EVENT
};

typedef struct xray_trace_record {
    uint16_t        record_type; /* 0, or the last typed event's type (sticky)  */
    uint16_t        cpu;
    uint8_t         kind;        /* enum xray_kind                              */
    int32_t         fid;         /* function id (events: the last one's)        */
    uint64_t        tsc;
    uint32_t        tid, pid;    /* pid 0 where the log has none (v2: the tid)  */
    const uint64_t *args;        /* nargs call arguments                        */
    size_t          nargs;
    const uint8_t  *data;        /* event payload, data_len bytes               */
    size_t          data_len;
} xray_trace_record;

typedef struct xray_trace xray_trace;

/* The first pass: reads the log from `in` (main's reader, first chunk still
   pending) and indexes it. Notes and the error of a damaged log go to err
   as `tracedec dump` words them (the error also sets xray_trace_status).
   sort: llvm-xray's --sort. Returns 0 and *t, or an exit status (a message
   printed): 1 when the file cannot be read, is no XRay log, or not a
   regular file. */
int xray_trace_open(cli_reader *in, const char *path, int sort, xray_trace **t, out_buf *err);

const tdec_xray_header *xray_trace_header(const xray_trace *t);

/* The next record in llvm-xray's order (valid until the next call), or
   NULL at the end (or when out of memory: see status). */
const xray_trace_record *xray_trace_next(xray_trace *t);

/* After the last record: 0, or 1 when the log was cut or corrupt or a read
   failed (the message is on err). */
int xray_trace_status(const xray_trace *t);

void xray_trace_close(xray_trace *t);

#endif
