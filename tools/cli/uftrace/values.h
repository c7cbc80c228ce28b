/* values.h - the text uftrace 0.13 gives argument and return values
   (its get_argspec_string()): replay's "(a, b)" and return value, and the
   same with its JSON escapes for dump --chrome's "args". */
#ifndef TDEC_TOOLS_UFT_VALUES_H
#define TDEC_TOOLS_UFT_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* A text that repeats, kept instead of composed again: a loop calls the
   same functions, so replay (a line after its duration) and dump --chrome
   (an event after its time) keep texts by task, symbol and a key of their
   own (replay: indentation and shape; --chrome: the phase) in a table of
   UFT_KEPT_SLOTS. */
#define UFT_KEPT_SLOTS 64
#define UFT_KEPT_ROOM  192
typedef struct uft_kept {
    const uft_stask *task;
    const uft_sym   *sym; /* NULL: unused */
    long             key;
    size_t           len;
    char             text[UFT_KEPT_ROOM];
} uft_kept;

/* The slot of (sym, key) in table. */
static inline uft_kept *uft_kept_slot(uft_kept *table, const uft_sym *sym, long key)
{
    return &table[(((uintptr_t)sym >> 4) + (uintptr_t)key) % UFT_KEPT_SLOTS];
}

/* Does slot c keep the text of (t, sym, key)? */
static inline int uft_kept_holds(const uft_kept *c, const uft_stask *t, const uft_sym *sym, long key)
{
    return c->sym == sym && c->task == t && c->key == key;
}

/* Keeps text in slot c as that of (t, sym, key), if it fits. */
static inline void uft_kept_store(uft_kept *c, const uft_stask *t, const uft_sym *sym, long key, const char *text,
                                  size_t len)
{
    if (len > UFT_KEPT_ROOM) return;
    c->task = t;
    c->sym = sym;
    c->key = key;
    c->len = len;
    memcpy(c->text, text, len);
}

/* Copies the text slot c keeps to p, which has room for UFT_KEPT_ROOM
   bytes (copies of fixed sizes are faster; the bytes after the text are
   overwritten by what comes next). Returns the end of the text. */
static inline char *uft_kept_put(char *p, const uft_kept *c)
{
    memcpy(p, c->text, 64);
    if (c->len > 64) memcpy(p + 64, c->text + 64, UFT_KEPT_ROOM - 64);
    return p + c->len;
}

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
