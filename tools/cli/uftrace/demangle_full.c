/* demangle_full.c - full Itanium C++ demangling as LLVM 14's
 * itaniumDemangle prints it (llvm-symbolizer, llvm-xray --symbolize,
 * llvm-cxxfilt); declared in demangle.h.
 *
 * Like LLVM's demangler this parses the name into a tree of nodes (the
 * substitution table and template parameters refer to earlier nodes, so it
 * is a DAG) and then prints the tree, types split into a left and a right
 * part around the declarator ("void (*)(int)", "int (&) [3]"). Output
 * conventions are LLVM 14's: "char const*", "> >" between closing template
 * brackets, binary expressions fully parenthesised, "'lambda'(int)",
 * "(anonymous namespace)", clone suffixes as "f() (.part.0)".
 *
 * Not covered (the name then comes back NULL, as for a name LLVM rejects,
 * and callers print it mangled): floating-point literals, forward template
 * references in conversion operators, requires-clauses, the less common
 * expressions (new, delete, throw, fold expressions, braced initialisers).
 *
 * Hostile input: reads stay within the name, recursion depth, node count,
 * printing work and output length are bounded; over a bound the result is
 * NULL. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/demangle.h"

#include <stdlib.h>
#include <string.h>

#define DF_DEPTH_MAX   256         /* parse and print recursion            */
#define DF_INPUT_MAX   (1u << 16)  /* longer names are not demangled       */
#define DF_OUTPUT_MAX  (1u << 20)
#define DF_STEPS_MAX   (1u << 22)  /* print calls                          */

enum {
    N_NAME, N_NESTED, N_LOCAL, N_STD, N_TEMPLATED, N_TARGS, N_CTOR, N_ABITAG, N_ENCODING, N_DOTSUFFIX,
    N_SPECIAL, N_CTOR_VTABLE, N_QUAL, N_POINTER, N_REF, N_FUNC, N_ARRAY, N_PTRMEM, N_POSTFIX, N_VENDOR,
    N_PACK, N_TARG_PACK, N_EXPANSION, N_CONV_OP, N_LIT_OP, N_CLOSURE, N_UNNAMED, N_SUBST, N_SUBST_FULL,
    N_INT_LIT, N_BOOL, N_ENUM_LIT, N_STRING_LIT, N_ENCLOSING, N_BINARY, N_PREFIX, N_CALL, N_MEMBER,
    N_CAST, N_CONVERSION, N_FUNC_PARAM, N_LAMBDA_EXPR, N_EXCEPT_SPEC, N_VECTOR
};

enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4 };
enum { REF_NONE, REF_LVALUE, REF_RVALUE };

typedef struct dnode dnode;
struct dnode {
    unsigned char kind, quals, ref; /* ref: reference kind, dtor flag, pack flag */
    const char   *s, *s2;          /* texts, NUL-terminated or with lengths */
    size_t        n, n2;
    dnode        *a, *b, *c;
    dnode       **v; /* list */
    size_t        nv;
};

/* Nodes, lists and the substitution table live in blocks freed together. */
typedef struct dblock {
    struct dblock *next;
    size_t         used, cap;
    /* data follows, aligned for pointers */
} dblock;

typedef struct dlist {
    dnode **v;
    size_t  n, cap;
} dlist;

typedef struct dparse {
    const char *p, *end;
    dblock     *blocks;
    dlist       subs;
    dlist       names;          /* scratch for lists being built             */
    dlist       outer;          /* the template args of the encoding name    */
    int         have_params;    /* outer holds the current template params  */
    int         lambda_params;  /* parsing a lambda's parameter list         */
    int         try_targs;      /* a template param may take template args   */
    int         depth;
    int         failed;
} dparse;

/* What parse_name tells parse_encoding. */
typedef struct name_state {
    int ctor_dtor_conversion, ends_with_targs;
    unsigned char quals, ref;
} name_state;

/* ---- allocation ------------------------------------------------------------- */

static void *df_alloc(dparse *d, size_t size)
{
    dblock *b = d->blocks;
    size = (size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 16384 ? size : 16384;
        b = malloc(sizeof *b + cap);
        if (!b) {
            d->failed = 1;
            return NULL;
        }
        b->next = d->blocks;
        b->used = 0;
        b->cap = cap;
        d->blocks = b;
    }
    b->used += size;
    return (char *)(b + 1) + b->used - size;
}

static int list_push(dparse *d, dlist *l, dnode *x)
{
    if (!x) return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        dnode **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            d->failed = 1;
            return 0;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 1;
}

static dnode *mk(dparse *d, int kind, dnode *a, dnode *b)
{
    dnode *x = df_alloc(d, sizeof *x);
    if (!x) return NULL;
    memset(x, 0, sizeof *x);
    x->kind = (unsigned char)kind;
    x->a = a;
    x->b = b;
    return x;
}

/* x with its text (NULL stays NULL) */
static dnode *with_text(dnode *x, const char *s, size_t n)
{
    if (x) {
        x->s = s;
        x->n = n;
    }
    return x;
}

static dnode *mk_text(dparse *d, int kind, const char *s, size_t n)
{
    return with_text(mk(d, kind, NULL, NULL), s, n);
}

#define mk_lit(d, kind, lit) mk_text((d), (kind), "" lit, sizeof(lit) - 1)

/* Moves names[from..] into a node's list. */
static dnode *mk_list(dparse *d, int kind, size_t from)
{
    dnode *x = mk(d, kind, NULL, NULL);
    size_t n = d->names.n - from;
    if (!x) return NULL;
    x->v = df_alloc(d, (n ? n : 1) * sizeof *x->v);
    if (!x->v) return NULL;
    if (n) memcpy(x->v, d->names.v + from, n * sizeof *x->v);
    x->nv = n;
    d->names.n = from;
    return x;
}

/* ---- reading ------------------------------------------------------------------ */

static char look(const dparse *d, size_t k)
{
    return (size_t)(d->end - d->p) > k ? d->p[k] : '\0';
}

static int eat(dparse *d, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(d->end - d->p) < n || memcmp(d->p, s, n) != 0) return 0;
    d->p += n;
    return 1;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* [n] digits: the text (with the n), length 0 when there are no digits. */
static const char *parse_number(dparse *d, int negative, size_t *len)
{
    const char *start = d->p;
    if (negative && look(d, 0) == 'n') d->p++;
    if (!is_digit(look(d, 0))) {
        d->p = start;
        *len = 0;
        return start;
    }
    while (is_digit(look(d, 0))) d->p++;
    *len = (size_t)(d->p - start);
    return start;
}

/* A decimal number into *v: 1, or 0 when there is none or it is too big. */
static int parse_positive(dparse *d, size_t *v)
{
    *v = 0;
    if (!is_digit(look(d, 0))) return 0;
    while (is_digit(look(d, 0))) {
        if (*v > (size_t)(d->end - d->p)) return 0; /* longer than anything it can count */
        *v = *v * 10 + (size_t)(*d->p++ - '0');
    }
    return 1;
}

/* A base-36 sequence id (digits and upper-case letters). */
static int parse_seq_id(dparse *d, size_t *v)
{
    int any = 0;
    *v = 0;
    for (;; any = 1) {
        char c = look(d, 0);
        size_t digit;
        if (is_digit(c)) digit = (size_t)(c - '0');
        else if (c >= 'A' && c <= 'Z') digit = (size_t)(c - 'A' + 10);
        else break;
        if (*v > ((size_t)-1 - digit) / 36) return 0;
        *v = *v * 36 + digit;
        d->p++;
    }
    return any;
}

/* ---- the grammar ------------------------------------------------------------------ */

static dnode *parse_type(dparse *d);
static dnode *parse_name(dparse *d, name_state *st);
static dnode *parse_encoding(dparse *d);
static dnode *parse_expr(dparse *d);
static dnode *parse_targs(dparse *d, int tag);
static dnode *parse_targ(dparse *d);

