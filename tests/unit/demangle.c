/* demangle.c - tools/cli/uftrace/demangle.c against uftrace 0.13. Run from the repo
   root (make test does). Reads:

     tests/data/uftrace/demangle.tsv   "mangled<TAB>demangled" pairs, each
         demangled name printed by the real uftrace 0.13 when it loaded the
         mangled one from a .sym file (tests/gen/demangle_tsv.sh made them);
     tests/data/uftrace/demangle-uftrace-fails.txt   names uftrace 0.13
         crashes or hangs on: these must come back unchanged.

   Then hostile inputs: every prefix of the table's names, very long and
   very deep names, random garbage after "_Z", tiny buffers. Those check
   that nothing crashes, output stays in its buffer and is NUL-terminated,
   and the bounded work gives up cleanly. */
#include "tools/cli/uftrace/demangle.h"
#include "tests/lib/testlib.h"

#define TSV_PATH "tests/data/uftrace/demangle.tsv"
#define FAILS_PATH "tests/data/uftrace/demangle-uftrace-fails.txt"
#define OUT_MAX 65536
#define CANARY 0x5a

typedef struct pair {
    const char *mangled;
    const char *want;
} pair;

static pair *pairs;
static size_t npairs;
static char out[OUT_MAX + 64];

/* Splits a text file into lines in place; returns the number of lines. */
static size_t split_lines(char *text, size_t len, char ***lines)
{
    size_t n = 0, cap = 1024, i, start = 0;
    char **v = (char **)malloc(cap * sizeof *v);
    for (i = 0; v != NULL && i <= len; i++) {
        if (i < len && text[i] != '\n')
            continue;
        if (i == len && i == start)
            break;
        text[i] = 0;
        if (n == cap) {
            char **w = (char **)realloc(v, 2 * cap * sizeof *v);
            if (w == NULL)
                break;
            v = w;
            cap *= 2;
        }
        v[n++] = text + start;
        start = i + 1;
    }
    *lines = v;
    return v ? n : 0;
}

static void load_pairs(void)
{
    size_t len = 0, n, i;
    char **lines = NULL;
    char *text = (char *)tl_read_file(TSV_PATH, &len);
    tl_case c;

    tl_begin(&c, "demangle: %s loads", TSV_PATH);
    TL_TRUE(&c, text != NULL, "cannot read %s", TSV_PATH);
    if (text != NULL) {
        n = split_lines(text, len, &lines);
        pairs = (pair *)calloc(n + 1, sizeof *pairs);
        TL_TRUE(&c, pairs != NULL && lines != NULL, "out of memory");
        for (i = 0; pairs != NULL && lines != NULL && i < n; i++) {
            char *tab = strchr(lines[i], '\t');
            if (!TL_TRUE(&c, tab != NULL, "line %zu has no TAB", i + 1))
                break;
            *tab = 0;
            pairs[npairs].mangled = lines[i];
            pairs[npairs].want = tab + 1;
            npairs++;
        }
        TL_TRUE(&c, npairs >= 10000, "only %zu pairs", npairs);
    }
    free(lines);
    tl_end(&c);
}

/* Runs the demangler into a buffer of `len` bytes inside `out`, with
   canaries after it; checks termination and the canaries. Returns status. */
static int run_into(tl_case *c, const char *name, size_t len, size_t *need)
{
    int st;
    size_t i;
    memset(out, CANARY, len + 32 < sizeof out ? len + 32 : sizeof out);
    st = uft_demangle_simple_ex(name, len ? out : NULL, len, need);
    for (i = len; i < len + 32 && i < sizeof out; i++)
        if (!TL_TRUE(c, (unsigned char)out[i] == CANARY, "wrote past len %zu for %.80s", len, name))
            break;
    if (len > 0)
        TL_TRUE(c, memchr(out, 0, len) != NULL, "no NUL within len %zu for %.80s", len, name);
    TL_TRUE(c, st >= UFT_DM_DEMANGLED && st <= UFT_DM_GAVE_UP, "status %d for %.80s", st, name);
    return st;
}

