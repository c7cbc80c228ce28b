/* demangle.c - uftrace 0.13 "simple" C++ demangling, reproduced (see
 * demangle.h).
 *
 * uftrace's simple demangler is a hand-written recursive-descent reader of
 * the Itanium C++ ABI mangling that keeps only scope names. It is lenient
 * and quirky: some failures are ignored by callers and then steer the rest
 * of the parse (the read position backs up, counters stay raised), numbers
 * are read like strtoul(..., 0) (so "010" is octal), a ".suffix" or "@ver"
 * ends the name, and what it prints depends on whether it is inside a type
 * or inside template arguments. This file is an independent implementation
 * of that behaviour, written from a study of it and checked name by name
 * against the real uftrace 0.13 binary (tests/data/uftrace/demangle.tsv,
 * and several hundred thousand more real and mutated names during
 * development), so all of those quirks are modelled on purpose; the
 * comments name the ones that matter.
 *
 * Reading model. The parser keeps a read position `at` and a logical end
 * `end` (the input length, or the position of a '.'/'@' suffix once seen).
 * peek(k) yields 0 past `end`, and the character at `end` itself (which is
 * NUL, '.' or '@'); consuming n characters past `end` does nothing. Every
 * read stays within the input's NUL.
 *
 * Bounds. Recursion goes through five "hub" rules (name, encoding, type,
 * template argument, expression); every cycle of the grammar passes one,
 * so counting hub depth bounds the stack. Loop iterations and hub entries
 * are counted too. Over either bound, or on a name where uftrace itself
 * would crash or loop forever, the parse is abandoned with longjmp and the
 * input is returned unchanged. */
#include "tools/cli/uftrace/demangle.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#define HUB_DEPTH_MAX 256
#define GLOBAL_PREFIX "_GLOBAL__sub_I_"
#define GLOBAL_PREFIX_LEN 15

typedef struct dm {
    const char *s;        /* text being parsed (after any _GLOBAL__sub_I_) */
    int end;              /* logical end of the text */
    int at;               /* read position */
    int nest;             /* balance counter: must be 0 after a good parse */
    int in_type;          /* > 0: inside a type (names not printed) */
    int in_targs;         /* > 0: inside template arguments (ditto) */
    int tinfo;            /* vtable/typeinfo/...: type names are printed */
    int first;            /* no scope printed yet: no "::" before the next */
    int no_discrim;       /* reference temporaries: no discriminator */
    int err_seen;         /* an error was recorded (see expect()) */
    int depth;            /* hub recursion depth */
    unsigned long steps, max_steps;
    /* output: `on` characters logically, the first `lim` kept in `o` */
    char *o;
    size_t lim;
    size_t on;
    size_t base;          /* length of a _GLOBAL__sub_I_ prefix in o */
    size_t colon;         /* 1 + index of the last ':' printed, 0 if none */
    int have;             /* anything printed at all (even "") */
    jmp_buf bail;
} dm;

/* ---------------------------------------------------------------- basics */

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int one_of(char c, const char *set)
{
    return c != 0 && strchr(set, c) != NULL;
}

static void give_up(dm *d)
{
    longjmp(d->bail, 1);
}

static void tick(dm *d)
{
    if (++d->steps > d->max_steps)
        give_up(d);
}

static int at_end(const dm *d) { return d->at >= d->end; }

static char peek(const dm *d, int k)
{
    return d->at + k > d->end ? 0 : d->s[d->at + k];
}

static char cur(const dm *d) { return peek(d, 0); }

/* Consumes n characters unless that would pass the end; returns the
   character that was current (0 when nothing was consumed). */
static char take(dm *d, int n)
{
    char c = cur(d);
    if (d->at + n > d->end)
        return 0;
    d->at += n;
    return c;
}

static void move_back(dm *d, int n)
{
    d->at -= n;
    if (d->at < 0)
        give_up(d); /* uftrace would read before the name */
}

/* A failure that backs the position up by `back` characters (uftrace does
   this even where the caller goes on after the failure). */
static int fail_back(dm *d, int back)
{
    move_back(d, back);
    d->err_seen = 1;
    return -1;
}

/* Consumes one character that must be `want`. On a mismatch the position
   backs up by one, but only for the first error of the whole parse. */
static int expect(dm *d, char want)
{
    if (take(d, 1) == want)
        return 0;
    if (!d->err_seen) {
        d->err_seen = 1;
        move_back(d, 1);
    }
    return -1;
}

/* ---------------------------------------------------------------- output */

static void emit(dm *d, const char *p, size_t n)
{
    size_t i;
    d->have = 1;
    for (i = 0; i < n; i++) {
        if (d->on < d->lim)
            d->o[d->on] = p[i];
        d->on++;
        if (p[i] == ':')
            d->colon = d->on;
    }
}

static void emit_str(dm *d, const char *p)
{
    emit(d, p, strlen(p));
}

/* "::" before every printed scope but the first. */
static void scope_sep(dm *d)
{
    if (!d->first)
        emit(d, "::", 2);
    d->first = 0;
}

