/* read.h - reading the record files of a uftrace data directory, shared
   by `tracedec dump` (dump.c, json.c) and `tracedec replay` (replay.c): a
   <tid>.dat file as complete records (with their argument values or event
   data, specs resolved through uft_dir), a perf-cpuN.dat file as its
   scheduler/task records, the text of builtin event data, and the error
   line. Each reader streams its file through its own CLI_CHUNK buffer;
   nothing holds more than one record. */
#ifndef TDEC_TOOLS_UFT_READ_H
#define TDEC_TOOLS_UFT_READ_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"
#include "tools/cli/uftrace/dir.h"

/* Event data bytes kept per record (the largest builtin event has 24). */
#define UFT_EVENT_KEEP 64u
/* Room for the type names (enum / struct) of one block. */
#define UFT_NAMES_ROOM (TDEC_UFTRACE_MAX_ARGS * 32u)

/* One value of an argument / return-value block. */
typedef struct uft_val {
    tdec_uftrace_arg arg;    /* kind, format letter, size                      */
    uint64_t         value;  /* INT, CHAR: the first `size` bytes               */
    uint8_t          raw[12];/* INT, CHAR, FLOAT: the bytes as stored (padded) */
    uint16_t         off, len;           /* STRING, STDSTRING, STRUCT: bytes[] */
    uint16_t         name_off, name_len; /* enum / struct type name: bytes[]   */
} uft_val;

/* A complete record of a <tid>.dat file. */
typedef struct uft_rec {
    tdec_uftrace_record rec;    /* ENTRY, EXIT, LOST or EVENT (ARG fields unused) */
    uint64_t            offset; /* of the record in its file                    */
    uint32_t            block_len;  /* argument block: uftrace dump's length    */
    uint32_t            nvals;
    int                 incomplete; /* the payload was cut by an error, which the
                                       next uft_task_next() reports             */
    uint32_t            nbytes;     /* bytes[] in use: the event data kept, or
                                       the values' bytes and type names      */
    uft_val             vals[TDEC_UFTRACE_MAX_ARGS];
    uint8_t             bytes[TDEC_UFTRACE_MAX_BLOCK + UFT_NAMES_ROOM + UFT_EVENT_KEEP];
} uft_rec;

/* Where reading failed, for uft_fail(). */
typedef struct uft_error {
    uint64_t    offset;
    const char *what;
    char        detail[256];
} uft_error;

typedef struct uft_task_reader {
    uft_dir             *dir;
    const uft_task      *task;
    int32_t              tid;
    char                 path[4096];
    int                  fd;
    uint8_t             *buf;    /* CLI_CHUNK bytes */
    tdec_uftrace_decoder d;
    uft_spec             spec;   /* of the block being read */
    int                  state;  /* 0 reading, 1 error pending, 2 failed, 3 ended */
    uft_error            err;
} uft_task_reader;

/* Opens DIR/<tid>.dat. 0, or -1 with r->err set (offset 0). A task of
   taskinfo without a file (uft_tid_recorded() 0) reads as empty. */
int uft_task_open(uft_task_reader *r, uft_dir *dir, int32_t tid);
/* The next record: 1 (*out filled), 0 at the clean end of the file, -1 on
   an error (r->err). A record whose payload an error cut short comes out
   first with out->incomplete set. */
static inline int uft_task_next(uft_task_reader *r, uft_rec *out);
void uft_task_close(uft_task_reader *r);

/* The part of uft_task_next() behind its common case: a stopped reader,
   records with a payload, the end of a chunk, errors. st and *it are the
   decoder's answer to uft_task_next() when r->state is 0. */
int uft_task_next_slow(uft_task_reader *r, uft_rec *out, tdec_status st, tdec_uftrace_item *it);

/* Starts *o with a record that is not an ARG (o->rec's ARG fields are
   left alone: unused), field by field (UFT_OPAQUE: the decoder has just
   stored them). */
