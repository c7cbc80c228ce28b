/* notes.h - what the CLI says on stderr about an XRay log beside its
   output: the records llvm-xray rejects although they are sound (zero-size
   events, basic arguments without their call, a basic log without
   records), the tolerated damage (unknown actions and metadata kinds,
   EndOfBuffer in v2+, skipped bytes, an unparsable v1 buffer tail). dump
   and the commands built on the trace loader (trace.h) print the same
   notes, in the same words. */
#ifndef TDEC_TOOLS_XRAY_NOTES_H
#define TDEC_TOOLS_XRAY_NOTES_H

#include <stdint.h>

#include "single/tdec_xray.h"
#include "tools/cli/out.h"

typedef struct xray_notes {
    out_buf         *out;   /* flushed before a note (keeps a terminal's order); may be NULL */
    out_buf         *err;
    tdec_xray_header hdr;   /* set once the header is read */
    uint64_t         count; /* notes printed */
    uint64_t         no_call_args;
} xray_notes;

/* The note a record calls for, if any (after the record's own output). */
void xray_notes_record(xray_notes *n, const tdec_xray_record *r, uint64_t offset);

/* A gap item: a warning with its length and reason. */
void xray_notes_gap(xray_notes *n, const tdec_xray_item *it);

/* A v1 buffer tail (after EndOfBuffer) of `size` bytes at offset, of which
   `len` were read (fewer when the log is cut), `nonzero` when one was not
   zero. llvm-xray parses it as records: 1 when that gives len / 8
   "Function Enter: #0" records (all zero, a whole number of them or cut),
   else 0 after a note that explains why it is skipped. */
int xray_notes_padding(xray_notes *n, uint64_t offset, uint64_t size, uint64_t len, int nonzero);

/* A basic log that ended cleanly at `offset` without records. */
void xray_notes_basic_empty(xray_notes *n, uint64_t offset);

#endif
