/* demangle.h - uftrace 0.13 "simple" C++ demangling, reproduced.
 *
 * uftrace stores mangled names in <module>.sym and demangles them when it
 * loads a symbol table. Its default mode ("simple", utils/demangle.c in
 * uftrace 0.13) prints only the scope chain of a function: no parameter
 * lists, no template arguments, no return types:
 *
 *     _ZNK2ns5Shape4areaEii                       -> ns::Shape::area
 *     _ZN3app7CounterD2Ev                         -> app::Counter::~Counter
 *     _ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC1EPKcRKS3_
 *                                      -> std::__cxx11::basic_string::basic_string
 *     _Znwm                                       -> operator new
 *     _ZN4node8Watchdog7DestroyEv.part.0          -> node::Watchdog::Destroy
 *     _ZTV3Foo                                    -> __vtable__Foo
 *     _GLOBAL__sub_I__ZN1a1bEv                    -> _GLOBAL__sub_I_a::b
 *
 * These functions print exactly what uftrace 0.13 prints, quirks included
 * (it is a small ad-hoc demangler, not the ABI's). Names it rejects, and
 * names that are not mangled at all, come back unchanged, as in uftrace.
 * tests/data/uftrace/demangle.tsv holds the pairs this is checked against,
 * all produced by the real uftrace 0.13 binary.
 *
 * Safe on hostile input: reads never go past the input's terminating NUL,
 * recursion depth and work are bounded (a name uftrace itself would crash or
 * hang on, or one needing more than the bounds, comes back unchanged), the
 * output is truncated to the buffer and always NUL-terminated (when len > 0).
 * No allocation, no global state: thread-safe. C99. */
#ifndef TDEC_DEMANGLE_H
#define TDEC_DEMANGLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What uft_demangle_simple_ex() did. In every case but UFT_DM_DEMANGLED the
   output is a copy of the input. */
enum uft_dm_status {
    UFT_DM_DEMANGLED = 0, /* demangled as uftrace 0.13 does */
    UFT_DM_PLAIN     = 1, /* not a mangled name (no "_Z"): copied */
    UFT_DM_REJECTED  = 2, /* uftrace 0.13 fails on it and keeps it: copied */
    UFT_DM_GAVE_UP   = 3  /* beyond our bounds, or uftrace 0.13 would crash
                             or hang on it: copied */
};

/* Longest input parsed; longer names are copied unchanged (UFT_DM_GAVE_UP). */
#define UFT_DM_MAX_INPUT 1048576u

/* Writes the simple-demangled form of `mangled` into buf[0..len), truncated
   if needed and NUL-terminated (nothing is written when len == 0). Returns
   buf. `mangled` NULL is treated as "". buf must not overlap `mangled`. */
char *uft_demangle_simple(const char *mangled, char *buf, size_t len);

/* The same, returning a uft_dm_status. If `need` is not NULL it receives the
   length of the whole result (excluding the NUL), which may exceed len - 1
   when the output was truncated. */
int uft_demangle_simple_ex(const char *mangled, char *buf, size_t len, size_t *need);

/* Full demangling as LLVM 14's itaniumDemangle prints it (what
   llvm-symbolizer, llvm-xray --symbolize and llvm-cxxfilt show): a malloc'd
   string, or NULL when the name does not start with "_Z" or is not
   demangled (LLVM then shows it as it is). demangle_full.c says what is
   covered. */
char *demangle_full(const char *mangled);

#ifdef __cplusplus
}
#endif

#endif /* TDEC_DEMANGLE_H */