static int enter(dparse *d)
{
    return ++d->depth <= DF_DEPTH_MAX && !d->failed;
}

static dnode *leave(dparse *d, dnode *x)
{
    d->depth--;
    return x;
}

/* body(d), one level deeper: the recursive rules go through here */
static dnode *guarded(dparse *d, dnode *(*body)(dparse *))
{
    if (!enter(d)) return NULL;
    return leave(d, body(d));
}

static const char *bare_source_name(dparse *d, size_t *n)
{
    size_t len;
    const char *s;
    if (!parse_positive(d, &len) || len == 0 || len > (size_t)(d->end - d->p)) return NULL;
    s = d->p;
    d->p += len;
    *n = len;
    return s;
}

static dnode *parse_source_name(dparse *d)
{
    size_t n;
    const char *s = bare_source_name(d, &n);
    if (!s) return NULL;
    if (n >= 10 && memcmp(s, "_GLOBAL__N", 10) == 0) return mk_lit(d, N_NAME, "(anonymous namespace)");
    return mk_text(d, N_NAME, s, n);
}

/* x, with the template args that follow it if any */
static dnode *with_targs(dparse *d, dnode *x)
{
    dnode *ta;
    if (!x || look(d, 0) != 'I') return x;
    ta = parse_targs(d, 0);
    return ta ? mk(d, N_TEMPLATED, x, ta) : NULL;
}

static dnode *parse_abi_tags(dparse *d, dnode *x)
{
    while (x && eat(d, "B")) {
        size_t n;
        const char *s = bare_source_name(d, &n);
        if (!s) return NULL;
        x = with_text(mk(d, N_ABITAG, x, NULL), s, n);
    }
    return x;
}

/* Operators: code, name in operator names and expressions, arity (0: not in
   expressions here; 1 prefix; 2 binary). */
static const struct {
    char        code[3];
    const char *name;
    int         arity;
} df_ops[] = {
    {"aN", "&=", 2},  {"aS", "=", 2},   {"aa", "&&", 2}, {"ad", "&", 1},  {"an", "&", 2},  {"aw", " co_await", 1},
    {"cm", ",", 2},   {"co", "~", 1},   {"dV", "/=", 2}, {"da", " delete[]", 0}, {"de", "*", 1}, {"dl", " delete", 0},
    {"ds", ".*", 2},  {"dv", "/", 2},   {"eO", "^=", 2}, {"eo", "^", 2},  {"eq", "==", 2}, {"ge", ">=", 2},
    {"gt", ">", 2},   {"ix", "[]", 0},  {"lS", "<<=", 2}, {"le", "<=", 2}, {"ls", "<<", 2}, {"lt", "<", 2},
    {"mI", "-=", 2},  {"mL", "*=", 2},  {"mi", "-", 2},  {"ml", "*", 2},  {"mm", "--", 1}, {"na", " new[]", 0},
    {"ne", "!=", 2},  {"ng", "-", 1},   {"nt", "!", 1},  {"nw", " new", 0}, {"oR", "|=", 2}, {"oo", "||", 2},
    {"or", "|", 2},   {"pL", "+=", 2},  {"pl", "+", 2},  {"pm", "->*", 2}, {"pp", "++", 1}, {"ps", "+", 1},
    {"pt", "->", 0},  {"qu", "?", 0},   {"rM", "%=", 2}, {"rS", ">>=", 2}, {"rm", "%", 2},  {"rs", ">>", 2},
    {"ss", "<=>", 2}, {"cl", "()", 0},
};

static int find_op(const dparse *d)
{
    size_t i;
    for (i = 0; i < sizeof df_ops / sizeof *df_ops; i++)
        if (look(d, 0) == df_ops[i].code[0] && look(d, 1) == df_ops[i].code[1]) return (int)i;
    return -1;
}

/* The type of a conversion ("cv"): a template param in it takes no
   template args (they belong to what follows). */
static dnode *parse_cast_type(dparse *d)
{
    int save = d->try_targs;
    dnode *t;
    d->try_targs = 0;
    t = parse_type(d);
    d->try_targs = save;
    return t;
}

static dnode *parse_operator_name(dparse *d, name_state *st)
{
    int op = find_op(d);
    if (op >= 0 && strcmp(df_ops[op].code, "ds") != 0) { /* .* is no operator name in LLVM 14 */
        dnode *x;
        d->p += 2;
        x = mk_text(d, N_NAME, df_ops[op].name, strlen(df_ops[op].name));
        if (x) x->ref = 1; /* an operator: printed after "operator" */
        return x;
    }
    if (eat(d, "cv")) {
        dnode *t = parse_cast_type(d);
        if (st) st->ctor_dtor_conversion = 1;
        return t ? mk(d, N_CONV_OP, t, NULL) : NULL;
    }
    if (eat(d, "li")) {
        dnode *n = parse_source_name(d);
        return n ? mk(d, N_LIT_OP, n, NULL) : NULL;
    }
    if (look(d, 0) == 'v' && is_digit(look(d, 1))) {
        dnode *n;
        d->p += 2;
        n = parse_source_name(d);
        return n ? mk(d, N_CONV_OP, n, NULL) : NULL;
    }
    return NULL;
}

static dnode *parse_unnamed(dparse *d)
{
    size_t n;
    const char *count;
    if (eat(d, "Ut")) {
        dnode *x;
        count = parse_number(d, 0, &n);
        if (!eat(d, "_")) return NULL;
        x = with_text(mk(d, N_UNNAMED, NULL, NULL), count, n);
        return x;
    }
    if (eat(d, "Ul")) {
        size_t from = d->names.n;
        int save = d->lambda_params;
        dnode *x;
        d->lambda_params = 1;
        if (!eat(d, "vE")) {
            do {
                if (!list_push(d, &d->names, parse_type(d))) {
                    d->lambda_params = save;
                    return NULL;
                }
            } while (!eat(d, "E"));
        }
        d->lambda_params = save;
        x = mk_list(d, N_CLOSURE, from);
        count = parse_number(d, 0, &n);
        if (!x || !eat(d, "_")) return NULL;
        x->s = count;
        x->n = n;
        return x;
    }
    if (eat(d, "Ub")) {
        parse_number(d, 0, &n);
        return eat(d, "_") ? mk_lit(d, N_NAME, "'block-literal'") : NULL;
    }
    return NULL;
}

static dnode *parse_unqualified(dparse *d, name_state *st)
{
    dnode *x;
    char c = look(d, 0);
    if (c == 'U') x = parse_unnamed(d);
    else if (c >= '1' && c <= '9') x = parse_source_name(d);
    else if (eat(d, "DC")) {
        size_t from = d->names.n;
        do {
            if (!list_push(d, &d->names, parse_source_name(d))) return NULL;
        } while (!eat(d, "E"));
        x = mk_list(d, N_NAME, from);
        if (x) x->ref = 2; /* a structured binding: [a, b] */
    } else x = parse_operator_name(d, st);
    return x ? parse_abi_tags(d, x) : NULL;
}

static dnode *parse_template_param(dparse *d)
{
    size_t level = 0, index = 0;
    if (!eat(d, "T")) return NULL;
    if (eat(d, "L")) {
        if (!parse_positive(d, &level) || !eat(d, "_")) return NULL;
        level++;
    }
    if (!eat(d, "_")) {
        if (!parse_positive(d, &index) || !eat(d, "_")) return NULL;
        index++;
    }
    if (level == 0 && d->have_params && index < d->outer.n) return d->outer.v[index];
    /* a generic lambda's auto parameter */
    if (d->lambda_params && level == (size_t)(d->have_params ? 1 : 0)) return mk_lit(d, N_NAME, "auto");
    return NULL;
}