static void test_table(void)
{
    size_t i, bad = 0, counts[4] = { 0, 0, 0, 0 };
    tl_case c;

    tl_begin(&c, "demangle: %zu names give what uftrace 0.13 printed", npairs);
    for (i = 0; i < npairs; i++) {
        size_t need = 0;
        int st = run_into(&c, pairs[i].mangled, OUT_MAX, &need);
        counts[st & 3]++;
        if (strcmp(out, pairs[i].want) != 0) {
            if (bad < 5)
                fprintf(stderr, "  mismatch: %s\n    uftrace: %s\n    ours:    %s\n",
                        pairs[i].mangled, pairs[i].want, out);
            TL_TRUE(&c, 0, "%s: got \"%.100s\", uftrace printed \"%.100s\"",
                    pairs[i].mangled, out, pairs[i].want);
            bad++;
        }
        TL_TRUE(&c, need == strlen(pairs[i].want), "need %zu for %s", need, pairs[i].mangled);
        if (st != UFT_DM_DEMANGLED)
            TL_TRUE(&c, strcmp(out, pairs[i].mangled) == 0, "status %d but changed: %s", st,
                    pairs[i].mangled);
    }
    TL_TRUE(&c, bad == 0, "%zu of %zu differ", bad, npairs);
    TL_TRUE(&c, counts[UFT_DM_GAVE_UP] == 0, "%zu given up", counts[UFT_DM_GAVE_UP]);
    tl_end(&c);
    printf("   (%zu demangled, %zu not mangled, %zu kept as uftrace keeps them)\n",
           counts[UFT_DM_DEMANGLED], counts[UFT_DM_PLAIN], counts[UFT_DM_REJECTED]);

    /* a few well-known ones, so that a bad table cannot pass silently */
    tl_begin(&c, "demangle: FACTS examples");
    {
        static const char *const ex[][2] = {
            { "_ZNK2ns5Shape4areaEii", "ns::Shape::area" },
            { "_ZN3app7Counter4bumpEi", "app::Counter::bump" },
            { "_ZN3app7CounterD2Ev", "app::Counter::~Counter" },
            { "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC2IPKcEET_S8_RKS3_",
              "std::__cxx11::basic_string::basic_string" },
            { "_ZZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_"
              "S8_St20forward_iterator_tagEN6_GuardD2Ev",
              "std::__cxx11::basic_string::_M_construct::_Guard::~_Guard" },
            { "_Znwm", "operator new" },
            { "main", "main" },
        };
        for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
            char *r = uft_demangle_simple(ex[i][0], out, OUT_MAX);
            TL_TRUE(&c, r == out, "return value is not buf");
            TL_TRUE(&c, strcmp(out, ex[i][1]) == 0, "%s -> \"%s\", want \"%s\"", ex[i][0], out, ex[i][1]);
        }
    }
    tl_end(&c);
}

/* Every pair again into small buffers: the output must be the start of the
   full result, cut to len - 1 characters. */
static void test_truncation(void)
{
    static const size_t sizes[] = { 1, 2, 3, 5, 8, 13, 21, 34 };
    size_t i, k;
    tl_case c;

    tl_begin(&c, "demangle: small buffers get a NUL-terminated prefix of the result");
    for (i = 0; i < npairs && !c.bad; i++) {
        size_t full = strlen(pairs[i].want);
        for (k = 0; k < sizeof sizes / sizeof sizes[0] + 2 && !c.bad; k++) {
            size_t len = k < sizeof sizes / sizeof sizes[0] ? sizes[k] : full + (k - sizeof sizes / sizeof sizes[0]);
            size_t need = 0, keep;
            if (len == 0)
                continue;
            run_into(&c, pairs[i].mangled, len, &need);
            keep = full < len - 1 ? full : len - 1;
            TL_TRUE(&c, strlen(out) == keep && strncmp(out, pairs[i].want, keep) == 0,
                    "len %zu: \"%s\" is not the start of \"%s\" (%s)", len, out, pairs[i].want,
                    pairs[i].mangled);
            TL_TRUE(&c, need == full, "len %zu: need %zu, want %zu", len, need, full);
        }
    }
    tl_end(&c);

    tl_begin(&c, "demangle: len 0, NULL buf, NULL name");
    {
        size_t need = 1;
        memset(out, CANARY, 8);
        TL_TRUE(&c, uft_demangle_simple("_ZN1a1bEv", out, 0) == out, "return value");
        TL_TRUE(&c, (unsigned char)out[0] == CANARY, "wrote with len 0");
        TL_EQI(&c, uft_demangle_simple_ex("_ZN1a1bEv", NULL, 100, &need), UFT_DM_DEMANGLED);
        TL_EQU(&c, need, 4);
        TL_EQI(&c, uft_demangle_simple_ex(NULL, out, 8, &need), UFT_DM_PLAIN);
        TL_TRUE(&c, out[0] == 0 && need == 0, "NULL name gives \"%s\"", out);
        TL_EQI(&c, uft_demangle_simple_ex("", out, 8, &need), UFT_DM_PLAIN);
        TL_TRUE(&c, out[0] == 0 && need == 0, "\"\" gives \"%s\"", out);
    }
    tl_end(&c);
}