/* Constructors and destructors repeat the text after the last ':'. */
static void emit_ctor(dm *d, int dtor)
{
    size_t from, to, i;
    if (!d->have)
        give_up(d); /* uftrace dereferences its NULL output here */
    from = d->colon ? d->colon : d->base;
    to = d->on;
    emit_str(d, dtor ? "::~" : "::");
    for (i = from; i < to; i++) {
        /* a character past lim is copied to past lim: not stored anyway */
        char c = i < d->lim ? d->o[i] : '?';
        if (d->on < d->lim)
            d->o[d->on] = c;
        d->on++;
    }
}

/* ------------------------------------------------------------ the tables */

static const struct { char code[3]; const char *text; } ops[] = {
    { "nw", " new" }, { "na", " new[]" }, { "dl", " delete" },
    { "da", " delete[]" }, { "ps", "+" }, { "ng", "-" }, { "ad", "&" },
    { "de", "*" }, { "co", "~" }, { "pl", "+" }, { "mi", "-" }, { "ml", "*" },
    { "dv", "/" }, { "rm", "%" }, { "an", "&" }, { "or", "|" }, { "eo", "^" },
    { "aS", "=" }, { "pL", "+=" }, { "mI", "-=" }, { "mL", "*=" },
    { "dV", "/=" }, { "rM", "%=" }, { "aN", "&=" }, { "oR", "|=" },
    { "eO", "^=" }, { "ls", "<<" }, { "rs", ">>" }, { "lS", "<<=" },
    { "rS", ">>=" }, { "eq", "==" }, { "ne", "!=" }, { "lt", "<" },
    { "gt", ">" }, { "le", "<=" }, { "ge", ">=" }, { "nt", "!" },
    { "aa", "&&" }, { "oo", "||" }, { "pp", "++" }, { "mm", "--" },
    { "cm", "," }, { "pm", "->*" }, { "pt", "->" }, { "cl", "()" },
    { "ix", "[]" }, { "qu", "?" }, { "cv", "(cast)" }, { "li", "\"\"" },
};

/* Index of the two-letter operator code c0 c1 in ops[], or -1. */
static int op_index(char c0, char c1)
{
    int i;
    for (i = 0; i < (int)(sizeof ops / sizeof ops[0]); i++)
        if (ops[i].code[0] == c0 && ops[i].code[1] == c1)
            return i;
    return -1;
}

/* Operator prefixes of an expression that take one operand. Tried in this
   order against the text; "pp_" must come before "pp". */
static const char *const prefix_ops[] = {
    "ps", "ng", "ad", "de", "pp_", "mm_", "pp", "mm", "dl",
    "da", "te", "sz", "az", "nx", "sp", "tw", "nt",
};

/* Rust symbols mangled the C++ way escape punctuation as $XX$. */
static const char *const rust_esc[][2] = {
    { "SP", "@" }, { "BP", "*" }, { "RF", "&" }, { "LT", "<" }, { "GT", ">" },
    { "LP", "(" }, { "RP", ")" }, { "C", "," }, { "u20", " " }, { "u22", "\"" },
    { "u27", "'" }, { "u2b", "+" }, { "u3b", ";" }, { "u3d", "=" },
    { "u5b", "[" }, { "u5d", "]" }, { "u7b", "{" }, { "u7d", "}" },
    { "u7e", "~" },
};

static const char std_codes[] = "tabsiod";
static const char *const std_names[] = {
    "std", "std::allocator", "std::basic_string", "std::basic_string<>",
    "std::basic_istream", "std::basic_ostream", "std::basic_iostream",
};

static const char special_codes[] = "VTISFJ";
static const char *const special_names[] = {
    "vtable", "VTT", "typeinfo_name", "typeinfo", "typeinfo_fn", "java_class",
};

/* ------------------------------------------------------------- the rules */

static int r_name(dm *d);
static int r_encoding(dm *d);
static int r_type(dm *d);
static int r_targ(dm *d);
static int r_expr(dm *d);
static int r_unqualified(dm *d);
static int r_targs(dm *d);

/* A number the way strtoul(text, &end, 0) reads it (decimal, 0x hex or
   leading-0 octal), kept to its low 32 bits as a signed int, after an
   optional 'n'. -1 without digits. */
static int r_number(dm *d)
{
    const unsigned long long top = 0xffffffffffffffffULL;
    unsigned long long v = 0;
    unsigned radix = 10, low;
    int i, saturated = 0;

    if (at_end(d))
        return -1;
    if (d->s[d->at] == 'n')
        d->at++;
    i = d->at;
    if (!is_digit(d->s[i]))
        return fail_back(d, 0);
    if (d->s[i] == '0') {
        if ((d->s[i + 1] == 'x' || d->s[i + 1] == 'X') && is_xdigit(d->s[i + 2])) {
            radix = 16;
            i += 2;
        } else {
            radix = 8;
        }
    }
    for (;; i++) {
        char c = d->s[i];
        unsigned dv;
        if (is_digit(c))
            dv = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            dv = (unsigned)(c - 'a') + 10u;
        else if (c >= 'A' && c <= 'F')
            dv = (unsigned)(c - 'A') + 10u;
        else
            break;
        if (dv >= radix)
            break;
        if (v > (top - dv) / radix)
            saturated = 1;
        else
            v = v * radix + dv;
    }
    if (saturated)
        v = top;
    d->at = i;
    low = (unsigned)(v & 0xffffffffu);
    if (low <= 0x7fffffffu)
        return (int)low;
    return (int)((long long)low - 0x100000000LL);
}

