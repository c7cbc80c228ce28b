/* filter.c - uftrace 0.13's filters and triggers as address ranges per
   session (filter.h). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/filter.h"

#include "tools/cli/uftrace/stream.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* uftrace's pattern: exact when the text has none of its REGEX_CHARS (or
   names an operator), else a regex (extended) or a glob. */
typedef struct uf_pattern {
    char    kind; /* 's', 'r', 'g' */
    char   *text;
    regex_t re;
} uf_pattern;

static void uf_pattern_init(uf_pattern *p, char match, char *text)
{
    p->text = text;
    p->kind = strpbrk(text, ".?*+-^$|()[]{}") == NULL ? 's' : match;
    if (p->kind == 'r' &&
        (strncmp(text, "operator ", 9) == 0 || regcomp(&p->re, text, REG_NOSUB | REG_EXTENDED) != 0))
        p->kind = 's';
}

static int uf_pattern_match(const uf_pattern *p, const char *name)
{
    switch (p->kind) {
    case 'r': return regexec(&p->re, name, 0, NULL, 0) == 0;
    case 'g': return fnmatch(p->text, name, 0) == 0;
    default:  return strcmp(p->text, name) == 0;
    }
}

static void uf_pattern_free(uf_pattern *p)
{
    if (p->kind == 'r') regfree(&p->re);
}

/* The actions uftrace knows (setup_trigger_action()), by prefix, any case;
   allowed: those -F/-N take too. A word that is none of them names a module. */
static const struct {
    const char *name;
    unsigned    flag; /* what tracedec does with it; 0: nothing */
    int         in_filter;
} uf_actions[] = {
    {"arg", 0, 0},           {"fparg", 0, 0},      {"retval", 0, 0},
    {"filter", UFT_TR_FILTER, 1}, {"notrace", UFT_TR_FILTER, 1}, {"depth=", UFT_TR_DEPTH, 1},
    {"time=", UFT_TR_TIME, 1}, {"size=", 0, 1},     {"caller", 0, 1},
    {"hide", UFT_TR_HIDE, 1}, {"trace", UFT_TR_TRACE, 0}, {"finish", 0, 0},
    {"read=", 0, 0},         {"color=", 0, 0},     {"backtrace", UFT_TR_BACKTRACE, 0},
    {"recover", 0, 0},       {"auto-args", 0, 0},
};
#define UF_NACTIONS (sizeof uf_actions / sizeof uf_actions[0])

/* The actions after '@' of a term into *tr, the module word into *module
   (NULL if none). is_filter: a -F/-N term (other actions are ignored).
   Returns -1 for a term uftrace drops (a bad depth). */
static int uf_actions_parse(char *acts, int is_filter, uft_trigger *tr, const char **module)
{
    char *save = NULL, *a;
    size_t i;
    int unknown_unit;
    for (a = strtok_r(acts, ",", &save); a != NULL; a = strtok_r(NULL, ",", &save)) {
        for (i = 0; i < UF_NACTIONS; i++)
            if (strncasecmp(a, uf_actions[i].name, strlen(uf_actions[i].name)) == 0) break;
        if (i == UF_NACTIONS) {
            if (*module == NULL) *module = a;
            continue;
        }
        if (is_filter && !uf_actions[i].in_filter) continue;
        switch (uf_actions[i].flag) {
        case UFT_TR_FILTER:
            tr->flags |= UFT_TR_FILTER;
            tr->fmode = a[0] == 'f' || a[0] == 'F' ? 'i' : 'o';
            break;
        case UFT_TR_DEPTH:
            tr->flags |= UFT_TR_DEPTH;
            tr->depth = (long)strtoul(a + 6, NULL, 10);
            if (tr->depth < 0 || tr->depth > 1024) return -1;
            break;
        case UFT_TR_TIME:
            tr->flags |= UFT_TR_TIME;
            if (!uft_parse_time(a + 5, &tr->time, &unknown_unit)) tr->time = 0;
            break;
        case UFT_TR_TRACE: {
            const char *w = a + 5;
            if (*w == '_' || *w == '-') w++;
            if (*w == '\0') tr->flags |= UFT_TR_TRACE;
            else if (strcasecmp(w, "on") == 0) tr->flags = (tr->flags | UFT_TR_TRACE_ON) & ~UFT_TR_TRACE_OFF;
            else if (strcasecmp(w, "off") == 0) tr->flags = (tr->flags | UFT_TR_TRACE_OFF) & ~UFT_TR_TRACE_ON;
            break;
        }
        default:
            tr->flags |= uf_actions[i].flag;
            break;
        }
    }
    return 0;
}

/* uftrace's add_filter(): a symbol's range gets the trigger, merged into
   a range of the same start. */