static void test_uftrace_fails(void)
{
    size_t len = 0, n, i;
    char **lines = NULL;
    char *text = (char *)tl_read_file(FAILS_PATH, &len);
    tl_case c;

    tl_begin(&c, "demangle: names uftrace 0.13 crashes or hangs on come back unchanged");
    TL_TRUE(&c, text != NULL, "cannot read %s", FAILS_PATH);
    if (text != NULL) {
        n = split_lines(text, len, &lines);
        TL_TRUE(&c, n >= 10, "only %zu names", n);
        for (i = 0; lines != NULL && i < n; i++) {
            int st = run_into(&c, lines[i], OUT_MAX, NULL);
            TL_EQI(&c, st, UFT_DM_GAVE_UP);
            TL_TRUE(&c, strcmp(out, lines[i]) == 0, "%s -> %s", lines[i], out);
        }
    }
    free(lines);
    free(text);
    tl_end(&c);
}

/* Runs one hostile name from an exact-size heap copy (so that a sanitizer
   build sees any read past its NUL) into a 4 KiB buffer; returns the
   status. */
#define HOSTILE_OUT 4096
static int hostile(tl_case *c, const char *name, size_t n)
{
    char *copy = (char *)malloc(n + 1);
    int st = -1;
    if (!TL_TRUE(c, copy != NULL, "out of memory"))
        return -1;
    memcpy(copy, name, n);
    copy[n] = 0;
    st = run_into(c, copy, HOSTILE_OUT, NULL);
    if (st != UFT_DM_DEMANGLED)
        TL_TRUE(c, strncmp(out, copy, HOSTILE_OUT - 1) == 0, "status %d but changed: %.60s", st, copy);
    free(copy);
    return st;
}

static void test_prefixes(void)
{
    size_t i, k, calls = 0;
    tl_case c;

    tl_begin(&c, "demangle: every prefix of every mangled table name");
    for (i = 0; i < npairs && !c.bad; i++) {
        size_t n = strlen(pairs[i].mangled);
        if (strncmp(pairs[i].mangled, "_Z", 2) != 0 && strncmp(pairs[i].mangled, "_GLOBAL_", 8) != 0)
            continue;
        for (k = 0; k < n && !c.bad; k++, calls++)
            hostile(&c, pairs[i].mangled, k);
    }
    tl_end(&c);
    printf("   (%zu calls)\n", calls);
}

/* A name made of a head, `count` repetitions of a unit, and a tail. */
static char *repeat(const char *head, const char *unit, size_t count, const char *tail, size_t *n)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail), i;
    char *p = (char *)malloc(hl + ul * count + tl + 1), *q;
    if (p == NULL)
        return NULL;
    memcpy(p, head, hl);
    q = p + hl;
    for (i = 0; i < count; i++, q += ul)
        memcpy(q, unit, ul);
    memcpy(q, tail, tl + 1);
    *n = (size_t)(q - p) + tl;
    return p;
}