/* <seq-id>: skipped. */
static void r_seq_id(dm *d)
{
    if (at_end(d))
        return;
    while (is_digit(d->s[d->at]) || is_upper(d->s[d->at]))
        d->at++;
}

/* Qualifiers are skipped one at a time. */
static void r_qualifier(dm *d)
{
    if (!at_end(d) && one_of(cur(d), "rVKRO"))
        take(d, 1);
}

/* <source-name> ::= <length> <identifier>. Printed only outside types and
   template arguments (inside types too for special names); a Rust hash
   (17 characters "h" + 16 hex digits) is never printed. */
static int r_source_name(dm *d)
{
    int n = r_number(d), start, stop, q, i;

    if (n < 0)
        return -1;
    if (n > 0x7fffffff - d->at)
        give_up(d); /* uftrace's position overflows here */
    if (at_end(d) || n > d->end - d->at)
        return fail_back(d, 0);
    if ((d->in_type && !d->tinfo) || d->in_targs) {
        take(d, n);
        return 0;
    }
    start = d->at;
    if (n == 17 && d->s[start] == 'h') {
        for (i = 1; i < 17 && is_xdigit(d->s[start + i]); i++)
            ;
        if (i == 17) {
            take(d, n);
            return 0;
        }
    }
    scope_sep(d);

    /* Rust escapes. uftrace prints the text before a '$', then the escape's
       character if the text after the '$' starts with a known code (the
       closing '$' is assumed, not checked). For an unknown code it stops and
       prints the rest of the name from the last resume point, so the text
       before that '$' comes out twice. */
    stop = start + n;
    q = start;
    for (;;) {
        int k = q, e, found = -1, adv;
        while (k < stop && d->s[k] != '$')
            k++;
        if (k >= stop)
            break;
        emit(d, d->s + q, (size_t)(k - q));
        for (e = 0; e < (int)(sizeof rust_esc / sizeof rust_esc[0]); e++) {
            const char *code = rust_esc[e][0];
            size_t j = 0;
            while (code[j] != 0 && d->s[k + 1 + (int)j] == code[j])
                j++;
            if (code[j] == 0) {
                found = e;
                break;
            }
        }
        if (found < 0)
            break;
        emit_str(d, rust_esc[found][1]);
        adv = (k - q) + (int)strlen(rust_esc[found][0]) + 2;
        take(d, adv);
        q += adv;
        tick(d);
    }
    if (stop - q >= 0) {
        emit(d, d->s + q, (size_t)(stop - q));
    } else if (stop - q == -1) {
        /* an escape ran one past the name: uftrace's output loses its last
           character and the position steps back by one */
        if (d->on > 0)
            d->on--;
    } else {
        give_up(d); /* uftrace overruns its buffer here */
    }
    if (d->at + (stop - q) <= d->end) {
        d->at += stop - q;
        if (d->at < 0)
            give_up(d);
    }
    return 0;
}

static int r_abi_tag(dm *d)
{
    if (at_end(d) || expect(d, 'B') < 0)
        return -1;
    return r_source_name(d) < 0 ? -1 : 0;
}

/* S_, S<seq-id>_ (skipped) or St/Sa/Sb/Ss/Si/So/Sd (printed outside types,
   and inside types for special names). */
static int r_substitution(dm *d)
{
    const char *hit;

    if (at_end(d) || expect(d, 'S') < 0)
        return -1;
    hit = one_of(cur(d), std_codes) ? strchr(std_codes, cur(d)) : NULL;
    if (hit != NULL) {
        take(d, 1);
        if (d->in_type == 0 || d->tinfo) {
            scope_sep(d);
            emit_str(d, std_names[hit - std_codes]);
        }
        if (cur(d) == 'B')
            r_abi_tag(d);
        return 0;
    }
    r_seq_id(d);
    return expect(d, '_');
}

/* T_ or T<n>_ */
static int r_template_param(dm *d)
{
    if (at_end(d) || expect(d, 'T') < 0)
        return -1;
    r_number(d);
    return expect(d, '_');
}

/* fp... or fL...p... */
static int r_function_param(dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);

    if (at_end(d))
        return -1;
    if (c0 != 'f' || (c1 != 'p' && c1 != 'L'))
        return fail_back(d, 2);
    if (is_digit(cur(d))) {
        r_number(d);
        if (c1 == 'L' && expect(d, 'p') < 0)
            return -1;
    }
    r_qualifier(d);
    if (is_digit(cur(d)))
        r_number(d);
    return expect(d, '_');
}

/* Call offsets of thunks: h<n>_ or v<n>_<n>_ */
static int r_call_offset(dm *d)
{
    char c = cur(d);

    if (at_end(d) || (c != 'h' && c != 'v'))
        return -1;
    take(d, 1);
    if (r_number(d) < 0 || expect(d, '_') < 0)
        return -1;
    if (c == 'v' && (r_number(d) < 0 || expect(d, '_') < 0))
        return -1;
    return 0;
}