static dnode *parse_substitution(dparse *d)
{
    size_t index;
    if (!eat(d, "S")) return NULL;
    if (look(d, 0) >= 'a' && look(d, 0) <= 'z') {
        static const char codes[] = "absiod";
        const char *k = strchr(codes, look(d, 0));
        dnode *x, *tagged;
        if (!k) return NULL;
        d->p++;
        x = mk(d, N_SUBST, NULL, NULL);
        if (!x) return NULL;
        x->ref = (unsigned char)(k - codes);
        tagged = parse_abi_tags(d, x);
        if (tagged != x && !list_push(d, &d->subs, tagged)) return NULL;
        return tagged;
    }
    if (eat(d, "_")) return d->subs.n ? d->subs.v[0] : NULL;
    if (!parse_seq_id(d, &index) || !eat(d, "_") || d->subs.n < 2 || index > d->subs.n - 2) return NULL;
    return d->subs.v[index + 1];
}

static dnode *parse_ctor_dtor(dparse *d, dnode **so_far, name_state *st)
{
    dnode *x;
    if ((*so_far)->kind == N_SUBST && (*so_far)->ref >= 2) { /* std::string and the streams, spelt out */
        dnode *full = mk(d, N_SUBST_FULL, NULL, NULL);
        if (!full) return NULL;
        full->ref = (*so_far)->ref;
        *so_far = full;
    }
    if (eat(d, "C")) {
        int inherited = eat(d, "I");
        char c = look(d, 0);
        if (c < '1' || c > '5') return NULL;
        d->p++;
        if (st) st->ctor_dtor_conversion = 1;
        if (inherited && !parse_name(d, st)) return NULL;
        return mk(d, N_CTOR, *so_far, NULL);
    }
    if (look(d, 0) == 'D' && strchr("01245", look(d, 1)) && look(d, 1)) {
        d->p += 2;
        if (st) st->ctor_dtor_conversion = 1;
        x = mk(d, N_CTOR, *so_far, NULL);
        if (x) x->ref = 1;
        return x;
    }
    return NULL;
}

static dnode *parse_decltype(dparse *d)
{
    dnode *e, *x;
    if (!eat(d, "DT") && !eat(d, "Dt")) return NULL;
    e = parse_expr(d);
    if (!e || !eat(d, "E")) return NULL;
    x = mk(d, N_ENCLOSING, e, NULL);
    if (x) {
        x->s = "decltype(";
        x->s2 = ")";
    }
    return x;
}

static unsigned char parse_cv(dparse *d)
{
    unsigned char q = 0;
    if (eat(d, "r")) q |= Q_RESTRICT;
    if (eat(d, "V")) q |= Q_VOLATILE;
    if (eat(d, "K")) q |= Q_CONST;
    return q;
}

static dnode *nested_push(dparse *d, dnode *so_far, dnode *comp, name_state *st)
{
    if (!comp) return NULL;
    if (st) st->ends_with_targs = 0;
    return so_far ? mk(d, N_NESTED, so_far, comp) : comp;
}

static dnode *parse_nested(dparse *d, name_state *st)
{
    dnode *so_far = NULL;
    unsigned char q;
    if (!eat(d, "N")) return NULL;
    q = parse_cv(d);
    if (st) st->quals = q;
    if (eat(d, "O")) {
        if (st) st->ref = REF_RVALUE;
    } else if (eat(d, "R")) {
        if (st) st->ref = REF_LVALUE;
    } else if (st) st->ref = REF_NONE;
    if (eat(d, "St") && !(so_far = mk_lit(d, N_NAME, "std"))) return NULL;
    while (!eat(d, "E")) {
        eat(d, "L");
        if (look(d, 0) == 'M') {
            if (!so_far) return NULL;
            d->p++;
            continue;
        }
        if (look(d, 0) == 'T') {
            so_far = nested_push(d, so_far, parse_template_param(d), st);
        } else if (look(d, 0) == 'I') {
            dnode *ta = parse_targs(d, st != NULL);
            if (!ta || !so_far) return NULL;
            so_far = mk(d, N_TEMPLATED, so_far, ta);
            if (st) st->ends_with_targs = 1;
        } else if (look(d, 0) == 'D' && (look(d, 1) == 't' || look(d, 1) == 'T')) {
            so_far = nested_push(d, so_far, parse_decltype(d), st);
        } else if (look(d, 0) == 'S' && look(d, 1) != 't') {
            dnode *s = parse_substitution(d);
            dnode *before = so_far;
            so_far = nested_push(d, so_far, s, st);
            if (!so_far) return NULL;
            /* a substitution as the first component is not added again; one
               further in is added by itself, not the prefix (LLVM's way) */
            if (before != NULL && !list_push(d, &d->subs, s)) return NULL;
            continue;
        } else if (look(d, 0) == 'C' || (look(d, 0) == 'D' && look(d, 1) != 'C')) {
            dnode *comp;
            if (!so_far) return NULL;
            comp = parse_ctor_dtor(d, &so_far, st);
            so_far = nested_push(d, so_far, comp, st);
            so_far = so_far ? parse_abi_tags(d, so_far) : NULL;
        } else {
            so_far = nested_push(d, so_far, parse_unqualified(d, st), st);
        }
        if (!list_push(d, &d->subs, so_far)) return NULL;
    }
    if (!so_far || d->subs.n == 0) return NULL;
    d->subs.n--;
    return so_far;
}

static void skip_discriminator(dparse *d)
{
    const char *p = d->p, *e = d->end;
    if (p == e) return;
    if (*p == '_') {
        const char *t = p + 1;
        if (t != e) {
            if (is_digit(*t)) d->p = t + 1;
            else if (*t == '_') {
                for (++t; t != e && is_digit(*t); ++t) continue;
                if (t != e && *t == '_') d->p = t + 1;
            }
        }
    } else if (is_digit(*p)) {
        const char *t = p + 1;
        while (t != e && is_digit(*t)) ++t;
        if (t == e) d->p = e;
    }
}

static dnode *parse_local(dparse *d, name_state *st)
{
    dnode *enc, *entity;
    size_t n;
    if (!eat(d, "Z")) return NULL;
    enc = parse_encoding(d);
    if (!enc || !eat(d, "E")) return NULL;
    if (eat(d, "s")) {
        skip_discriminator(d);
        return mk(d, N_LOCAL, enc, mk_lit(d, N_NAME, "string literal"));
    }
    if (eat(d, "d")) {
        parse_number(d, 1, &n);
        if (!eat(d, "_")) return NULL;
        entity = parse_name(d, st);
        return entity ? mk(d, N_LOCAL, enc, entity) : NULL;
    }
    entity = parse_name(d, st);
    if (!entity) return NULL;
    skip_discriminator(d);
    return mk(d, N_LOCAL, enc, entity);
}

static dnode *parse_unscoped(dparse *d, name_state *st)
{
    dnode *x;
    if (eat(d, "StL") || eat(d, "St")) {
        x = parse_unqualified(d, st);
        return x ? mk(d, N_STD, x, NULL) : NULL;
    }
    return parse_unqualified(d, st);
}

static dnode *parse_name_body(dparse *d, name_state *st)
{
    dnode *x, *ta;
    eat(d, "L"); /* internal linkage */
    if (look(d, 0) == 'N') return parse_nested(d, st);
    if (look(d, 0) == 'Z') return parse_local(d, st);
    if (look(d, 0) == 'S' && look(d, 1) != 't') {
        dnode *s = parse_substitution(d);
        if (!s || look(d, 0) != 'I') return NULL;
        ta = parse_targs(d, st != NULL);
        if (!ta) return NULL;
        if (st) st->ends_with_targs = 1;
        return mk(d, N_TEMPLATED, s, ta);
    }
    x = parse_unscoped(d, st);
    if (!x) return NULL;
    if (look(d, 0) == 'I') {
        if (!list_push(d, &d->subs, x)) return NULL;
        ta = parse_targs(d, st != NULL);
        if (!ta) return NULL;
        if (st) st->ends_with_targs = 1;
        return mk(d, N_TEMPLATED, x, ta);
    }
    return x;
}

