/* instrmap.h - an XRay-instrumented program's instrumentation map, as
   llvm-xray's --instr_map (-m) reads it: the ELF's xray_instr_map section
   (sleds: address, function, kind, always-instrument, version), function
   ids numbered as llvm-xray numbers them, and each function's name from the
   ELF symbol table, C++ names demangled. tools/cli/xray/instrmap.c.

   The CLI's XRay commands (extract, convert, account, stack) take names
   only through this interface. The file named by --instr_map (-m) is in
   xray_opt.instr_map (tools/cli/xray/xray.h).

   What is read, as llvm-xray 14 reads it: 64-bit little-endian ELF files
   for x86-64 and AArch64 (ET_EXEC, ET_DYN and ET_REL). Sled entries are 32
   bytes; from version 2 on their address fields are relative to the field's
   own position. A zero address field takes its value from a relocation at
   that place (R_*_RELATIVE, or the 64/32-bit absolute and PC-relative types
   with their symbol), looked up by offset among the entries of every
   SHT_REL/SHT_RELA section of the file, the first one winning: llvm-xray's
   rules, quirks included. Function ids: 1 for the first sled's function,
   and one more each time a sled's function differs from the previous
   sled's. Names: the symbol table (.symtab, or .dynsym when .symtab has no
   symbols) as llvm-symbolizer reads it (the defined function, object and
   untyped symbols; the nearest one at or below the address, among those at
   the same address the largest, then the last; none when the address lies
   past its size), names starting with "_Z" demangled in full as LLVM's
   demangler prints them. Every read of the file is bounds-checked: a
   hostile file gives an error or no names, never more.

   A file that is no ELF file is read as a YAML map, as llvm-xray does:
   the flow style `llvm-xray extract` writes (one "- { id: ..., address:
   ..., function: ..., kind: ..., always-instrument: ... }" a line). It
   gives sleds and ids but no names (llvm-xray's symbolizer cannot read
   such a file either: every function is "@(address)"). */
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
   status (1). The message is account's and convert's ("Cannot open
   instrumentation map 'PATH'", then the reason). */
int xray_instrmap_load(const char *path, xray_instrmap **m, out_buf *err);

/* The same, printing nothing: 0 and *m, or 1 and the reason (llvm-xray's
   second line, e.g. "Exec format error") in why[why_len], for the commands
   whose first line differs (extract, stack). */
int xray_instrmap_open(const char *path, xray_instrmap **m, char *why, size_t why_len);
void xray_instrmap_free(xray_instrmap *m);

/* The sleds in section order. */
size_t xray_instrmap_sleds(const xray_instrmap *m, const xray_sled **sleds);

/* Function id fid's entry address: 1, or 0 when the map has no such id.
   (Ids are 1..N in an ELF map; a YAML map may give any.) */
int xray_instrmap_address(const xray_instrmap *m, int32_t fid, uint64_t *address);

/* The name llvm-xray's symbolizer gives function id fid (demangled), or NULL
   when the id is unknown or its address has no symbol: each command then
   prints its own fallback as llvm-xray does. */
const char *xray_instrmap_name(const xray_instrmap *m, int32_t fid);

/* NULL, or why the file's symbol table cannot be read at all (a broken
   section: wrong entry size, outside the file): then there are no names,
   and llvm-xray stops with this message (LLVM ERROR, abort) as soon as it
   symbolizes, which a command that prints names should do too (exit 1). */
const char *xray_instrmap_symbol_error(const xray_instrmap *m);

/* The same name as the symbol table spells it (--no-demangle). */
const char *xray_instrmap_symbol(const xray_instrmap *m, int32_t fid);

/* Reads the source positions of m's functions from the DWARF line tables
   of the ELF file at path (m's file), for xray_instrmap_where; a YAML map
   or a file without line tables gives none. */
void xray_instrmap_read_lines(xray_instrmap *m, const char *path);

/* The source position llvm-xray account prints for function id fid,
   "FILE:LINE:COLUMN" (xray_instrmap_read_lines), or NULL when there is
   none (account then prints "<invalid>:0:0"). */
const char *xray_instrmap_where(const xray_instrmap *m, int32_t fid);

/* The id llvm-xray gives the function at `function` (the last one given to
   that address), or 0 when no sled names it. */
int32_t xray_instrmap_fid(const xray_instrmap *m, uint64_t function);

#endif