/* C1, D0, CI1<type> ...: prints the class name again (outside types). */
static int r_ctor_dtor(dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    int ret = 0, inheriting = 0;

    if (at_end(d))
        return -1;
    if (c0 != 'C' && c0 != 'D')
        return fail_back(d, 2);
    if (c1 == 'I') {
        c1 = take(d, 1);
        inheriting = 1;
    }
    if (!is_digit(c1))
        return fail_back(d, 2 + inheriting);
    if (inheriting)
        ret = r_type(d);
    if (d->in_type)
        return ret;
    emit_ctor(d, c0 == 'D');
    return ret;
}

/* Two-letter operator names: "operator" + symbol outside types. A vendor
   operator (v<digit>) is read and then rejected. */
static int r_operator(dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    int i;

    if (at_end(d))
        return -1;
    if (!d->in_type) {
        i = op_index(c0, c1);
        if (i >= 0) {
            scope_sep(d);
            emit_str(d, "operator");
            emit_str(d, ops[i].text);
        } else if (c0 == 'v' && is_digit(c1)) {
            d->in_type++;
            r_source_name(d);
            d->in_type--;
            return fail_back(d, 2);
        } else {
            return fail_back(d, 2);
        }
    }
    /* a conversion names its type, a literal operator its suffix */
    d->in_type++;
    if (c0 == 'c' && c1 == 'v')
        r_type(d);
    else if (c0 == 'l' && c1 == 'i')
        r_source_name(d);
    d->in_type--;
    return 0;
}

/* Ut<n>_ (unnamed type: prints nothing) and Ul<types>E<n>_ (lambda: prints
   "$_" and n + 1, where a missing n counts as -1). */
static int r_unnamed(dm *d, char kind)
{
    take(d, 2);
    if (kind == 't') {
        d->in_type++;
        r_number(d);
        if (expect(d, '_') < 0)
            return -1; /* in_type stays raised */
        d->in_type--;
        return 0;
    } else {
        int n = -1;
        char text[24];
        d->nest++;
        while (cur(d) != 'E') {
            tick(d);
            if (r_type(d) < 0)
                break;
        }
        if (expect(d, 'E') < 0)
            return -1;
        d->nest--;
        if (cur(d) != '_') {
            n = r_number(d);
            if (n < 0)
                return -1;
        }
        if (expect(d, '_') < 0)
            return -1;
        if (d->in_type)
            return 1; /* done, and no ABI tag check */
        scope_sep(d);
        /* n + 1 with int wrap-around, as uftrace computes it */
        snprintf(text, sizeof text, "$_%ld",
                 n == 0x7fffffff ? -2147483647L - 1L : (long)n + 1L);
        emit_str(d, text);
        return 0;
    }
}

static int r_unqualified(dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);
    int ret = 0;

    if (at_end(d))
        return -1;
    if (c0 == 'C' || c0 == 'D') {
        ret = r_ctor_dtor(d);
    } else if (c0 == 'U') {
        if (c1 == 't' || c1 == 'l') {
            ret = r_unnamed(d, c1);
            if (ret < 0)
                return -1;
            if (ret > 0)
                return 0;
        } else {
            ret = -1;
        }
    } else if (is_lower(c0)) {
        ret = r_operator(d);
    } else {
        if (c0 == 'L')
            take(d, 1);
        ret = r_source_name(d);
    }
    if (cur(d) == 'B')
        ret = r_abi_tag(d);
    return ret;
}

/* Dt/DT <expression> E */
static int r_decltype(dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);

    if (at_end(d))
        return -1;
    if (c0 != 'D' || (c1 != 'T' && c1 != 't'))
        return fail_back(d, 2);
    d->in_type++;
    d->nest++;
    r_expr(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->nest--;
    d->in_type--;
    return 0;
}

/* N [qualifiers] <prefix parts> E */
static int r_nested(dm *d)
{
    int ret = 0;

    if (at_end(d) || expect(d, 'N') < 0)
        return -1;
    d->nest++;
    while (cur(d) != 'E' && !at_end(d) && ret == 0) {
        char c0 = cur(d), c1 = peek(d, 1);
        tick(d);
        if (c0 == 'D' && (c1 == 'T' || c1 == 't'))
            ret = r_decltype(d);
        else if (c0 == 'C' || c0 == 'D')
            ret = r_ctor_dtor(d);
        else if (c0 == 'U' || is_lower(c0) || is_digit(c0))
            ret = r_unqualified(d);
        else if (c0 == 'T')
            ret = r_template_param(d);
        else if (c0 == 'I')
            ret = r_targs(d);
        else if (c0 == 'S')
            ret = r_substitution(d);
        else if (c0 == 'M' || c0 == 'L')
            take(d, 1);
        else if (one_of(c0, "rVKRO"))
            r_qualifier(d);
        else
            break;
    }
    if (expect(d, 'E') < 0)
        return -1;
    d->nest--;
    return ret;
}

/* _<digit> or __<number>_ */
static int r_discriminator(dm *d)
{
    if (at_end(d) || expect(d, '_') < 0)
        return -1;
    if (is_digit(cur(d)))
        return r_number(d) > 0 ? 0 : -1;
    if (cur(d) == '_') {
        take(d, 1);
        if (r_number(d) < 0)
            return -1;
        return expect(d, '_');
    }
    return 0;
}