static void test_big(void)
{
    static const struct { const char *head, *unit, *tail; int expect; } big[] = {
        { "_ZN", "1a", "E", UFT_DM_DEMANGLED },  /* long but flat */
        { "_ZN", "3abcC1", "Ev", UFT_DM_DEMANGLED },
        { "_Z1f", "Pi", "", UFT_DM_DEMANGLED },
        { "_Z1f", "i", "", UFT_DM_DEMANGLED },
        { "_Z1a", "I1a", "", -1 },               /* deep: given up */
        { "_Z1f", "F", "", -1 },
        { "_Z1f", "A", "", -1 },
        { "_Z1f", "M", "", -1 },
        { "_Z", "Z", "", -1 },
        { "_Z", "Z1aE", "", -1 },
        { "_Z1aIX", "ps", "", -1 },
        { "_Z1aIX", "qu", "", -1 },
        { "_Z1aI", "J", "", -1 },
        { "_Z1aI", "X", "", -1 },
        { "_Z1aI", "L", "", -1 },
        { "_Z", "TV", "", -1 },
        { "_Z", "Th1_", "", -1 },
        { "_Z", "GA", "", -1 },
        { "_Z", "N", "", -1 },
        { "_ZN1a", "Ul", "", -1 },
        { "_Z", "Dv1_", "", -1 },
        { "_Z", "$", "", -1 },
        { "_ZN100000", "$C$", "E", -1 },
        { "_GLOBAL__sub_I__Z", "S_", "", -1 },
    };
    static const size_t counts[] = { 1, 10, 100, 1000, 100000 };
    size_t i, k, n;
    tl_case c;

    for (i = 0; i < sizeof big / sizeof big[0]; i++) {
        tl_begin(&c, "demangle: \"%s\" + N x \"%s\" + \"%s\"", big[i].head, big[i].unit, big[i].tail);
        for (k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            char *name = repeat(big[i].head, big[i].unit, counts[k], big[i].tail, &n);
            int st;
            if (!TL_TRUE(&c, name != NULL, "out of memory"))
                break;
            st = hostile(&c, name, n);
            if (big[i].expect == UFT_DM_DEMANGLED && counts[k] <= 1000)
                TL_EQI(&c, st, UFT_DM_DEMANGLED);
            if (counts[k] == 100000 && big[i].expect < 0)
                TL_TRUE(&c, st != UFT_DM_DEMANGLED, "x100000 demangled: %.60s", out);
            free(name);
        }
        tl_end(&c);
    }

    tl_begin(&c, "demangle: names longer than UFT_DM_MAX_INPUT are copied");
    {
        char *name = repeat("_ZN", "1a", UFT_DM_MAX_INPUT / 2 + 8, "E", &n);
        if (TL_TRUE(&c, name != NULL, "out of memory")) {
            size_t need = 0;
            int st = uft_demangle_simple_ex(name, out, 32, &need);
            TL_EQI(&c, st, UFT_DM_GAVE_UP);
            TL_EQU(&c, need, n);
            TL_TRUE(&c, strlen(out) == 31 && strncmp(out, name, 31) == 0, "got %s", out);
            free(name);
        }
    }
    tl_end(&c);
}

/* Deterministic garbage after "_Z" (and after "_ZN", "_ZZ", ...). */
static void test_garbage(void)
{
    static const char alphabet[] = "_ZNEISCDTtabsiodvwchjlmxyfKVRPOLFAMUJXBGHWpqnergu0123456789$.@";
    static const char *const heads[] = { "_Z", "_ZN", "_ZZ", "_ZT", "_ZG", "_ZN3foo", "_GLOBAL__sub_I__Z" };
    unsigned long long seed = 12345;
    char name[80];
    size_t i, k, hl, n, counts[4] = { 0, 0, 0, 0 };
    tl_case c;

    tl_begin(&c, "demangle: 200000 random names after _Z");
    for (i = 0; i < 200000 && !c.bad; i++) {
        int st;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        hl = strlen(heads[(seed >> 33) % 7]);
        memcpy(name, heads[(seed >> 33) % 7], hl);
        n = hl + (size_t)((seed >> 40) % 40);
        for (k = hl; k < n; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if ((seed >> 60) == 0)
                name[k] = (char)(1 + (seed >> 33) % 255); /* any byte */
            else
                name[k] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
        }
        st = hostile(&c, name, n);
        if (st >= 0)
            counts[st & 3]++;
    }
    tl_end(&c);
    printf("   (%zu demangled, %zu kept, %zu given up)\n", counts[0], counts[1] + counts[2], counts[3]);
}

int main(void)
{
    load_pairs();
    test_table();
    test_truncation();
    test_uftrace_fails();
    test_prefixes();
    test_big();
    test_garbage();
    return tl_exit_code();
}