static dnode *parse_name(dparse *d, name_state *st)
{
    if (!enter(d)) return NULL;
    return leave(d, parse_name_body(d, st));
}

static dnode *parse_class_enum_type(dparse *d)
{
    const char *elab = NULL;
    dnode *n, *x;
    if (eat(d, "Ts")) elab = "struct ";
    else if (eat(d, "Tu")) elab = "union ";
    else if (eat(d, "Te")) elab = "enum ";
    n = parse_name(d, NULL);
    if (!n || !elab) return n;
    x = mk(d, N_POSTFIX, n, NULL);
    if (x) {
        x->s = elab;
        x->ref = 1; /* prefix */
    }
    return x;
}

static dnode *parse_function_type(dparse *d)
{
    unsigned char q = parse_cv(d);
    dnode *except = NULL, *ret, *x;
    size_t from;
    unsigned char ref = REF_NONE;
    if (eat(d, "Do")) {
        except = mk_lit(d, N_NAME, "noexcept");
    } else if (eat(d, "DO")) {
        dnode *e = parse_expr(d);
        if (!e || !eat(d, "E")) return NULL;
        except = mk(d, N_EXCEPT_SPEC, e, NULL);
        if (except) except->s = "noexcept(";
    } else if (eat(d, "Dw")) {
        from = d->names.n;
        while (!eat(d, "E"))
            if (!list_push(d, &d->names, parse_type(d))) return NULL;
        except = mk_list(d, N_EXCEPT_SPEC, from);
        if (except) except->s = "throw(";
    }
    eat(d, "Dx");
    if (!eat(d, "F")) return NULL;
    eat(d, "Y");
    ret = parse_type(d);
    if (!ret) return NULL;
    from = d->names.n;
    for (;;) {
        if (eat(d, "E")) break;
        if (eat(d, "v")) continue;
        if (eat(d, "RE")) {
            ref = REF_LVALUE;
            break;
        }
        if (eat(d, "OE")) {
            ref = REF_RVALUE;
            break;
        }
        if (!list_push(d, &d->names, parse_type(d))) return NULL;
    }
    x = mk_list(d, N_FUNC, from);
    if (!x) return NULL;
    x->a = ret;
    x->b = except;
    x->quals = q;
    x->ref = ref;
    return x;
}

static dnode *parse_qualified_type_body(dparse *d);

static dnode *parse_qualified_type(dparse *d)
{
    return guarded(d, parse_qualified_type_body);
}

static dnode *parse_qualified_type_body(dparse *d)
{
    unsigned char q;
    dnode *t;
    if (eat(d, "U")) {
        size_t n;
        const char *s = bare_source_name(d, &n);
        dnode *ta = NULL, *child, *x;
        if (!s) return NULL;
        if (look(d, 0) == 'I' && !(ta = parse_targs(d, 0))) return NULL;
        child = parse_qualified_type(d);
        if (!child) return NULL;
        x = with_text(mk(d, N_VENDOR, child, ta), s, n);
        return x;
    }
    q = parse_cv(d);
    t = parse_type(d);
    if (!t || !q) return t;
    t = mk(d, N_QUAL, t, NULL);
    if (t) t->quals = q;
    return t;
}

static const struct {
    char        code[3];
    const char *name;
} df_builtins[] = {
    {"v", "void"}, {"w", "wchar_t"}, {"b", "bool"}, {"c", "char"}, {"a", "signed char"}, {"h", "unsigned char"},
    {"s", "short"}, {"t", "unsigned short"}, {"i", "int"}, {"j", "unsigned int"}, {"l", "long"},
    {"m", "unsigned long"}, {"x", "long long"}, {"y", "unsigned long long"}, {"n", "__int128"},
    {"o", "unsigned __int128"}, {"f", "float"}, {"d", "double"}, {"e", "long double"}, {"g", "__float128"},
    {"z", "..."}, {"Dd", "decimal64"}, {"De", "decimal128"}, {"Df", "decimal32"}, {"Dh", "half"},
    {"Di", "char32_t"}, {"Ds", "char16_t"}, {"Du", "char8_t"}, {"Da", "auto"}, {"Dc", "decltype(auto)"},
    {"Dn", "std::nullptr_t"},
};

static dnode *parse_type_body(dparse *d)
{
    dnode *r = NULL, *t;
    size_t i, n;
    char c = look(d, 0), c1 = look(d, 1);
    for (i = 0; i < sizeof df_builtins / sizeof *df_builtins; i++) {
        const char *code = df_builtins[i].code;
        if (c == code[0] && (code[1] == '\0' || c1 == code[1])) {
            d->p += strlen(code);
            return mk_text(d, N_NAME, df_builtins[i].name, strlen(df_builtins[i].name));
        }
    }
    switch (c) {
    case 'r':
    case 'V':
    case 'K': {
        size_t k = 0;
        if (look(d, k) == 'r') k++;
        if (look(d, k) == 'V') k++;
        if (look(d, k) == 'K') k++;
        if (look(d, k) == 'F' ||
            (look(d, k) == 'D' && strchr("oOwx", look(d, k + 1)) && look(d, k + 1)))
            r = parse_function_type(d);
        else
            r = parse_qualified_type(d);
        break;
    }
    case 'U': r = parse_qualified_type(d); break;
    case 'u': {
        const char *s;
        d->p++;
        s = bare_source_name(d, &n);
        r = s ? mk_text(d, N_NAME, s, n) : NULL;
        break;
    }
    case 'D':
        if (c1 == 'F') { /* _FloatN */
            const char *num;
            d->p += 2;
            num = parse_number(d, 0, &n);
            if (n == 0 || !eat(d, "_")) return NULL;
            r = mk(d, N_NAME, NULL, NULL);
            if (r) {
                r->s = num;
                r->n = n;
                r->ref = 3; /* "_Float" N */
            }
            return r;
        }
        if (c1 == 't' || c1 == 'T') {
            r = parse_decltype(d);
        } else if (c1 == 'v') { /* vector type */
            dnode *dim = NULL;
            d->p += 2;
            if (is_digit(look(d, 0))) {
                const char *num = parse_number(d, 0, &n);
                dim = mk_text(d, N_NAME, num, n);
                if (!dim || !eat(d, "_")) return NULL;
                if (eat(d, "p")) { /* AltiVec pixel */
                    r = mk(d, N_VECTOR, NULL, dim);
                    break;
                }
            } else if (!eat(d, "_") || !(dim = parse_expr(d)) || !eat(d, "_")) {
                return NULL;
            }
            t = parse_type(d);
            r = t ? mk(d, N_VECTOR, t, dim) : NULL;
        } else if (c1 == 'p') {
            d->p += 2;
            t = parse_type(d);
            r = t ? mk(d, N_EXPANSION, t, NULL) : NULL;
        } else if (strchr("oOwx", c1) && c1) {
            r = parse_function_type(d);
        } else {
            return NULL;
        }
        break;
    case 'F': r = parse_function_type(d); break;
    case 'A': {
        dnode *dim = NULL;
        d->p++;
        if (is_digit(look(d, 0))) {
            const char *num = parse_number(d, 0, &n);
            dim = mk_text(d, N_NAME, num, n);
            if (!eat(d, "_")) return NULL;
        } else if (!eat(d, "_")) {
            dim = parse_expr(d);
            if (!dim || !eat(d, "_")) return NULL;
        }
        t = parse_type(d);
        r = t ? mk(d, N_ARRAY, t, dim) : NULL;
        break;
    }
    case 'M': {
        dnode *cls;
        d->p++;
        cls = parse_type(d);
        t = cls ? parse_type(d) : NULL;
        r = t ? mk(d, N_PTRMEM, cls, t) : NULL;
        break;
    }
    case 'T':
        if (c1 == 's' || c1 == 'u' || c1 == 'e') {
            r = parse_class_enum_type(d);
            break;
        }
        r = parse_template_param(d);
        if (r && d->try_targs && look(d, 0) == 'I') {
            dnode *ta;
            if (!list_push(d, &d->subs, r)) return NULL;
            ta = parse_targs(d, 0);
            r = ta ? mk(d, N_TEMPLATED, r, ta) : NULL;
        }
        break;
    case 'P':
    case 'R':
    case 'O':
        d->p++;
        t = parse_type(d);
        r = t ? mk(d, c == 'P' ? N_POINTER : N_REF, t, NULL) : NULL;
        if (r && c != 'P') r->ref = c == 'R' ? REF_LVALUE : REF_RVALUE;
        break;
    case 'C':
    case 'G':
        d->p++;
        t = parse_type(d);
        r = t ? mk(d, N_POSTFIX, t, NULL) : NULL;
        if (r) r->s = c == 'C' ? " complex" : " imaginary";
        break;
    case 'S':
        if (c1 != 't') {
            dnode *s = parse_substitution(d);
            if (!s) return NULL;
            if (d->try_targs && look(d, 0) == 'I') {
                r = with_targs(d, s);
                break;
            }
            return s;
        }
        r = parse_class_enum_type(d);
        break;
    default:
        r = parse_class_enum_type(d);
        break;
    }
    return list_push(d, &d->subs, r) ? r : NULL;
}