/* Z <encoding> E (s | d [<n>] _ <name> | <name>) [<discriminator>]:
   the function's scope, then the local entity's. */
static int r_local(dm *d)
{
    if (at_end(d) || expect(d, 'Z') < 0)
        return -1;
    d->nest++;
    r_encoding(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->nest--;
    if (cur(d) == 'd') {
        take(d, 1);
        if (cur(d) != '_' && r_number(d) < 0)
            return -1;
        if (expect(d, '_') < 0)
            return -1;
        return r_name(d) < 0 ? -1 : 0;
    }
    if (cur(d) == 's')
        take(d, 1);
    else
        r_name(d);
    if (cur(d) == '_' && !d->no_discrim)
        r_discriminator(d);
    return 0;
}

static int name_body(dm *d)
{
    char c = cur(d);

    if (at_end(d))
        return -1;
    if (c == 'N')
        return r_nested(d);
    if (c == 'Z')
        return r_local(d);
    if (c == 'S') {
        if (r_substitution(d) < 0)
            return -1;
        if (cur(d) == 'I')
            return r_targs(d);
        /* otherwise an unqualified name follows, e.g. St3foo */
    }
    if (r_unqualified(d) < 0)
        return -1;
    if (cur(d) == 'I')
        return r_targs(d);
    return 0;
}

/* <template-arg>* E, one level deeper. */
static int targs_to_end(dm *d)
{
    d->nest++;
    while (cur(d) != 'E') {
        tick(d);
        if (r_targ(d) < 0)
            return -1;
    }
    if (expect(d, 'E') < 0)
        return -1;
    d->nest--;
    return 0;
}

/* I <template-arg>* E: nothing inside is printed. */
static int r_targs(dm *d)
{
    if (at_end(d) || expect(d, 'I') < 0)
        return -1;
    d->in_targs++;
    if (targs_to_end(d) < 0)
        return -1;
    d->in_targs--;
    return 0;
}

static int targ_body(dm *d)
{
    char c = cur(d);

    if (at_end(d))
        return -1;
    if (c == 'X') {
        take(d, 1);
        d->nest++;
        r_expr(d);
        if (expect(d, 'E') < 0)
            return -1;
        d->nest--;
        return 0;
    }
    if (c == 'J') {
        take(d, 1);
        return targs_to_end(d);
    }
    if (c == 'L') {
        char c1;
        /* <expr-primary>: L <type> <value> E, or L _Z <encoding> E */
        take(d, 1);
        d->in_type++;
        d->nest++;
        c1 = peek(d, 1);
        if (cur(d) == '_' && c1 == 'Z') {
            take(d, 2);
            if (r_encoding(d) < 0 || expect(d, 'E') < 0)
                return -1;
        } else {
            r_type(d);
            r_number(d);
            if (cur(d) == '_') {
                take(d, 1);
                r_number(d);
            }
            if (expect(d, 'E') < 0)
                return -1;
        }
        d->nest--;
        d->in_type--;
        return 0;
    }
    return r_type(d) < 0 ? -1 : 0;
}

/* <simple-id> ::= <source-name> [<template-args>] */
static int r_simple_id(dm *d)
{
    if (at_end(d))
        return -1;
    if (!is_digit(cur(d)))
        return fail_back(d, 1);
    if (r_source_name(d) < 0)
        return -1;
    return cur(d) == 'I' ? r_targs(d) : 0;
}

/* T..., Dt..., or a substitution with what follows it */
static int r_unresolved_type(dm *d)
{
    char c = cur(d);

    if (at_end(d))
        return -1;
    if (c == 'T')
        return r_template_param(d);
    if (c == 'D')
        return r_decltype(d);
    if (c != 'S' || r_substitution(d) < 0)
        return -1;
    if (cur(d) == 'I')
        return r_targs(d);
    if (is_digit(cur(d)))
        return r_unqualified(d);
    return 0;
}

/* on <operator> [<template-args>] | dn <destructor> | <simple-id> */
static int r_base_unresolved(dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);

    if (at_end(d))
        return -1;
    if (c0 == 'o' && c1 == 'n') {
        take(d, 2);
        if (r_operator(d) < 0)
            return -1;
        return cur(d) == 'I' ? r_targs(d) : 0;
    }
    if (c0 == 'd' && c1 == 'n') {
        take(d, 2);
        if (at_end(d))
            return -1;
        return is_digit(cur(d)) ? r_source_name(d) : r_unresolved_type(d);
    }
    return r_simple_id(d);
}

/* [gs] [sr ...] <base-unresolved-name> */
static int r_unresolved(dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);

    if (at_end(d))
        return -1;
    if (c0 == 'g' && c1 == 's') {
        take(d, 2);
        c0 = cur(d);
        c1 = peek(d, 1);
    }
    if (c0 == 's' && c1 == 'r') {
        take(d, 2);
        c0 = cur(d);
        if (c0 == 'T' || c0 == 'D' || c0 == 'S') {
            if (r_type(d) < 0 || r_base_unresolved(d) < 0)
                return -1;
            if (cur(d) == 'I')
                r_targs(d);
            return 0;
        }
        if (c0 == 'N') {
            take(d, 1);
            if (r_type(d) < 0)
                return -1;
        }
        while (cur(d) != 'E') {
            tick(d);
            if (r_simple_id(d) < 0)
                return 0; /* sic: counts as success, position as left */
        }
        if (expect(d, 'E') < 0)
            return -1;
    }
    return r_base_unresolved(d);
}