static inline void uft_rec_begin(uft_rec *o, const tdec_uftrace_record *rec, uint64_t offset)
{
    uint32_t type = rec->type, more = rec->more, depth = rec->depth, magic = rec->magic;
    uint64_t time = rec->time, addr = rec->addr, payload_size = rec->payload_size;
    UFT_OPAQUE(type);
    UFT_OPAQUE(more);
    UFT_OPAQUE(depth);
    UFT_OPAQUE(magic);
    UFT_OPAQUE(time);
    UFT_OPAQUE(addr);
    UFT_OPAQUE(payload_size);
    o->rec.type = type;
    o->rec.more = more;
    o->rec.depth = depth;
    o->rec.magic = magic;
    o->rec.time = time;
    o->rec.addr = addr;
    o->rec.payload_size = payload_size;
    o->offset = offset;
    o->block_len = 0;
    o->nvals = 0;
    o->nbytes = 0;
    o->incomplete = 0;
}

static inline int uft_task_next(uft_task_reader *r, uft_rec *out)
{
    tdec_uftrace_item it;
    tdec_status st = TDEC_OK;
    if (r->state == 0) {
        st = tdec_uftrace_next(&r->d, &it);
        /* the common record, complete in itself */
        if (st == TDEC_OK && it.kind == TDEC_ITEM_RECORD && it.u.rec.type <= TDEC_UFTRACE_REC_EVENT && !it.u.rec.more) {
            uft_rec_begin(out, &it.u.rec, it.offset);
            return 1;
        }
    }
    return uft_task_next_slow(r, out, st, &it);
}

typedef struct uft_perf_reader {
    char                      path[4096];
    int                       fd;
    uint8_t                  *buf;
    tdec_uftrace_perf_decoder d;
    int                       state; /* 0 reading, 2 failed, 3 ended */
    uint64_t                  offset; /* of the record uft_perf_next() returned last */
    uft_error                 err;
} uft_perf_reader;

int uft_perf_open(uft_perf_reader *r, const uft_dir *dir, const char *path);
/* The next COMM, EXIT, FORK or SWITCH record (others are skipped): 1, 0 at
   the end, -1 on an error (r->err). */
int uft_perf_next(uft_perf_reader *r, tdec_uftrace_perf_record *out);
void uft_perf_close(uft_perf_reader *r);

/* The event id uftrace gives a perf record (200001 ... 200007), 0 if none. */
uint32_t uft_perf_event_id(const tdec_uftrace_perf_record *r);

/* Text of the data of builtin event id (100001 ... 100011) as uftrace's
   event_get_data_str() words it; `verbose` (replay) marks diff values with
   '+' and adds the ratios of pmu diffs. Empty when there is none. */
void uft_event_data_text(const uft_dir *d, uint64_t id, const uint8_t *data, size_t n, int verbose, char *buf,
                         size_t len);

/* The type name of value v of rec ("" if none), NUL-terminated into buf. */
const char *uft_val_type_name(const uft_rec *rec, const uft_val *v, char *buf, size_t len);

/* What `tracedec dump` shows of a directory, for its text and JSON
   printers: the records of each <tid>.dat in taskinfo order, then those of
   traced tasks in each non-empty perf-cpuN.dat. uftrace 0.13 opens the
   perf files in glob order and labels each by its index in that list
   (perf-cpu10.dat is "perf-cpu2.dat" when there are 11 or more). */
typedef struct uft_dump_printer {
    void *ctx;
    void (*start)(void *ctx, uft_dir *dir, out_buf *out); /* the header */
    void (*task)(void *ctx, int32_t tid);          /* a <tid>.dat begins        */
    void (*record)(void *ctx, const uft_rec *rec);
    void (*perf)(void *ctx, size_t index, const char *name); /* a perf file begins */
    void (*perf_record)(void *ctx, const tdec_uftrace_perf_record *r, uint64_t offset);
} uft_dump_printer;

/* Opens the directory at path (uft_open_dir) and hands p everything a dump
   shows; a reading error is reported (uft_fail) and ends it. Returns the
   exit status. */
int uft_dump_dir(const char *path, const uft_dump_printer *p, out_buf *out, out_buf *err);

/* "tracedec: error: FILE: offset N: WHAT: DETAIL" on err, after flushing
   out (everything decoded before is printed). Returns 1. */
int uft_fail(out_buf *out, out_buf *err, const char *file, uint64_t off, const char *what, const char *detail);

/* Opens the directory for a front end: errors and the "kernel data is not
   supported" warning go to err. An info file whose sections uftrace 0.13
   cannot read is an error (uft_info_check()), as uftrace refuses it.
   Returns 0, or 1 (the exit status) on error. */
int uft_open_dir(uft_dir *dir, const char *path, out_buf *err);

#endif