static dnode *parse_type(dparse *d)
{
    return guarded(d, parse_type_body);
}

static dnode *parse_int_literal(dparse *d, const char *type)
{
    size_t n;
    const char *num = parse_number(d, 1, &n);
    dnode *x;
    if (n == 0 || !eat(d, "E")) return NULL;
    x = mk_text(d, N_INT_LIT, num, n);
    if (x) x->s2 = type;
    return x;
}

static dnode *parse_expr_primary(dparse *d)
{
    static const char codes[] = "wcahstijlmxyno";
    static const char *const types[] = {"wchar_t", "char", "signed char", "unsigned char", "short",
                                        "unsigned short", "", "u", "l", "ul", "ll", "ull", "__int128",
                                        "unsigned __int128"};
    const char *k;
    dnode *t, *x;
    size_t n;
    if (!eat(d, "L")) return NULL;
    if (look(d, 0) && (k = strchr(codes, look(d, 0))) != NULL) {
        d->p++;
        return parse_int_literal(d, types[k - codes]);
    }
    switch (look(d, 0)) {
    case 'b':
        if (eat(d, "b0E") || eat(d, "b1E")) {
            x = mk(d, N_BOOL, NULL, NULL);
            if (x) x->ref = d->p[-2] == '1';
            return x;
        }
        return NULL;
    case 'f':
    case 'd':
    case 'e':
        return NULL; /* floating-point literals: not covered */
    case '_':
        if (eat(d, "_Z")) {
            t = parse_encoding(d);
            if (t && eat(d, "E")) return t;
        }
        return NULL;
    case 'A':
        t = parse_type(d);
        return t && eat(d, "E") ? mk(d, N_STRING_LIT, t, NULL) : NULL;
    case 'D':
        return eat(d, "DnE") ? mk_lit(d, N_NAME, "nullptr") : NULL;
    case 'T':
        return NULL;
    case 'U':
        if (look(d, 1) != 'l') return NULL;
        t = parse_unnamed(d);
        return t && eat(d, "E") ? mk(d, N_LAMBDA_EXPR, t, NULL) : NULL;
    default: {
        const char *num;
        t = parse_type(d);
        if (!t) return NULL;
        num = parse_number(d, 1, &n);
        if (n == 0 || !eat(d, "E")) return NULL;
        x = mk_text(d, N_ENUM_LIT, num, n);
        if (x) x->a = t;
        return x;
    }
    }
}

static dnode *parse_unresolved(dparse *d);

/* <unresolved-name>, the forms seen in decltype expressions. */
static dnode *parse_unresolved_body(dparse *d)
{
    dnode *x;
    int global = eat(d, "gs");
    if (eat(d, "sr")) {
        dnode *q;
        if (eat(d, "N")) {
            q = parse_type(d);
            if (!q) return NULL;
            while (!eat(d, "E")) {
                dnode *part = with_targs(d, parse_source_name(d));
                if (!part) return NULL;
                q = mk(d, N_NESTED, q, part);
            }
        } else if (is_digit(look(d, 0))) {
            q = NULL;
            do { /* qualifier levels: simple ids */
                dnode *part = with_targs(d, parse_source_name(d));
                if (!part) return NULL;
                q = q ? mk(d, N_NESTED, q, part) : part;
            } while (q && !eat(d, "E"));
        } else {
            q = parse_type(d);
        }
        if (!q) return NULL;
        x = parse_unresolved(d);
        x = x ? mk(d, N_NESTED, q, x) : NULL;
    } else if (eat(d, "on")) {
        x = with_targs(d, parse_operator_name(d, NULL));
    } else if (eat(d, "dn")) {
        x = is_digit(look(d, 0)) ? parse_source_name(d) : parse_type(d);
        if (x) {
            x = mk(d, N_CTOR, x, NULL);
            if (x) x->ref = 1;
        }
    } else {
        x = with_targs(d, parse_source_name(d));
    }
    if (x && global) {
        dnode *g = mk(d, N_PREFIX, x, NULL);
        if (g) g->s = "::";
        return g;
    }
    return x;
}

static dnode *parse_unresolved(dparse *d)
{
    return guarded(d, parse_unresolved_body);
}

static dnode *parse_expr_body(dparse *d)
{
    dnode *x, *y;
    size_t from, n;
    int op;
    char c = look(d, 0);
    if (c == 'L') return parse_expr_primary(d);
    if (c == 'T') return parse_template_param(d);
    if (eat(d, "fp")) {
        const char *num;
        parse_cv(d);
        num = parse_number(d, 0, &n);
        if (!eat(d, "_")) return NULL;
        return mk_text(d, N_FUNC_PARAM, num, n);
    }
    if (is_digit(c) || (c == 's' && look(d, 1) == 'r') || (c == 'g' && look(d, 1) == 's') ||
        (c == 'o' && look(d, 1) == 'n') || (c == 'd' && look(d, 1) == 'n'))
        return parse_unresolved(d);
    if (eat(d, "sp")) {
        x = parse_expr(d);
        return x ? mk(d, N_EXPANSION, x, NULL) : NULL;
    }
    if (eat(d, "cl")) {
        dnode *callee = parse_expr(d);
        if (!callee) return NULL;
        from = d->names.n;
        while (!eat(d, "E"))
            if (!list_push(d, &d->names, parse_expr(d))) return NULL;
        x = mk_list(d, N_CALL, from);
        if (x) x->a = callee;
        return x;
    }
    if ((c == 'd' || c == 'p') && look(d, 1) == 't') {
        d->p += 2;
        x = parse_expr(d);
        y = x ? parse_expr(d) : NULL;
        if (!y) return NULL;
        x = mk(d, N_MEMBER, x, y);
        if (x) x->s = c == 'd' ? "." : "->";
        return x;
    }
    if ((c == 's' || c == 'a') && (look(d, 1) == 't' || look(d, 1) == 'z')) { /* sizeof, alignof */
        int type = look(d, 1) == 't';
        d->p += 2;
        x = type ? parse_type(d) : parse_expr(d);
        y = x ? mk(d, N_ENCLOSING, x, NULL) : NULL;
        if (y) {
            y->s = c == 's' ? "sizeof (" : "alignof (";
            y->s2 = ")";
        }
        return y;
    }
    if (eat(d, "cv")) {
        dnode *t = parse_cast_type(d);
        if (!t) return NULL;
        from = d->names.n;
        if (eat(d, "_")) {
            while (!eat(d, "E"))
                if (!list_push(d, &d->names, parse_expr(d))) return NULL;
        } else if (!list_push(d, &d->names, parse_expr(d))) {
            return NULL;
        }
        x = mk_list(d, N_CONVERSION, from);
        if (x) x->a = t;
        return x;
    }
    if ((c == 's' || c == 'd' || c == 'c' || c == 'r') && look(d, 1) == 'c') {
        static const char kinds[] = "sdcr";
        static const char *const names[] = {"static_cast", "dynamic_cast", "const_cast", "reinterpret_cast"};
        const char *name = names[strchr(kinds, c) - kinds];
        d->p += 2;
        x = parse_type(d);
        y = x ? parse_expr(d) : NULL;
        if (!y) return NULL;
        x = mk(d, N_CAST, x, y);
        if (x) x->s = name;
        return x;
    }
    op = find_op(d);
    if (op >= 0 && df_ops[op].arity > 0) {
        d->p += 2;
        x = parse_expr(d);
        if (!x) return NULL;
        if (df_ops[op].arity == 1) {
            y = mk(d, N_PREFIX, x, NULL);
            if (y) y->s = df_ops[op].name;
            return y;
        }
        y = parse_expr(d);
        if (!y) return NULL;
        x = mk(d, N_BINARY, x, y);
        if (x) x->s = df_ops[op].name;
        return x;
    }
    return NULL;
}