/* <expression>* up to 'E' or '_', which is consumed */
static int r_expr_list(dm *d)
{
    char c = cur(d);

    if (at_end(d))
        return -1;
    d->nest++;
    while (c != 'E' && c != '_') {
        tick(d);
        if (r_expr(d) < 0)
            return -1;
        c = cur(d);
    }
    take(d, 1);
    d->nest--;
    return 0;
}

static int starts_with(const char *text, const char *prefix)
{
    size_t i;
    for (i = 0; prefix[i] != 0; i++)
        if (text[i] != prefix[i])
            return 0;
    return 1;
}

static int expr_body(dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);
    int unary_ok = 1;
    size_t i;

    if (at_end(d))
        return -1;
    if (c0 == 'g' && c1 == 's') {
        /* uftrace then still matches the one-operand prefixes against the
           text at "gs", which none of them starts with */
        take(d, 2);
        c0 = cur(d);
        c1 = peek(d, 1);
        unary_ok = 0;
    }
    if (c0 == 'L')
        return targ_body(d); /* an <expr-primary> */
    if (unary_ok) {
        for (i = 0; i < sizeof prefix_ops / sizeof prefix_ops[0]; i++) {
            if (starts_with(d->s + d->at, prefix_ops[i])) {
                take(d, (int)strlen(prefix_ops[i]));
                return r_expr(d);
            }
        }
    }
    if (c0 == 'q' && c1 == 'u') {
        take(d, 2);
        if (r_expr(d) < 0 || r_expr(d) < 0)
            return -1;
        return r_expr(d);
    }
    /* two operands: any operator code but those starting with 'c' or
       ending with 'v' (so not "dv") */
    if (c0 != 'c' && c1 != 'v' && op_index(c0, c1) >= 0) {
        take(d, 2);
        if (r_expr(d) < 0)
            return -1;
        return r_expr(d);
    }
    if (c0 == 'c' && c1 == 'l') {
        take(d, 2);
        return r_expr_list(d);
    }
    if (c0 == 'c' && c1 == 'v') {
        take(d, 2);
        if (r_type(d) < 0)
            return -1;
        if (cur(d) == '_') {
            take(d, 1);
            return r_expr_list(d);
        }
        return r_expr(d);
    }
    if ((c0 == 't' || c0 == 'i') && c1 == 'l') {
        take(d, 2);
        if (c0 == 't' && r_type(d) < 0)
            return -1;
        return r_expr_list(d);
    }
    if (one_of(c0, "dscr") && c1 == 'c') {
        take(d, 2);
        if (r_type(d) < 0)
            return -1;
        return r_expr(d);
    }
    if ((c0 == 't' && c1 == 'i') || ((c0 == 's' || c0 == 'a') && c1 == 't')) {
        take(d, 2);
        return r_type(d);
    }
    if (c0 == 'T' && (c1 == '_' || is_digit(c1)))
        return r_template_param(d);
    if (c0 == 'f' && (c1 == 'p' || c1 == 'L'))
        return r_function_param(d);
    if (c0 == 'd' && c1 == 't') {
        take(d, 2);
        if (r_expr(d) < 0)
            return -1;
        return r_unresolved(d);
    }
    if (c0 == 'd' && c1 == 's') {
        take(d, 2);
        if (r_expr(d) < 0)
            return -1;
        return r_expr(d);
    }
    if (c0 == 's' && c1 == 'Z') {
        take(d, 2);
        if (cur(d) == 'T')
            return r_template_param(d);
        if (cur(d) == 'f')
            return r_function_param(d);
        return -1;
    }
    if (c0 == 's' && c1 == 'P') {
        take(d, 2);
        return targs_to_end(d);
    }
    if (c0 == 't' && c1 == 'r') {
        take(d, 2);
        return 0;
    }
    return r_unresolved(d);
}

