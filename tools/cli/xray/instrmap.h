/* instrmap.h - an XRay-instrumented program's instrumentation map, as
   llvm-xray's --instr_map (-m) reads it: the ELF's xray_instr_map section
   (sleds: address, function, kind, always-instrument, version), function
   ids numbered as llvm-xray numbers them, and each function's name from the
   ELF symbol table, C++ names demangled. tools/cli/xray/instrmap.c.

   The CLI's XRay commands (extract, convert, account, stack) take names
   only through this interface. */
#ifndef TDEC_TOOLS_XRAY_INSTRMAP_H
#define TDEC_TOOLS_XRAY_INSTRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"

/* One sled, as `llvm-xray extract` lists it. */
typedef struct xray_sled {
    uint64_t address;  /* of the sled                                        */
    uint64_t function; /* of its function's entry                            */
    uint8_t  kind;     /* 0 entry, 1 exit, 2 tail, 3 log-args-enter, 4 custom, 5 typed */
    uint8_t  always_instrument;
    uint8_t  version;
} xray_sled;

typedef struct xray_instrmap xray_instrmap; /* opaque; made by _load */

/* Reads the map of the ELF file at path. Returns 0 and *m, or prints
   llvm-xray's kind of message (with the path) on err and returns the exit
   status (1). */
int xray_instrmap_load(const char *path, xray_instrmap **m, out_buf *err);
void xray_instrmap_free(xray_instrmap *m);

/* The sleds in section order. */
size_t xray_instrmap_sleds(const xray_instrmap *m, const xray_sled **sleds);

/* Function id fid's entry address: 1, or 0 when the map has no such id. */
int xray_instrmap_address(const xray_instrmap *m, int32_t fid, uint64_t *address);

/* The name llvm-xray's symbolizer gives function id fid (demangled), or NULL
   when the id is unknown or its address has no symbol: each command then
   prints its own fallback as llvm-xray does. */
const char *xray_instrmap_name(const xray_instrmap *m, int32_t fid);

#endif