static dnode *parse_expr(dparse *d)
{
    return guarded(d, parse_expr_body);
}

static dnode *parse_targ(dparse *d)
{
    dnode *x;
    size_t from;
    if (!enter(d)) return NULL;
    switch (look(d, 0)) {
    case 'X':
        d->p++;
        x = parse_expr(d);
        return leave(d, x && eat(d, "E") ? x : NULL);
    case 'J':
        d->p++;
        from = d->names.n;
        while (!eat(d, "E"))
            if (!list_push(d, &d->names, parse_targ(d))) return leave(d, NULL);
        return leave(d, mk_list(d, N_TARG_PACK, from));
    case 'L':
        if (look(d, 1) == 'Z') {
            d->p += 2;
            x = parse_encoding(d);
            return leave(d, x && eat(d, "E") ? x : NULL);
        }
        return leave(d, parse_expr_primary(d));
    default:
        return leave(d, parse_type(d));
    }
}

/* tag: these are the template args of the name being encoded, which its
   template params (T_) refer to. */
static dnode *parse_targs(dparse *d, int tag)
{
    size_t from = d->names.n;
    if (!eat(d, "I")) return NULL;
    if (tag) {
        d->outer.n = 0;
        d->have_params = 1;
    }
    while (!eat(d, "E")) {
        dnode *arg;
        if (tag) {
            int save = d->have_params;
            d->have_params = 0; /* LLVM hides the params while it parses the args */
            arg = parse_targ(d);
            d->have_params = save;
        } else {
            arg = parse_targ(d);
        }
        if (!list_push(d, &d->names, arg)) return NULL;
        if (tag) {
            dnode *entry = arg;
            if (arg->kind == N_TARG_PACK) {
                entry = mk(d, N_PACK, NULL, NULL);
                if (!entry) return NULL;
                entry->v = arg->v;
                entry->nv = arg->nv;
            }
            if (!list_push(d, &d->outer, entry)) return NULL;
        }
    }
    return mk_list(d, N_TARGS, from);
}

static int parse_call_offset(dparse *d)
{
    size_t n;
    if (eat(d, "h")) return parse_number(d, 1, &n) && n && eat(d, "_");
    if (eat(d, "v")) {
        parse_number(d, 1, &n);
        if (!n || !eat(d, "_")) return 0;
        parse_number(d, 1, &n);
        return n && eat(d, "_");
    }
    return 0;
}

static dnode *special(dparse *d, const char *text, dnode *child)
{
    dnode *x = child ? mk(d, N_SPECIAL, child, NULL) : NULL;
    if (x) x->s = text;
    return x;
}

static dnode *parse_special(dparse *d)
{
    size_t n, count;
    dnode *first, *second;
    if (look(d, 0) == 'T') {
        char c = look(d, 1);
        d->p += 2;
        switch (c) {
        case 'A': return special(d, "template parameter object for ", parse_targ(d));
        case 'V': return special(d, "vtable for ", parse_type(d));
        case 'T': return special(d, "VTT for ", parse_type(d));
        case 'I': return special(d, "typeinfo for ", parse_type(d));
        case 'S': return special(d, "typeinfo name for ", parse_type(d));
        case 'h':
        case 'v':
            d->p--; /* the call offset starts with its kind */
            if (!parse_call_offset(d)) return NULL;
            return special(d, c == 'v' ? "virtual thunk to " : "non-virtual thunk to ", parse_encoding(d));
        case 'c':
            if (!parse_call_offset(d) || !parse_call_offset(d)) return NULL;
            return special(d, "covariant return thunk to ", parse_encoding(d));
        case 'C':
            first = parse_type(d);
            if (!first) return NULL;
            parse_number(d, 1, &n);
            if (!n || !eat(d, "_")) return NULL;
            second = parse_type(d);
            if (!second) return NULL;
            return mk(d, N_CTOR_VTABLE, first, second);
        case 'W': return special(d, "thread-local wrapper routine for ", parse_name(d, NULL));
        case 'H': return special(d, "thread-local initialization routine for ", parse_name(d, NULL));
        default: return NULL;
        }
    }
    if (look(d, 0) == 'G') {
        char c = look(d, 1);
        d->p += 2;
        if (c == 'V') return special(d, "guard variable for ", parse_name(d, NULL));
        if (c == 'R') {
            dnode *name = parse_name(d, NULL);
            int seq = parse_seq_id(d, &count);
            if (!eat(d, "_") && seq) return NULL;
            return special(d, "reference temporary for ", name);
        }
    }
    return NULL;
}

static int end_of_encoding(const dparse *d)
{
    char c = look(d, 0);
    return c == '\0' || c == 'E' || c == '.';
}

static dnode *parse_encoding_body(dparse *d)
{
    name_state st;
    dnode *name, *ret = NULL, *x;
    size_t from;
    if (look(d, 0) == 'G' || look(d, 0) == 'T') return parse_special(d);
    memset(&st, 0, sizeof st);
    name = parse_name(d, &st);
    if (!name) return NULL;
    if (end_of_encoding(d)) return name;
    if (eat(d, "Ua9enable_ifI")) return NULL; /* attributes: not covered */
    if (!st.ctor_dtor_conversion && st.ends_with_targs && !(ret = parse_type(d))) return NULL;
    from = d->names.n;
    if (!eat(d, "v")) {
        do {
            if (!list_push(d, &d->names, parse_type(d))) return NULL;
        } while (!end_of_encoding(d));
    }
    x = mk_list(d, N_ENCODING, from);
    if (!x) return NULL;
    x->a = ret;
    x->b = name;
    x->quals = st.quals;
    x->ref = st.ref;
    return x;
}

static dnode *parse_encoding(dparse *d)
{
    /* the template params of an enclosing encoding come back afterwards */
    dlist saved = d->outer;
    int have = d->have_params;
    dnode *x;
    if (!enter(d)) return NULL;
    d->outer.v = NULL;
    d->outer.n = d->outer.cap = 0;
    d->have_params = 0;
    x = parse_encoding_body(d);
    free(d->outer.v);
    d->outer = saved;
    d->have_params = have;
    return leave(d, x);
}

/* ---- printing ---------------------------------------------------------------------- */

typedef struct dprint {
    char    *buf;
    size_t   len, cap;
    unsigned pack_index, pack_max; /* the pack expansion being printed */
    int      depth;
    unsigned long steps;
    int      failed;
} dprint;

#define NO_PACK ((unsigned)-1)