/* F [Y] <type>* [R|O] E */
static int r_function_type(dm *d)
{
    char c;

    if (at_end(d) || expect(d, 'F') < 0)
        return -1;
    if (cur(d) == 'Y')
        take(d, 1);
    d->in_type++;
    d->nest++;
    c = cur(d);
    while (c != 'E') {
        int mark = d->at;
        tick(d);
        if (r_type(d) < 0) {
            d->at = mark;
            break;
        }
        c = cur(d);
    }
    if (c == 'R' || c == 'O')
        r_qualifier(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->nest--;
    d->in_type--;
    return 0;
}

/* A [<n> | <expression>] _ <type> */
static int r_array_type(dm *d)
{
    if (at_end(d) || expect(d, 'A') < 0)
        return -1;
    if (is_digit(cur(d)))
        r_number(d);
    else if (cur(d) != '_')
        r_expr(d);
    if (expect(d, '_') < 0)
        return -1;
    return r_type(d);
}

/* Dv <n> _ or Dv _ <expression> _ (the element type follows separately) */
static void r_vector_head(dm *d)
{
    take(d, 2); /* "Dv", known to be there */
    if (at_end(d))
        return;
    d->in_type++;
    if (cur(d) == '_') {
        take(d, 1);
        r_expr(d);
    } else if (r_number(d) < 0) {
        return; /* in_type stays raised */
    }
    if (expect(d, '_') < 0)
        return; /* ditto */
    d->in_type--;
}

static int type_body(dm *d)
{
    int ret = -1;

    if (at_end(d))
        return -1;
    d->in_type++;
    d->nest++;
    while (!at_end(d)) {
        char c = cur(d), c1 = peek(d, 1);
        tick(d);
        if (c == 'r' || c == 'V' || c == 'K') {
            r_qualifier(d);
            continue;
        }
        if (one_of(c, "PROCG")) {
            take(d, 1);
            continue;
        }
        if (c == 'D' && c1 == 'p') {
            take(d, 2); /* pack expansion */
            continue;
        }
        if (c == 'D' && c1 == 'v') {
            r_vector_head(d);
            continue;
        }
        if (c == 'U') {
            /* vendor qualifier: U <source-name> [<template-args>] */
            take(d, 1);
            ret = r_source_name(d);
            if (ret == 0 && cur(d) == 'I')
                ret = r_targs(d);
            if (ret < 0)
                break;
            continue;
        }
        if (c == 'F') {
            ret = r_function_type(d);
        } else if (c == 'T') {
            /* c1 == 0 (T at the very end) takes the Ts/Tu/Te path too */
            if (c1 == 0 || one_of(c1, "sue")) {
                take(d, 2);
                ret = r_name(d);
            } else if (c1 == '_' || is_digit(c1)) {
                ret = r_template_param(d);
                if (cur(d) == 'I')
                    ret = r_targs(d);
            }
        } else if (c == 'A') {
            ret = r_array_type(d);
        } else if (c == 'M') {
            if (expect(d, 'M') < 0 || r_type(d) < 0)
                ret = -1;
            else
                ret = r_type(d);
        } else if (c == 'D') {
            /* builtin D types; a 'D' ending the text counts as one but is
               not consumed (uftrace then loops forever; we give up) */
            if (c1 == 0 || one_of(c1, "defhisacnu")) {
                take(d, 2);
                ret = 0;
            } else if (c1 == 't' || c1 == 'T') {
                ret = r_decltype(d);
            }
        } else if (c == 'S') {
            ret = r_substitution(d);
            if (ret == 0 && c1 == 't' && is_digit(cur(d)))
                ret = r_unqualified(d);
            if (cur(d) == 'I')
                ret = r_targs(d);
        } else if (c == 'u') {
            take(d, 1);
            ret = r_source_name(d);
        } else if (c == 'I') {
            ret = r_targs(d);
        } else if (is_digit(c) || c == 'N' || c == 'Z') {
            ret = r_name(d);
        } else if (one_of(c, "vwbcahstijlmxynofdegz")) {
            take(d, 1);
            ret = 0;
        }
        break;
    }
    d->nest--;
    d->in_type--;
    return ret;
}

/* Special names: vtables, typeinfo, VTT, construction vtables (printed with
   a "__kind__" prefix and the type), thunks and clones (printed as their
   target), TLS init/wrapper ("TLS_init"/"TLS_wrap" scope), guard variables
   and reference temporaries. */
static int r_special(dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);

    if (at_end(d))
        return -1;
    if (c0 == 'T') {
        if (c1 == 0)
            give_up(d); /* uftrace indexes past its table here */
        if (one_of(c1, special_codes)) {
            take(d, 2);
            d->tinfo = 1;
            emit_str(d, "__");
            emit_str(d, special_names[strchr(special_codes, c1) - special_codes]);
            emit_str(d, "__");
            return r_type(d);
        }
        if (c1 == 'h' || c1 == 'v') {
            take(d, 1);
            if (r_call_offset(d) < 0)
                return -1;
            return r_encoding(d);
        }
        if (c1 == 'c') {
            take(d, 2);
            if (r_call_offset(d) < 0 || r_call_offset(d) < 0)
                return -1;
            return r_encoding(d);
        }
        if (c1 == 'C') {
            take(d, 2);
            emit_str(d, "__construction_vtable__");
            d->tinfo = 1;
            if (r_type(d) < 0 || r_number(d) < 0)
                return -1;
            if (at_end(d))
                return 0;
            if (expect(d, '_') < 0)
                return -1;
            d->tinfo = 0; /* the derived type is read, not printed */
            return r_type(d);
        }
        if (c1 == 'H' || c1 == 'W') {
            take(d, 2);
            scope_sep(d);
            emit_str(d, c1 == 'H' ? "TLS_init" : "TLS_wrap");
            return r_name(d);
        }
    } else if (c0 == 'G') {
        if (c1 == 'V') {
            take(d, 2);
            emit_str(d, "__guard_variable__");
            return r_name(d);
        }
        if (c1 == 'R') {
            take(d, 2);
            emit_str(d, "__ref_temp__");
            d->no_discrim = 1;
            if (r_name(d) < 0)
                return -1;
            if (cur(d) != '_')
                r_seq_id(d);
            return expect(d, '_');
        }
        if (c1 == 'A') {
            take(d, 2);
            return r_encoding(d);
        }
        if (c1 == 'T') {
            take(d, 2);
            if (cur(d) != 't' && cur(d) != 'n')
                return -1;
            take(d, 1);
            return r_encoding(d);
        }
    }
    return fail_back(d, 0);
}

