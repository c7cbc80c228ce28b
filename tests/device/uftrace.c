/* uftrace.c - the device program for single/tdec_uftrace.h: the record
   streams of two task files (<tid>.dat): one with SDT events, and the
   largest bundled sample (C++, with arguments and return values whose
   specs the program resolves on the device from the recording's info,
   .map and .dbg files); then the text-file helpers line by line on the
   first recording's task.txt, sid-<SID>.map and prog.sym, and on the
   second's prog.dbg. */
#include "single/tdec_uftrace.h"
#include "tests/device/device.h"

DEV_TRACE(dat, "tests/data/uftrace/readevents/uftrace.data/3199.dat");
DEV_TRACE(cxx, "tests/data/uftrace/cxx/uftrace.data/5760.dat");
DEV_TRACE(cxx_info, "tests/data/uftrace/cxx/uftrace.data/info");
DEV_TRACE(cxx_map, "tests/data/uftrace/cxx/uftrace.data/sid-4dc7562a316baa0c.map");
DEV_TRACE(task, "tests/data/uftrace/readevents/uftrace.data/task.txt");
DEV_TRACE(map, "tests/data/uftrace/readevents/uftrace.data/sid-b71f400eb93b6f36.map");
DEV_TRACE(sym, "tests/data/uftrace/readevents/uftrace.data/prog.sym");
DEV_TRACE(dbg, "tests/data/uftrace/cxx/uftrace.data/prog.dbg");

DEV_CALLS(tdec_uftrace_, tdec_uftrace_decoder, tdec_uftrace_item)

static void digest(const void *dv, const void *iv)
{
    const tdec_uftrace_item *it = (const tdec_uftrace_item *)iv;
    const tdec_uftrace_record *r = &it->u.rec;
    (void)dv;
    dev_item_begin();
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        dev_h_frag(&it->u.frag);
    } else {
        dev_h(r->type);
        dev_h(r->more);
        dev_h(r->depth);
        dev_h(r->magic);
        dev_h(r->time);
        dev_h(r->addr);
        dev_h(r->arg_index);
        dev_h(r->arg.kind);
        dev_h(r->arg.format);
        dev_h(r->arg.size);
        dev_h(r->value);
        dev_h_bytes(r->raw, sizeof r->raw);
        dev_h(r->payload_size);
        dev_h(r->block_len);
    }
    dev_item_end(it->kind, it->offset);
}

/* The trace has no argument records: a spec asked for is a failure. */
static tdec_status no_spec(void *d)
{
    return tdec_uftrace_needs_spec((const tdec_uftrace_decoder *)d) ? TDEC_E_SEQUENCE : TDEC_OK;
}

/* ---- argument specs, resolved as a firmware tool would: no allocation ---- */

static tdec_uftrace_item uft_item; /* the item a spec is asked for */

/* The next line of [*pos, end) without its '\n'; 0 when nothing is left. */
static int next_line(const char **pos, const char *end, tdec_uftrace_text *line)
{
    const char *p = *pos;
    if (p >= end) return 0;
    line->ptr = p;
    while (p < end && *p != '\n') p++;
    line->len = (size_t)(p - line->ptr);
    *pos = p < end ? p + 1 : p;
    return 1;
}

static int text_eq(tdec_uftrace_text a, tdec_uftrace_text b)
{
    size_t i;
    if (a.len != b.len) return 0;
    for (i = 0; i < a.len && a.ptr[i] == b.ptr[i]; i++) {
    }
    return i == a.len;
}

/* The function a record's address is in (-pg records the address after the
   prologue's mcount call): the .dbg F: line with the highest offset at or
   below the address's offset from the executable's load base (the .map's
   first line). */
static int func_name(uint64_t addr, tdec_uftrace_text *name)
{
    const char *p = (const char *)cxx_map, *e = (const char *)cxx_map_end;
    tdec_uftrace_text line;
    tdec_uftrace_map_line m;
    tdec_uftrace_dbg_line g;
    uint64_t best = 0;
    int found = 0;
    if (!next_line(&p, e, &line) || tdec_uftrace_parse_map_line(line.ptr, line.len, &m) != TDEC_OK ||
        addr < m.start)
        return 0;
    p = (const char *)dbg;
    e = (const char *)dbg_end;
    while (next_line(&p, e, &line)) {
        if (tdec_uftrace_parse_dbg_line(line.ptr, line.len, &g) == TDEC_OK && g.kind == TDEC_UFTRACE_DBG_FUNC &&
            g.addr <= addr - m.start && (!found || g.addr >= best)) {
            best = g.addr;
            *name = g.text;
            found = 1;
        }
    }
    return found;
}

/* The value of the info text line "KEY:..." that is not "KEY:lines=N". */
static int info_value(const char *key, size_t key_len, tdec_uftrace_text *value)
{
    const char *p = (const char *)cxx_info, *e = (const char *)cxx_info_end;
    tdec_uftrace_header h;
    tdec_uftrace_text line, k, want = {key, key_len};
    if (tdec_uftrace_parse_header(p, (size_t)(e - p), &h) != TDEC_OK) return 0;
    p += h.header_size;
    while (next_line(&p, e, &line)) {
        if (tdec_uftrace_parse_info_line(line.ptr, line.len, &k, value) == TDEC_OK && text_eq(k, want) &&
            !(value->len > 6 && value->ptr[0] == 'l' && value->ptr[5] == '='))
            return 1;
    }
    return 0;
}