static void put(dprint *o, const char *s, size_t n)
{
    if (o->failed) return;
    if (o->len + n > DF_OUTPUT_MAX) {
        o->failed = 1;
        return;
    }
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        char *b;
        while (cap < o->len + n + 1) cap *= 2;
        b = realloc(o->buf, cap);
        if (!b) {
            o->failed = 1;
            return;
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void puts_(dprint *o, const char *s)
{
    put(o, s, strlen(s));
}

static char last(const dprint *o)
{
    return o->len ? o->buf[o->len - 1] : '\0';
}

static void print(dprint *o, const dnode *x);
static void print_left(dprint *o, const dnode *x);
static void print_right(dprint *o, const dnode *x);

/* The element of a pack being printed (NULL for an empty pack). */
static const dnode *pack_element(dprint *o, const dnode *x)
{
    if (o->pack_max == NO_PACK) {
        o->pack_max = (unsigned)x->nv;
        o->pack_index = 0;
    }
    return o->pack_index < x->nv ? x->v[o->pack_index] : NULL;
}

/* What a node is for the declarator rules: packs and qualifiers looked
   through. */
static int has_rhs(dprint *o, const dnode *x)
{
    while (x) {
        switch (x->kind) {
        case N_FUNC:
        case N_ARRAY:
        case N_ENCODING: return 1;
        case N_POINTER:
        case N_REF:
        case N_QUAL: x = x->a; break;
        case N_PTRMEM: x = x->b; break;
        case N_PACK: x = pack_element(o, x); break;
        default: return 0;
        }
    }
    return 0;
}

static int has_kind(dprint *o, const dnode *x, int kind)
{
    while (x && (x->kind == N_QUAL || x->kind == N_PACK)) x = x->kind == N_QUAL ? x->a : pack_element(o, x);
    return x && x->kind == kind;
}

static void print_list(dprint *o, dnode *const *v, size_t n)
{
    size_t i;
    int first = 1;
    for (i = 0; i < n; i++) {
        size_t before = o->len, after;
        if (!first) puts_(o, ", ");
        after = o->len;
        print(o, v[i]);
        if (o->len == after) { /* an empty pack expansion: no comma */
            o->len = before;
            continue;
        }
        first = 0;
    }
}

/* pre, x, post */
static void wrap(dprint *o, const char *pre, const dnode *x, const char *post)
{
    puts_(o, pre);
    print(o, x);
    puts_(o, post);
}

/* pre, x's list with commas, post */
static void wrap_list(dprint *o, const char *pre, const dnode *x, const char *post)
{
    puts_(o, pre);
    print_list(o, x->v, x->nv);
    puts_(o, post);
}

/* x->a, then its text between pre and post (ABI tags, clone suffixes) */
static void print_tagged(dprint *o, const dnode *x, const char *pre, const char *post)
{
    print(o, x->a);
    puts_(o, pre);
    put(o, x->s, x->n);
    puts_(o, post);
}

static void print_quals(dprint *o, unsigned q)
{
    if (q & Q_CONST) puts_(o, " const");
    if (q & Q_VOLATILE) puts_(o, " volatile");
    if (q & Q_RESTRICT) puts_(o, " restrict");
}

static void print_ref_qual(dprint *o, unsigned ref)
{
    if (ref == REF_LVALUE) puts_(o, " &");
    else if (ref == REF_RVALUE) puts_(o, " &&");
}

/* The name a constructor or destructor takes from its class. */
static void print_base_name(dprint *o, const dnode *x)
{
    static const char *const subst_bases[] = {"allocator", "basic_string", "basic_string", "basic_istream",
                                              "basic_ostream", "basic_iostream"};
    while (x) {
        switch (x->kind) {
        case N_NESTED: x = x->b; break;
        case N_TEMPLATED:
        case N_STD: x = x->a; break; /* not through an ABI tag: LLVM prints "::~()" */
        case N_NAME:
            if (x->ref == 1) puts_(o, "operator");
            if (x->ref <= 1) put(o, x->s, x->n);
            return;
        case N_SUBST:
        case N_SUBST_FULL: puts_(o, subst_bases[x->ref]); return;
        default: return;
        }
    }
}

/* A reference to a reference collapses: & wins. */
static const dnode *collapse_ref(dprint *o, const dnode *x, unsigned *kind)
{
    *kind = x->ref;
    x = x->a;
    for (;;) {
        const dnode *y = x;
        while (y && y->kind == N_PACK) y = pack_element(o, y);
        if (!y || y->kind != N_REF) return y;
        if (y->ref < *kind) *kind = y->ref;
        x = y->a;
    }
}

static void print_left_body(dprint *o, const dnode *x)
{
    static const char *const subst_short[] = {"std::allocator", "std::basic_string", "std::string",
                                              "std::istream", "std::ostream", "std::iostream"};
    static const char *const subst_full[] = {
        "std::allocator", "std::basic_string", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
        "std::basic_istream<char, std::char_traits<char> >", "std::basic_ostream<char, std::char_traits<char> >",
        "std::basic_iostream<char, std::char_traits<char> >"};
    const dnode *y;
    unsigned kind;
    switch (x->kind) {
    case N_NAME:
        if (x->ref == 1) puts_(o, "operator");
        if (x->ref == 2) {
            puts_(o, "[");
            print_list(o, x->v, x->nv);
            puts_(o, "]");
            return;
        }
        if (x->ref == 3) puts_(o, "_Float");
        put(o, x->s, x->n);
        return;
    case N_NESTED:
    case N_LOCAL:
        print(o, x->a);
        puts_(o, "::");
        print(o, x->b);
        return;
    case N_STD:
        wrap(o, "std::", x->a, "");
        return;
    case N_TEMPLATED:
        print(o, x->a);
        print(o, x->b);
        return;
    case N_TARGS:
        wrap_list(o, "<", x, "");
        if (last(o) == '>') puts_(o, " ");
        puts_(o, ">");
        return;
    case N_CTOR:
        if (x->ref) puts_(o, "~");
        print_base_name(o, x->a);
        return;
    case N_ABITAG:
        print_tagged(o, x, "[abi:", "]");
        return;
    case N_ENCODING:
        if (x->a) {
            print_left(o, x->a);
            if (!has_rhs(o, x->a)) puts_(o, " ");
        }
        print(o, x->b);
        return;
    case N_DOTSUFFIX:
        print_tagged(o, x, " (", ")");
        return;
    case N_SPECIAL:
        wrap(o, x->s, x->a, "");
        return;
    case N_CTOR_VTABLE:
        wrap(o, "construction vtable for ", x->b, "-in-");
        print(o, x->a);
        return;
    case N_QUAL:
        print_left(o, x->a);
        print_quals(o, x->quals);
        return;
    case N_POINTER:
        print_left(o, x->a);
        if (has_kind(o, x->a, N_ARRAY)) puts_(o, " ");
        if (has_kind(o, x->a, N_ARRAY) || has_kind(o, x->a, N_FUNC)) puts_(o, "(");
        puts_(o, "*");
        return;
    case N_REF:
        y = collapse_ref(o, x, &kind);
        if (!y) return;
        print_left(o, y);
        if (has_kind(o, y, N_ARRAY)) puts_(o, " ");
        if (has_kind(o, y, N_ARRAY) || has_kind(o, y, N_FUNC)) puts_(o, "(");
        puts_(o, kind == REF_LVALUE ? "&" : "&&");
        return;
    case N_FUNC:
        print_left(o, x->a);
        puts_(o, " ");
        return;
    case N_ARRAY:
        print_left(o, x->a);
        return;
    case N_PTRMEM:
        print_left(o, x->b);
        puts_(o, has_kind(o, x->b, N_ARRAY) || has_kind(o, x->b, N_FUNC) ? "(" : " ");
        print(o, x->a);
        puts_(o, "::*");
        return;
    case N_POSTFIX:
        if (x->ref) puts_(o, x->s);
        print_left(o, x->a);
        if (!x->ref) puts_(o, x->s);
        return;
    case N_VENDOR:
        print(o, x->a);
        puts_(o, " ");
        put(o, x->s, x->n);
        if (x->b) print(o, x->b);
        return;
    case N_PACK:
        if ((y = pack_element(o, x)) != NULL) print_left(o, y);
        return;
    case N_VECTOR:
        if (x->a) {
            print(o, x->a);
            puts_(o, " vector[");
        } else {
            puts_(o, "pixel vector[");
        }
        print(o, x->b);
        puts_(o, "]");
        return;
    case N_TARG_PACK:
        print_list(o, x->v, x->nv);
        return;
    case N_EXPANSION: {
        unsigned save_index = o->pack_index, save_max = o->pack_max, i, max;
        size_t start = o->len;
        o->pack_index = o->pack_max = NO_PACK;
        print(o, x->a);
        max = o->pack_max;
        if (max == NO_PACK) {
            puts_(o, "...");
        } else if (max == 0) {
            o->len = start;
        } else {
            for (i = 1; i < max; i++) {
                puts_(o, ", ");
                o->pack_index = i;
                print(o, x->a);
            }
        }
        o->pack_index = save_index;
        o->pack_max = save_max;
        return;
    }
    case N_CONV_OP:
        wrap(o, "operator ", x->a, "");
        return;
    case N_LIT_OP:
        wrap(o, "operator\"\" ", x->a, "");
        return;
    case N_CLOSURE:
        puts_(o, "'lambda");
        put(o, x->s, x->n);
        wrap_list(o, "'(", x, ")");
        return;
    case N_UNNAMED:
        puts_(o, "'unnamed");
        put(o, x->s, x->n);
        puts_(o, "'");
        return;
    case N_SUBST:
        puts_(o, subst_short[x->ref]);
        return;
    case N_SUBST_FULL:
        puts_(o, subst_full[x->ref]);
        return;
    case N_INT_LIT: {
        size_t tn = strlen(x->s2);
        if (tn > 3) {
            puts_(o, "(");
            puts_(o, x->s2);
            puts_(o, ")");
        }
        if (x->s[0] == 'n') {
            puts_(o, "-");
            put(o, x->s + 1, x->n - 1);
        } else {
            put(o, x->s, x->n);
        }
        if (tn <= 3) puts_(o, x->s2);
        return;
    }
    case N_BOOL:
        puts_(o, x->ref ? "true" : "false");
        return;
    case N_ENUM_LIT:
        wrap(o, "(", x->a, ")");
        if (x->s[0] == 'n') {
            puts_(o, "-");
            put(o, x->s + 1, x->n - 1);
        } else {
            put(o, x->s, x->n);
        }
        return;
    case N_STRING_LIT:
        wrap(o, "\"<", x->a, ">\"");
        return;
    case N_ENCLOSING:
        wrap(o, x->s, x->a, x->s2);
        return;
    case N_BINARY:
        if (strcmp(x->s, ">") == 0) puts_(o, "(");
        puts_(o, "(");
        print(o, x->a);
        puts_(o, ") ");
        puts_(o, x->s);
        puts_(o, " (");
        print(o, x->b);
        puts_(o, ")");
        if (strcmp(x->s, ">") == 0) puts_(o, ")");
        return;
    case N_PREFIX:
        puts_(o, x->s);
        if (strcmp(x->s, "::") == 0) print(o, x->a);
        else wrap(o, "(", x->a, ")");
        return;
    case N_CALL:
        print(o, x->a);
        wrap_list(o, "(", x, ")");
        return;
    case N_MEMBER:
        print(o, x->a);
        puts_(o, x->s);
        print(o, x->b);
        return;
    case N_CAST:
        puts_(o, x->s);
        wrap(o, "<", x->a, ">");
        wrap(o, "(", x->b, ")");
        return;
    case N_CONVERSION:
        wrap(o, "(", x->a, ")");
        wrap_list(o, "(", x, ")");
        return;
    case N_FUNC_PARAM:
        puts_(o, "fp");
        put(o, x->s, x->n);
        return;
    case N_LAMBDA_EXPR:
        puts_(o, "[]{...}");
        return;
    case N_EXCEPT_SPEC:
        if (x->a) wrap(o, x->s, x->a, ")");
        else wrap_list(o, x->s, x, ")");
        return;
    default:
        return;
    }
}

static void print_right_body(dprint *o, const dnode *x)
{
    const dnode *y;
    unsigned kind;
    switch (x->kind) {
    case N_ENCODING:
        wrap_list(o, "(", x, ")");
        if (x->a) print_right(o, x->a);
        print_quals(o, x->quals);
        print_ref_qual(o, x->ref);
        return;
    case N_QUAL:
        print_right(o, x->a);
        return;
    case N_POINTER:
        if (has_kind(o, x->a, N_ARRAY) || has_kind(o, x->a, N_FUNC)) puts_(o, ")");
        print_right(o, x->a);
        return;
    case N_REF:
        y = collapse_ref(o, x, &kind);
        if (!y) return;
        if (has_kind(o, y, N_ARRAY) || has_kind(o, y, N_FUNC)) puts_(o, ")");
        print_right(o, y);
        return;
    case N_FUNC:
        wrap_list(o, "(", x, ")");
        print_right(o, x->a);
        print_quals(o, x->quals);
        print_ref_qual(o, x->ref);
        if (x->b) {
            puts_(o, " ");
            print(o, x->b);
        }
        return;
    case N_ARRAY:
        if (last(o) != ']') puts_(o, " ");
        wrap(o, "[", x->b, "]");
        print_right(o, x->a);
        return;
    case N_PTRMEM:
        if (has_kind(o, x->b, N_ARRAY) || has_kind(o, x->b, N_FUNC)) puts_(o, ")");
        print_right(o, x->b);
        return;
    case N_PACK:
        if ((y = pack_element(o, x)) != NULL) print_right(o, y);
        return;
    default:
        return;
    }
}

static int print_enter(dprint *o)
{
    if (++o->steps > DF_STEPS_MAX || o->depth >= DF_DEPTH_MAX * 4) o->failed = 1;
    if (o->failed) return 0;
    o->depth++;
    return 1;
}

static void print_left(dprint *o, const dnode *x)
{
    if (!x || !print_enter(o)) return;
    print_left_body(o, x);
    o->depth--;
}

static void print_right(dprint *o, const dnode *x)
{
    if (!x || !print_enter(o)) return;
    print_right_body(o, x);
    o->depth--;
}

static void print(dprint *o, const dnode *x)
{
    print_left(o, x);
    print_right(o, x);
}

/* ---- the entry point --------------------------------------------------------------- */

char *demangle_full(const char *mangled)
{
    dparse d;
    dprint o;
    dnode *x = NULL;
    size_t n = mangled ? strnlen(mangled, DF_INPUT_MAX + 1) : 0;
    if (n < 2 || n > DF_INPUT_MAX || mangled[0] != '_' || mangled[1] != 'Z') return NULL;
    memset(&d, 0, sizeof d);
    memset(&o, 0, sizeof o);
    d.p = mangled + 2;
    d.end = mangled + n;
    d.try_targs = 1;
    x = parse_encoding(&d);
    if (x && look(&d, 0) == '.') {
        x = mk(&d, N_DOTSUFFIX, x, NULL);
        if (x) {
            x->s = d.p;
            x->n = (size_t)(d.end - d.p);
        }
        d.p = d.end;
    }
    if (x && d.p == d.end && !d.failed) {
        o.pack_index = o.pack_max = NO_PACK;
        print(&o, x);
        put(&o, "", 1);
    } else {
        o.failed = 1;
    }
    while (d.blocks) {
        dblock *b = d.blocks->next;
        free(d.blocks);
        d.blocks = b;
    }
    free(d.subs.v);
    free(d.names.v);
    free(d.outer.v);
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}
