/* convert.h - llvm-xray 14's convert and stack on an XRay log loaded as
   llvm-xray loads it (trace.h). tools/cli/xray/convert.c, stack.c. */
#ifndef TDEC_TOOLS_XRAY_CONVERT_H
#define TDEC_TOOLS_XRAY_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"
#include "tools/cli/xray/trace.h"

#include "tools/cli/xray/instrmap.h"

/* Function names as llvm-xray's FuncIdConversionHelper gives them. */
typedef struct xray_names {
    const xray_instrmap *map;  /* NULL: no --instr_map                    */
    int                  symbolize; /* SymbolOrNumber, else the id        */
    int                  demangle;
    char                 buf[32];
} xray_names;

/* The name of function id fid (*len bytes), valid until the next call:
   the id in decimal, or with symbolize its symbol, "#ID" for an id the
   map does not have, "@(HEX)" for an address without a symbol. */
const char *xray_names_get(xray_names *n, int32_t fid, size_t *len);

/* `convert --output-format=yaml`: the whole output. Returns the exit status. */
int xray_convert_yaml(xray_trace *t, xray_names *names, out_buf *out);

/* `convert --output-format=raw` (llvm-xray's default): the records as a
   basic-mode log, byte for byte as llvm-xray writes it. Returns the exit
   status. */
int xray_convert_raw(xray_trace *t, out_buf *out);

/* `convert --output-format=trace_event` (and dump --chrome): the whole
   output, valid JSON also when the log is damaged. Returns the exit status. */
int xray_convert_trace_event(xray_trace *t, xray_names *names, out_buf *out, out_buf *err);

#endif