/* The spec of the awaited block: the items of the info argspec: (entry) or
   retspec: (exit) entries whose pattern is the function's name, in the
   order listed (this recording has one item per function; the CLI's
   tools/cli/uftrace/dir.c has uftrace's whole ordering rule). A function
   without one gets NULL: the decoder then stops with R_NO_SPEC. */
static tdec_status resolve_spec(void *dv)
{
    static tdec_uftrace_argspec spec;
    tdec_uftrace_decoder *d = (tdec_uftrace_decoder *)dv;
    int entry = uft_item.u.rec.type == TDEC_UFTRACE_REC_ENTRY;
    tdec_uftrace_text name = {NULL, 0}, list = {NULL, 0}, text;
    tdec_uftrace_spec_entry ent;
    tdec_uftrace_spec_item si;
    const char *p, *e, *q, *qe;
    if (!tdec_uftrace_needs_spec(d)) return TDEC_OK;
    spec.count = 0;
    if (func_name(uft_item.u.rec.addr, &name) && info_value(entry ? "argspec" : "retspec", 7, &list)) {
        for (p = list.ptr, e = p + list.len; tdec_uftrace_next_spec_entry(&p, e, &ent) == TDEC_OK;) {
            if (!text_eq(ent.pattern, name)) continue;
            for (q = ent.items.ptr, qe = q + ent.items.len; tdec_uftrace_next_spec_item(&q, qe, &text) == TDEC_OK;) {
                if (tdec_uftrace_parse_spec_item(text.ptr, text.len, &si) != TDEC_OK ||
                    (si.kind == TDEC_UFTRACE_ITEM_RETVAL) == entry || si.kind == TDEC_UFTRACE_ITEM_OTHER ||
                    spec.count == TDEC_UFTRACE_MAX_ARGS ||
                    tdec_uftrace_spec_item_layout(&si, 8, 10, &spec.args[spec.count]) != TDEC_OK)
                    continue;
                spec.count++;
            }
        }
    }
    return tdec_uftrace_set_spec(d, spec.count > 0 ? &spec : NULL);
}

static uint64_t stream_pos(const void *d)
{
    return ((const tdec_uftrace_decoder *)d)->st.pos;
}

static void h_text(tdec_uftrace_text t)
{
    dev_h(t.len);
    dev_h_bytes((const uint8_t *)t.ptr, t.len);
}

enum { TASK, MAP, SYM, DBG };

/* One line through its parser: the item's kind is the parser's status. */
static tdec_status parse_line(int file, const char *line, size_t len)
{
    tdec_uftrace_task_line t;
    tdec_uftrace_map_line m;
    tdec_uftrace_sym_line s;
    tdec_uftrace_dbg_line g;
    tdec_status st;
    if (file == TASK) {
        if ((st = tdec_uftrace_parse_task_line(line, len, &t)) != TDEC_OK) return st;
        dev_h(t.kind);
        dev_h(t.time);
        dev_h((uint64_t)(int64_t)t.pid);
        dev_h((uint64_t)(int64_t)t.tid);
        dev_h((uint64_t)(int64_t)t.ppid);
        dev_h(t.base);
        h_text(t.sid);
        h_text(t.name);
    } else if (file == MAP) {
        if ((st = tdec_uftrace_parse_map_line(line, len, &m)) != TDEC_OK) return st;
        dev_h(m.start);
        dev_h(m.end);
        dev_h_bytes((const uint8_t *)m.perms, sizeof m.perms);
        h_text(m.path);
        h_text(m.build_id);
    } else if (file == SYM) {
        if ((st = tdec_uftrace_parse_sym_line(line, len, &s)) != TDEC_OK) return st;
        dev_h(s.kind);
        dev_h(s.addr);
        dev_h(s.size);
        dev_h(s.has_size);
        dev_h((uint8_t)s.type);
        h_text(s.name);
    } else {
        if ((st = tdec_uftrace_parse_dbg_line(line, len, &g)) != TDEC_OK) return st;
        dev_h(g.kind);
        dev_h(g.addr);
        h_text(g.text);
    }
    return TDEC_OK;
}

/* Every line of a text file (without its '\n'), one item each. */
static void lines(const char *name, int file, const uint8_t *text, size_t len)
{
    size_t start = 0, end;
    dev_str("T ");
    dev_str(name);
    dev_hex(len);
    dev_end_line();
    dev_items = 0;
    while (start < len) {
        for (end = start; end < len && text[end] != '\n'; end++) {
        }
        dev_item_begin();
        dev_item_end((uint32_t)(int32_t)parse_line(file, (const char *)text + start, end - start), start);
        start = end + 1;
    }
}

int main(void)
{
    static tdec_uftrace_decoder d;
    static const dev_stream events = {&d, &uft_item, dev_tdec_uftrace_feed, dev_tdec_uftrace_finish,
                                      dev_tdec_uftrace_next, digest, no_spec, stream_pos};
    static const dev_stream args = {&d, &uft_item, dev_tdec_uftrace_feed, dev_tdec_uftrace_finish,
                                    dev_tdec_uftrace_next, digest, resolve_spec, stream_pos};
    int bad;
    tdec_uftrace_init(&d, NULL);
    bad = dev_run("dat", &events, dat, DEV_LEN(dat)) != TDEC_END;
    tdec_uftrace_init(&d, NULL);
    bad |= dev_run("cxx", &args, cxx, DEV_LEN(cxx)) != TDEC_END;
    lines("task.txt", TASK, task, DEV_LEN(task));
    lines("map", MAP, map, DEV_LEN(map));
    lines("sym", SYM, sym, DEV_LEN(sym));
    lines("dbg", DBG, dbg, DEV_LEN(dbg));
    return dev_done(bad);
}
