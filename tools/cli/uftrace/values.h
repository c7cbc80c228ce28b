/* values.h - the text uftrace 0.13 gives argument and return values
   (its get_argspec_string()): replay's "(a, b)" and return value, and the
   same with its JSON escapes for dump --chrome's "args". */
#ifndef TDEC_TOOLS_UFT_VALUES_H
#define TDEC_TOOLS_UFT_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/uftrace/stream.h"

/* A piece of a line being built (argument lists can be long); what does
   not fit is cut. */
typedef struct uft_text {
    char   buf[8192];
    size_t len;
} uft_text;

void uft_text_put(uft_text *s, const char *p, size_t n);
void uft_text_puts(uft_text *s, const char *p);
#if defined(__GNUC__) || defined(__clang__)
void uft_text_printf(uft_text *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#else
void uft_text_printf(uft_text *s, const char *fmt, ...);
#endif

/* Character c as uftrace 0.13's print_json_escaped_char() writes it
   into a JSON string: '\\' and '"' escaped, newline and tab as two
   backslashes and n or t, other bytes outside ' '..'~' as two backslashes,
   x and two hex digits. */
void uft_json_escaped(uft_text *s, char c);

/* The values of record r of task t appended to s: "(a, b)" for an entry
   (is_exit 0), the first return value for an exit. json: strings and
   chars with uftrace's JSON escapes (print_json_escaped_char()), as inside
   a JSON string, else replay's. */
void uft_values_text(uft_stream *st, uft_stask *t, const uft_view *r, int is_exit, int json, uft_text *s);

/* The symbol name of a pointer value v of task t at time, as replay
   resolves it (the scheduler pseudo functions included), or NULL. */
const char *uft_ptr_name(uft_stream *st, uft_stask *t, uint64_t time, uint64_t v);

#endif