static void uf_add(uft_filters *fs, uft_session_filters *sf, uint64_t start, uint64_t end, const uft_trigger *tr)
{
    size_t lo = 0, hi = sf->n;
    uft_filter *f;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sf->f[mid].start < start) lo = mid + 1;
        else hi = mid;
    }
    if (lo < sf->n && sf->f[lo].start == start) {
        f = &sf->f[lo];
    } else {
        if (sf->n == sf->cap) {
            sf->cap = sf->cap * 2 + 16;
            sf->f = (uft_filter *)uft_xrealloc(sf->f, sf->cap * sizeof *sf->f);
        }
        memmove(sf->f + lo + 1, sf->f + lo, (sf->n - lo) * sizeof *sf->f);
        f = &sf->f[lo];
        memset(f, 0, sizeof *f);
        f->start = start;
        f->end = end;
        sf->n++;
        fs->count++;
    }
    f->tr.flags |= tr->flags;
    if (tr->flags & UFT_TR_DEPTH) f->tr.depth = tr->depth;
    if (tr->flags & UFT_TR_FILTER) f->tr.fmode = tr->fmode;
    if (tr->flags & UFT_TR_TRACE_ON) f->tr.flags &= ~UFT_TR_TRACE_OFF;
    if (tr->flags & UFT_TR_TRACE_OFF) f->tr.flags &= ~UFT_TR_TRACE_ON;
    if (tr->flags & UFT_TR_TIME) f->tr.time = tr->time;
}

/* The symbols of map m matching p (PLT entries only if plt_only) get
   tr; how many. */
static size_t uf_add_map(uft_filters *fs, uft_session_filters *sf, uft_dir *d, const uft_map *m, const uf_pattern *p,
                         const uft_trigger *tr, int plt_only)
{
    const uft_module *mod = uft_module_symbols(d, m->mod);
    size_t i, n = 0;
    for (i = 0; i < mod->nsyms; i++) {
        const uft_sym *s = &mod->syms[i];
        if (!uf_pattern_match(p, s->name) || (plt_only && s->type != 'P')) continue;
        uf_add(fs, sf, m->start + s->addr, m->start + s->addr + s->size, tr);
        n++;
    }
    return n;
}

/* uftrace's setup_trigger() of one list of terms for session sf->sess. */
static void uf_setup_terms(uft_filters *fs, uft_session_filters *sf, uft_dir *d, const char *terms, int is_filter,
                           char match)
{
    char *copy = NULL, *save = NULL, *term, *at, *name, buf[4096];
    const char *module;
    const uft_session *s = sf->sess;
    uft_trigger tr;
    uf_pattern p;
    size_t i, n;
    uft_append(&copy, terms);
    for (term = strtok_r(copy, ";", &save); term != NULL; term = strtok_r(NULL, ";", &save)) {
        memset(&tr, 0, sizeof tr);
        module = NULL;
        if ((at = strchr(term, '@')) != NULL) {
            *at++ = '\0';
            if (uf_actions_parse(at, is_filter, &tr, &module) < 0) continue;
        }
        name = term;
        if (is_filter) {
            tr.flags |= UFT_TR_FILTER;
            tr.fmode = 'i';
            if (name[0] == '!') {
                tr.fmode = 'o';
                name++;
            }
        }
        uft_display_name(d, name, buf, sizeof buf);
        uf_pattern_init(&p, match, buf);
        n = 0;
        if (module != NULL && strcasecmp(module, "PLT") == 0) {
            if (s->nmaps > 0) n = uf_add_map(fs, sf, d, &s->maps[0], &p, &tr, 1); /* the executable's */
        } else {
            for (i = 0; i < s->nmaps; i++) {
                const char *base = strrchr(s->maps[i].mod->path, '/');
                base = base ? base + 1 : s->maps[i].mod->path;
                if (module != NULL && strncmp(base, module, strlen(module)) != 0) continue;
                n += uf_add_map(fs, sf, d, &s->maps[i], &p, &tr, 0);
                if (module != NULL) break; /* the first map of that name (find_map_by_name) */
            }
        }
        uf_pattern_free(&p);
        if (n > 0 && (tr.flags & UFT_TR_FILTER)) {
            if (tr.fmode == 'i') fs->mode = 'i';
            else if (fs->mode == 0) fs->mode = 'o';
        }
        if (n > 0 && (tr.flags & UFT_TR_TIME)) fs->time = 1;
    }
    free(copy);
}

static void uf_setup_all(uft_filters *fs, uft_dir *d, const char *terms, int is_filter, char match)
{
    size_t i;
    for (i = 0; i < fs->nsess; i++) uf_setup_terms(fs, &fs->sess[i], d, terms, is_filter, match);
}

/* Does an entry of spec list `list` (argspec: syntax) match a symbol of
   session s? */
