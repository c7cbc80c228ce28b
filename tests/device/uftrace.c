/* uftrace.c - the device program for single/tdec_uftrace.h: the record
   stream of one task file (<tid>.dat, with SDT events), then the text-file
   helpers line by line on the same recording's task.txt, sid-<SID>.map and
   prog.sym, and on another's prog.dbg (with argument specs and enums). */
#include "single/tdec_uftrace.h"
#include "tests/device/device.h"

DEV_TRACE(dat, "tests/data/uftrace/readevents/uftrace.data/3199.dat");
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
    static tdec_uftrace_item item;
    static const dev_stream s = {&d, &item, dev_tdec_uftrace_feed, dev_tdec_uftrace_finish, dev_tdec_uftrace_next,
                                 digest, no_spec, stream_pos};
    int bad;
    tdec_uftrace_init(&d, NULL);
    bad = dev_run("dat", &s, dat, DEV_LEN(dat)) != TDEC_END;
    lines("task.txt", TASK, task, DEV_LEN(task));
    lines("map", MAP, map, DEV_LEN(map));
    lines("sym", SYM, sym, DEV_LEN(sym));
    lines("dbg", DBG, dbg, DEV_LEN(dbg));
    return dev_done(bad);
}