/* <encoding> ::= <name> <type>* | <special-name>; a '.' or '@' after it
   ends the whole text (".cold", ".constprop.0", "@@GLIBCXX_3.4"). */
static int encoding_body(dm *d)
{
    int ret;
    char c;

    if (at_end(d))
        return -1;
    if (d->at == 0)
        take(d, 2); /* "_Z" */
    d->nest++;
    c = cur(d);
    if (c == 'T' || c == 'G') {
        ret = r_special(d);
        d->nest--;
        return ret;
    }
    ret = r_name(d);
    if (ret < 0)
        return ret;
    while (!at_end(d) && !one_of(cur(d), "E.@")) {
        tick(d);
        if (r_type(d) < 0)
            break;
    }
    if (cur(d) == '.' || cur(d) == '@')
        d->end = d->at;
    d->nest--;
    return 0;
}

/* The hubs: every cycle of rules goes through one of these. */
static void enter_hub(dm *d)
{
    tick(d);
    if (++d->depth > HUB_DEPTH_MAX)
        give_up(d);
}

/* A rule that is a hub: its body, one level deeper. */
static int through_hub(dm *d, int (*body)(dm *))
{
    int r;
    enter_hub(d);
    r = body(d);
    d->depth--;
    return r;
}

static int r_name(dm *d) { return through_hub(d, name_body); }
static int r_encoding(dm *d) { return through_hub(d, encoding_body); }
static int r_type(dm *d) { return through_hub(d, type_body); }
static int r_targ(dm *d) { return through_hub(d, targ_body); }
static int r_expr(dm *d) { return through_hub(d, expr_body); }

/* ------------------------------------------------------------ public API */

/* Runs the parse; returns a uft_dm_status. Kept apart from the caller so
   that nothing the caller keeps in registers is live across longjmp. */
static int run(dm *d)
{
    if (setjmp(d->bail) != 0)
        return UFT_DM_GAVE_UP;
    if (r_encoding(d) < 0 || d->nest != 0)
        return UFT_DM_REJECTED;
    if (!at_end(d) && (!d->tinfo || r_name(d) < 0))
        return UFT_DM_REJECTED;
    return UFT_DM_DEMANGLED;
}

static size_t copy_out(const char *src, size_t n, char *buf, size_t len)
{
    if (len > 0) {
        size_t k = n < len - 1 ? n : len - 1;
        memcpy(buf, src, k);
        buf[k] = 0;
    }
    return n;
}

int uft_demangle_simple_ex(const char *mangled, char *buf, size_t len, size_t *need)
{
    dm d;
    size_t n = 0, total;
    int prefixed, st;
    const char *text;

    if (buf == NULL)
        len = 0;
    if (mangled == NULL)
        mangled = "";
    while (mangled[n] != 0 && n <= UFT_DM_MAX_INPUT)
        n++;
    prefixed = strncmp(mangled, GLOBAL_PREFIX, GLOBAL_PREFIX_LEN) == 0;
    text = prefixed ? mangled + GLOBAL_PREFIX_LEN : mangled;
    if (text[0] != '_' || text[1] != 'Z') {
        st = UFT_DM_PLAIN;
    } else if (n > UFT_DM_MAX_INPUT) {
        st = UFT_DM_GAVE_UP;
    } else {
        memset(&d, 0, sizeof d);
        d.s = text;
        d.end = (int)(n - (prefixed ? GLOBAL_PREFIX_LEN : 0));
        d.first = 1;
        d.max_steps = 20000ul + 64ul * (unsigned long)n;
        d.o = buf;
        d.lim = len > 0 ? len - 1 : 0;
        if (prefixed) {
            d.base = GLOBAL_PREFIX_LEN;
            d.on = copy_out(GLOBAL_PREFIX, GLOBAL_PREFIX_LEN, buf, len);
        }
        st = run(&d);
        if (st == UFT_DM_DEMANGLED && !d.have) {
            /* uftrace's result is a NULL string: printed as "(null)" after
               the prefix, fatal to uftrace without one */
            if (prefixed)
                emit_str(&d, "(null)");
            else
                st = UFT_DM_GAVE_UP;
        }
        if (st == UFT_DM_DEMANGLED) {
            total = d.on;
            if (len > 0)
                buf[total < len - 1 ? total : len - 1] = 0;
            if (need != NULL)
                *need = total;
            return st;
        }
    }
    while (mangled[n] != 0)
        n++;
    total = copy_out(mangled, n, buf, len);
    if (need != NULL)
        *need = total;
    return st;
}

char *uft_demangle_simple(const char *mangled, char *buf, size_t len)
{
    uft_demangle_simple_ex(mangled, buf, len, NULL);
    return buf;
}