static int uf_list_matches(uft_dir *d, const uft_session *s, const char *list)
{
    const char *pos = list, *end;
    tdec_uftrace_spec_entry e;
    uf_pattern p;
    char buf[1024];
    size_t i, k;
    int hit = 0;
    if (list == NULL) return 0;
    end = list + strlen(list);
    while (!hit && tdec_uftrace_next_spec_entry(&pos, end, &e) == TDEC_OK) {
        snprintf(buf, sizeof buf, "%.*s", (int)e.pattern.len, e.pattern.ptr);
        uf_pattern_init(&p, (char)d->pattern, buf);
        for (i = 0; !hit && i < s->nmaps; i++) {
            const uft_module *m = uft_module_symbols(d, s->maps[i].mod);
            for (k = 0; !hit && k < m->nsyms; k++) hit = uf_pattern_match(&p, m->syms[k].name);
        }
        uf_pattern_free(&p);
    }
    return hit;
}

/* Has uftrace 0.13 a filter entry for an argument spec in session s? Its
   specs (info argspec:, retspec:, and with auto-args the .dbg entries or
   the built-in prototypes) go into the tables of -F and -T, and count
   when it decides that they matched nothing. */
static int uf_spec_entries(uft_dir *d, const uft_session *s)
{
    size_t i, k;
    if (uf_list_matches(d, s, d->argspec) || uf_list_matches(d, s, d->retspec)) return 1;
    if (!d->auto_args) return 0;
    if (d->hdr.feat_mask & TDEC_UFTRACE_FEAT_DEBUG_INFO)
        for (i = 0; i < s->nmaps; i++) {
            const uft_module *m = uft_module_symbols(d, s->maps[i].mod);
            for (k = 0; k < m->ndbg; k++)
                if (m->dbg[k].args != NULL || m->dbg[k].retval != NULL) return 1;
        }
    return uf_list_matches(d, s, d->argauto) || uf_list_matches(d, s, d->retauto);
}

void uft_filters_setup(uft_filters *fs, uft_dir *d, const char *filter_str, const char *trigger_str, char match,
                       char **usage)
{
    size_t i;
    int failed = 0;
    memset(fs, 0, sizeof *fs);
    fs->nsess = d->nsess;
    fs->sess = (uft_session_filters *)uft_xrealloc(NULL, (d->nsess ? d->nsess : 1) * sizeof *fs->sess);
    memset(fs->sess, 0, (d->nsess ? d->nsess : 1) * sizeof *fs->sess);
    for (i = 0; i < d->nsess; i++) fs->sess[i].sess = d->sess[i];
    if (filter_str != NULL) {
        uf_setup_all(fs, d, filter_str, 1, match);
        failed = fs->count == 0;
        for (i = 0; failed && i < d->nsess; i++) failed = !uf_spec_entries(d, d->sess[i]);
    }
    if (trigger_str != NULL && !failed) {
        uf_setup_all(fs, d, trigger_str, 0, match);
        /* uftrace adds the size of the whole tree (filters, spec entries,
           triggers) to the filters' count: it stays the same only when the
           tree is empty, so triggers beside a filter that matched never fail */
        failed = fs->count == 0;
        for (i = 0; failed && i < d->nsess; i++) failed = !uf_spec_entries(d, d->sess[i]);
    }
    if (!failed) return;
    uft_append(usage, "Usage: failed to set filter or trigger: ");
    if (filter_str) uft_append(usage, filter_str);
    if (filter_str && trigger_str) uft_append(usage, " or ");
    if (trigger_str) uft_append(usage, trigger_str);
    uft_append(usage, "\n");
}

void uft_filters_free(uft_filters *fs)
{
    size_t i;
    for (i = 0; i < fs->nsess; i++) free(fs->sess[i].f);
    free(fs->sess);
    memset(fs, 0, sizeof *fs);
}

/* uft_filters_match() without its kept answers. */
static const uft_trigger *uf_lookup(const uft_filters *fs, const uft_session *s, uint64_t addr)
{
    const uft_session_filters *sf = NULL;
    size_t i, lo = 0, hi;
    for (i = 0; i < fs->nsess; i++)
        if (fs->sess[i].sess == s) sf = &fs->sess[i];
    if (sf == NULL) return NULL;
    hi = sf->n;
    while (lo < hi) { /* the last range starting at or before addr */
        size_t mid = lo + (hi - lo) / 2;
        if (sf->f[mid].start <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo > 0 && addr < sf->f[lo - 1].end) return &sf->f[lo - 1].tr;
    return NULL;
}

const uft_trigger *uft_filters_match(uft_filters *fs, const uft_session *s, uint64_t addr)
{
    uft_filter_hit *h = &fs->hits[(addr ^ addr >> 6) % UFT_FILTER_HITS];
    if (h->sess != s || h->addr != addr) {
        h->sess = s;
        h->addr = addr;
        h->tr = uf_lookup(fs, s, addr);
    }
    return h->tr;
}
