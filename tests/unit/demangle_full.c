/* demangle_full.c - tools/cli/uftrace/demangle_full.c (demangle_full())
   against LLVM 14's demangler. Run from the repo root (make test does).

     tests/data/xray/demangle-llvm14.tsv   "mangled<TAB>shown" pairs: what
         llvm-cxxfilt 14 prints for each name (the name itself where LLVM
         does not demangle it). Real names (the test binaries of
         tests/data/xray/instrmap, libLLVM-14, libstdc++, libclang-cpp),
         mutated ones and random token strings; tests/data/xray/instrmap/
         README.md says how it was made.

   Then hostile inputs: every prefix of the table's names, deep and long
   names, substitutions that double the output at each step: nothing may
   crash, and the bounds give NULL. */
#include "tools/cli/uftrace/demangle.h"
#include "tests/lib/testlib.h"

#define TSV_PATH "tests/data/xray/demangle-llvm14.tsv"

/* "mangled\tshown" lines, split in place. */
static size_t load(char *text, size_t len, char ***mangled, char ***shown)
{
    size_t n = 0, i;
    char *p = text, *end = text + len;
    for (i = 0; i < len; i++) n += text[i] == '\n';
    *mangled = (char **)calloc(n + 1, sizeof **mangled);
    *shown = (char **)calloc(n + 1, sizeof **shown);
    if (!*mangled || !*shown) return 0;
    for (i = 0; i < n && p < end; i++) {
        char *nl = (char *)memchr(p, '\n', (size_t)(end - p)), *tab;
        *nl = '\0';
        tab = strchr(p, '\t');
        if (!tab) return i;
        *tab = '\0';
        (*mangled)[i] = p;
        (*shown)[i] = tab + 1;
        p = nl + 1;
    }
    return i;
}

static void test_table(char **mangled, char **shown, size_t n)
{
    size_t i, same = 0;
    tl_case c;
    tl_begin(&c, "demangle_full: %zu names as llvm-cxxfilt 14 shows them", n);
    TL_TRUE(&c, n >= 2000, "only %zu pairs in %s", n, TSV_PATH);
    for (i = 0; i < n; i++) {
        char *r = demangle_full(mangled[i]);
        const char *got = r ? r : mangled[i];
        TL_TRUE(&c, strcmp(got, shown[i]) == 0, "%s\n      want %s\n      got  %s", mangled[i], shown[i], got);
        same += r == NULL;
        free(r);
    }
    tl_end(&c);
    printf("   (%zu demangled, %zu kept as they are)\n", n - same, same);
}

/* Every prefix of every name: no crash, no read past the name. */
static void test_prefixes(char **mangled, size_t n)
{
    size_t i, k, count = 0;
    tl_case c;
    tl_begin(&c, "demangle_full: every prefix of the table's names");
    for (i = 0; i < n; i++) {
        size_t len = strlen(mangled[i]);
        for (k = 0; k <= len; k++) {
            char *copy = (char *)malloc(k + 1), *r;
            if (!TL_TRUE(&c, copy != NULL, "out of memory")) break;
            memcpy(copy, mangled[i], k);
            copy[k] = '\0';
            r = demangle_full(copy);
            TL_EQU(&c, strlen(copy), k); /* the input is left alone */
            TL_TRUE(&c, r == NULL || strlen(r) > 0, "empty result for %s", copy);
            free(r);
            free(copy);
            count++;
        }
    }
    tl_end(&c);
    printf("   (%zu prefixes)\n", count);
}

/* head + count x unit + tail */
static char *repeat(const char *head, const char *unit, size_t count, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail), i;
    char *s = (char *)malloc(hl + ul * count + tl + 1), *p = s;
    if (!s) return NULL;
    memcpy(p, head, hl);
    p += hl;
    for (i = 0; i < count; i++, p += ul) memcpy(p, unit, ul);
    memcpy(p, tail, tl + 1);
    return s;
}

static void test_bounds(void)
{
    static const struct {
        const char *head, *unit, *tail, *small; /* small: the result for 3 units */
        int         refused;                    /* 10000 units and more: NULL */
    } cases[] = {
        {"_Z1f", "P", "i", "f(int***)", 1},
        {"_Z1f", "A1_", "i", "f(int [1][1][1])", 1},
        {"_ZN", "1a", "Ev", "a::a::a()", 1},
        {"_Z1f", "PF", "vE", NULL, 1},
        {"_Z1fI", "I", "E", NULL, 1},
        {"_Z1f1a", "S_", "", "f(a, a, a, a)", 0},
        {"_Z1fPi", "S_", "", "f(int*, int*, int*, int*)", 0},
        {"_Z", "Z1fvE", "1x", "f()::f()::f()::x", 1},
        {"_Z1f", "U3foo", "i", "f(int foo foo foo)", 1},
        {"_Z1fDTsr", "sr", "1aEE", NULL, 1},
    };
    static const size_t counts[] = {3, 100, 10000, 30000}; /* 30000 x 2 bytes: under the input bound */
    size_t i, k;
    tl_case c;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        tl_begin(&c, "demangle_full: \"%s\" + N x \"%s\" + \"%s\"", cases[i].head, cases[i].unit, cases[i].tail);
        for (k = 0; k < sizeof counts / sizeof *counts; k++) {
            char *name = repeat(cases[i].head, cases[i].unit, counts[k], cases[i].tail), *r;
            if (!TL_TRUE(&c, name != NULL, "out of memory")) break;
            r = demangle_full(name);
            if (counts[k] == 3 && cases[i].small)
                TL_TRUE(&c, r && strcmp(r, cases[i].small) == 0, "x3: want %s, got %s", cases[i].small, r ? r : "NULL");
            if (counts[k] >= 10000 && cases[i].refused) TL_TRUE(&c, r == NULL, "x%zu: not refused (depth)", counts[k]);
            if (counts[k] >= 10000 && !cases[i].refused) TL_TRUE(&c, r != NULL, "x%zu: refused", counts[k]);
            free(r);
            free(name);
        }
        tl_end(&c);
    }
    /* each type is A<previous, previous>: the output doubles at every step,
       2^30 times the first; the output bound refuses it */
    tl_begin(&c, "demangle_full: exponential output is refused");
    {
        char name[1024], *r;
        size_t len = (size_t)sprintf(name, "_Z1f1AIiE"), j;
        for (j = 0; j < 30; j++) { /* substitutions: 0 A, 1 A<int>, then A and the new type */
            unsigned prev = j == 0 ? 1u : 2u * (unsigned)j + 1u;
            char id[8];
            if (prev - 1 < 10) sprintf(id, "%u", prev - 1);
            else sprintf(id, "%c%c", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(prev - 1) / 36],
                         "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(prev - 1) % 36]);
            if (prev - 1 < 36) sprintf(id, "%c", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[prev - 1]);
            len += (size_t)sprintf(name + len, "1AIS%s_S%s_E", id, id);
        }
        r = demangle_full(name);
        TL_TRUE(&c, r == NULL, "2^30 output not refused: %.80s", r ? r : "");
        free(r);
        name[len = (size_t)sprintf(name, "_Z1f1AIiE1AIS0_S0_E")] = '\0';
        r = demangle_full(name);
        TL_TRUE(&c, r && strcmp(r, "f(A<int>, A<A<int>, A<int> >)") == 0, "small case: %s", r ? r : "NULL");
        free(r);
    }
    tl_end(&c);
    tl_begin(&c, "demangle_full: NULL, empty and non-_Z names");
    TL_TRUE(&c, demangle_full(NULL) == NULL, "NULL");
    TL_TRUE(&c, demangle_full("") == NULL, "empty");
    TL_TRUE(&c, demangle_full("main") == NULL, "main");
    TL_EQI(&c, demangle_full("_Z") == NULL, 1);
    tl_end(&c);
}

int main(void)
{
    size_t len = 0, n;
    char **mangled = NULL, **shown = NULL;
    char *text = (char *)tl_read_file(TSV_PATH, &len);
    tl_case c;
    tl_begin(&c, "demangle_full: %s loads", TSV_PATH);
    TL_TRUE(&c, text != NULL, "cannot read %s", TSV_PATH);
    tl_end(&c);
    if (text) {
        n = load(text, len, &mangled, &shown);
        test_table(mangled, shown, n);
        test_prefixes(mangled, n);
    }
    test_bounds();
    free(mangled);
    free(shown);
    free(text);
    return tl_exit_code();
}
