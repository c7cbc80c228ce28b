/* opts.c - the uftrace commands' options (opts.h): the table, the
   command-line parser and default.opts. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/opts.h"

#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* uftrace's opt_add_string() / opt_add_prefix_string(): *list gets
   prefix + value, after a ';' if it held something. */
static void uo_append(char **list, const char *prefix, const char *value)
{
    if (*list != NULL) uft_append(list, ";");
    uft_append(list, prefix);
    uft_append(list, value);
}

/* A "Usage: ..." line for o->usage. */
static void uo_usage(uft_opts *o, const char *what, const char *value, const char *after)
{
    uft_append(&o->usage, "Usage: ");
    uft_append(&o->usage, what);
    uft_append(&o->usage, value);
    uft_append(&o->usage, after);
    uft_append(&o->usage, "\n");
}

static int uo_filter(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    uo_append(&o->filter, "", v);
    return CLI_OPT_TAKEN;
}

static int uo_notrace(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    uo_append(&o->filter, "!", v);
    return CLI_OPT_TAKEN;
}

static int uo_trigger(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    uo_append(&o->trigger, "", v);
    return CLI_OPT_TAKEN;
}

static int uo_depth(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    o->depth = strtol(v, NULL, 0);
    if (o->depth <= 0 || o->depth >= UFT_DEPTH_MAX) {
        uo_usage(o, "invalid depth given: ", v, " (ignoring..)");
        o->depth = UFT_DEPTH_DEFAULT;
    }
    return CLI_OPT_TAKEN;
}

/* -t: uftrace's parse_time(arg, 3); it stops on more than 3 digits before
   the point and warns of an unknown unit (read as ns). */
static int uo_time_filter(uft_opts *o, const char *v, out_buf *err)
{
    int unknown_unit;
    char msg[512];
    if (!uft_parse_time(v, &o->threshold, &unknown_unit)) {
        snprintf(msg, sizeof msg, "-t %s", v);
        cli_diag(err, "error", -1, msg, "Limited 3 digits (before and after decimal point), as uftrace 0.13");
        return CLI_OPT_FAILED;
    }
    if (unknown_unit) {
        snprintf(msg, sizeof msg, "-t %s: unknown unit read as ns, as uftrace 0.13 does", v);
        cli_diag(err, "note", -1, msg, NULL);
    }
    return CLI_OPT_TAKEN;
}

static int uo_tid(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    if (strtol(v, NULL, 0) <= 0) uo_usage(o, "invalid thread id: ", v, "");
    else uo_append(&o->tid, "", v);
    return CLI_OPT_TAKEN;
}

static int uo_match(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    if (strcmp(v, "regex") == 0) o->match = 'r';
    else if (strcmp(v, "glob") == 0) o->match = 'g';
    else if (strcmp(v, "simple") == 0) o->match = 's';
    else {
        uo_usage(o, "invalid match pattern: ", v, " (ignoring...)");
        o->match = 'r';
    }
    return CLI_OPT_TAKEN;
}

static int uo_demangle(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    if (strcmp(v, "full") == 0) o->demangle = 'f';
    else if (strcmp(v, "simple") == 0) o->demangle = 's';
    else if (strcmp(v, "no") == 0 || strcmp(v, "none") == 0) o->demangle = 'n';
    else {
        uo_usage(o, "unknown demangle value: ", v, " (ignoring..)");
        o->demangle = 's';
    }
    return CLI_OPT_TAKEN;
}

static int uo_fields(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    free(o->fields);
    o->fields = NULL;
    uft_append(&o->fields, v);
    return CLI_OPT_TAKEN;
}

static int uo_column_offset(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    o->column_offset = strtol(v, NULL, 0);
    if (o->column_offset < 0) o->column_offset = 8;
    return CLI_OPT_TAKEN;
}

/* the flags: one function per field */
#define UO_FLAG(fn, field)                                        \
    static int fn(uft_opts *o, const char *v, out_buf *err)      \
    {                                                             \
        (void)v;                                                  \
        (void)err;                                                \
        o->field = 1;                                             \
        return CLI_OPT_TAKEN;                                     \
    }
UO_FLAG(uo_no_event, no_event)
UO_FLAG(uo_event_full, event_full)
UO_FLAG(uo_no_libcall, no_libcall)
UO_FLAG(uo_no_args, no_args)
UO_FLAG(uo_flat, flat)
UO_FLAG(uo_srcline, srcline)
UO_FLAG(uo_task_newline, task_newline)
UO_FLAG(uo_column_view, column_view)
UO_FLAG(uo_no_comment, no_comment)
UO_FLAG(uo_no_merge, no_merge)
UO_FLAG(uo_flame_graph, flame_graph)
UO_FLAG(uo_graphviz, graphviz)
UO_FLAG(uo_task, task)
UO_FLAG(uo_avg_total, avg_total)
UO_FLAG(uo_avg_self, avg_self)
#undef UO_FLAG

static int uo_sort(uft_opts *o, const char *v, out_buf *err)
{
    (void)err;
    o->sort = v;
    return CLI_OPT_TAKEN;
}

/* The commands whose records go through the stream (stream.h): they all
   take the filters, as in uftrace (dump's --chrome, --flame-graph and
   --graphviz too, once they read the stream: add CLI_DUMP then). */
#define UO_STREAM (CLI_CMD(CLI_REPLAY) | CLI_CMD(CLI_REPORT) | CLI_CMD(CLI_GRAPH))
#define UO_REPLAY CLI_CMD(CLI_REPLAY)
#define UO_REPORT CLI_CMD(CLI_REPORT)

typedef struct uft_optdef {
    char        short_name; /* '\0': long only                             */
    const char *long_name;
    int         takes_value;
    unsigned    commands;   /* CLI_CMD() of the commands that take it      */
    int (*set)(uft_opts *o, const char *value, out_buf *err); /* CLI_OPT_* */
} uft_optdef;

/* Every option, as uftrace 0.13 spells it. A command's options: add rows. */
static const uft_optdef uft_optdefs[] = {
    {'F', "filter", 1, UO_STREAM, uo_filter},
    {'N', "notrace", 1, UO_STREAM, uo_notrace},
    {'T', "trigger", 1, UO_STREAM, uo_trigger},
    {'D', "depth", 1, UO_STREAM, uo_depth},
    {'t', "time-filter", 1, UO_STREAM, uo_time_filter},
    {'\0', "tid", 1, UO_STREAM, uo_tid},
    {'\0', "match", 1, UO_STREAM, uo_match},
    {'\0', "no-event", 0, UO_STREAM, uo_no_event},
    {'\0', "event-full", 0, UO_STREAM, uo_event_full},
    {'\0', "demangle", 1, UO_STREAM, uo_demangle},
    {'\0', "no-libcall", 0, UO_STREAM, uo_no_libcall},
    {'\0', "no-args", 0, UO_REPLAY, uo_no_args},
    {'f', "output-fields", 1, UO_STREAM, uo_fields},
    {'\0', "flat", 0, UO_REPLAY, uo_flat},
    {'\0', "srcline", 0, UO_STREAM, uo_srcline},
    {'\0', "task-newline", 0, UO_REPLAY, uo_task_newline},
    {'\0', "column-view", 0, UO_REPLAY, uo_column_view},
    {'\0', "column-offset", 1, UO_REPLAY, uo_column_offset},
    {'\0', "no-comment", 0, UO_REPLAY, uo_no_comment},
    {'\0', "no-merge", 0, UO_REPLAY, uo_no_merge},
    {'\0', "flame-graph", 0, CLI_CMD(CLI_DUMP), uo_flame_graph},
    {'\0', "graphviz", 0, CLI_CMD(CLI_DUMP), uo_graphviz},
    {'\0', "task", 0, CLI_CMD(CLI_INFO) | UO_REPORT | CLI_CMD(CLI_GRAPH), uo_task},
    {'s', "sort", 1, UO_REPORT, uo_sort},
    {'\0', "avg-total", 0, UO_REPORT, uo_avg_total},
    {'\0', "avg-self", 0, UO_REPORT, uo_avg_self},
};
#define UO_NDEFS (sizeof uft_optdefs / sizeof uft_optdefs[0])

void uft_opts_init(uft_opts *o)
{
    memset(o, 0, sizeof *o);
    o->depth = UFT_DEPTH_DEFAULT;
    o->match = 'r';
    o->column_offset = 8;
    o->demangle = 's';
}

/* The row of a long option ("--NAME" or "--NAME=VALUE" without the
   dashes): an exact name, or as getopt_long a prefix of one name only. */
static const uft_optdef *uo_find_long(const char *arg, size_t len)
{
    const uft_optdef *hit = NULL;
    size_t k;
    int n = 0;
    for (k = 0; k < UO_NDEFS; k++) {
        if (strncmp(uft_optdefs[k].long_name, arg, len) != 0) continue;
        if (uft_optdefs[k].long_name[len] == '\0') return &uft_optdefs[k];
        hit = &uft_optdefs[k];
        n++;
    }
    return n == 1 ? hit : NULL;
}

/* Reads option argv[*i] (with its value) against the table: the row, with
   *value set, or NULL when it is none of them. *missing: its value is
   missing. */
static const uft_optdef *uo_read(int argc, char **argv, int *i, const char **value, int *missing)
{
    const char *arg = argv[*i], *eq;
    const uft_optdef *d = NULL;
    size_t k;
    *value = NULL;
    *missing = 0;
    if (arg[0] != '-' || arg[1] == '\0') return NULL;
    if (arg[1] == '-') {
        eq = strchr(arg + 2, '=');
        d = uo_find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
        if (d == NULL || (eq && !d->takes_value)) return NULL;
        if (eq) *value = eq + 1;
    } else {
        for (k = 0; k < UO_NDEFS && uft_optdefs[k].short_name != arg[1]; k++) continue;
        if (k == UO_NDEFS) return NULL;
        d = &uft_optdefs[k];
        if (arg[2] != '\0') {
            if (!d->takes_value) return NULL;
            *value = arg + 2;
        }
    }
    if (d->takes_value && *value == NULL) {
        if (*i + 1 >= argc) *missing = 1;
        else *value = argv[++*i];
    }
    return d;
}

int uft_opts_parse(uft_opts *o, cli_command cmd, const char **path, int argc, char **argv, int *i, out_buf *err)
{
    const uft_optdef *d;
    const char *value;
    int missing, at = *i;
    if (strcmp(argv[at], "-d") == 0 || strncmp(argv[at], "--data", 6) == 0) {
        if (strcmp(argv[at], "-d") == 0 || strcmp(argv[at], "--data") == 0) {
            if (at + 1 >= argc || *path != NULL) return CLI_OPT_USAGE;
            *path = argv[++*i];
            return CLI_OPT_TAKEN;
        }
        if (argv[at][6] == '=') {
            if (*path != NULL) return CLI_OPT_USAGE;
            *path = argv[at] + 7;
            return CLI_OPT_TAKEN;
        }
    }
    if (strncmp(argv[at], "-d", 2) == 0 && argv[at][2] != '\0') { /* -dDIR */
        if (*path != NULL) return CLI_OPT_USAGE;
        *path = argv[at] + 2;
        return CLI_OPT_TAKEN;
    }
    d = uo_read(argc, argv, i, &value, &missing);
    if (d == NULL || !(d->commands & CLI_CMD(cmd))) {
        *i = at;
        return CLI_OPT_NONE;
    }
    if (missing) return CLI_OPT_USAGE;
    return d->set(o, value ? value : "", err);
}

/* uftrace's parse_cmdline() of the file: words split at blanks, quotes
   ('...' or "...") kept together without the quotes. Returns the number of
   words put in argv[max] (pointing into text, which is changed). */
static int uo_words(char *text, char **argv, int max)
{
    int n = 0;
    char *p = text, *w;
    while (*p && n < max) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (*p == '\0') break;
        argv[n++] = w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q) *w++ = *p++;
                if (*p) p++;
            } else {
                *w++ = *p++;
            }
        }
        if (*p) p++;
        *w = '\0';
    }
    return n;
}

int uft_opts_default(uft_opts *o, const char *dir, out_buf *err)
{
    static const char *const commands[] = {"replay", "report", "graph", "info", "dump", "script", "tui", "live",
                                           "record", "recv"};
    char path[4096], rest[4096] = "", msg[8192], *text, *argv[256];
    const uft_optdef *d;
    const char *value;
    size_t len, k;
    int argc, i = 0, missing, rc = 0;
    snprintf(path, sizeof path, "%s/default.opts", dir);
    if ((text = uft_read_file(path, &len)) == NULL) return 0;
    argc = uo_words(text, argv, (int)(sizeof argv / sizeof argv[0]));
    /* a command name first is passed over (uftrace's parse_opt_file) */
    for (k = 0; argc > 0 && k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(argv[0], commands[k]) == 0) i = 1;
    for (; i < argc; i++) {
        d = uo_read(argc, argv, &i, &value, &missing);
        if (d == NULL || missing) {
            if (argv[i][0] != '-') break; /* getopt stops at the first word that is not an option */
            snprintf(rest + strlen(rest), sizeof rest - strlen(rest), "%s%s", rest[0] ? " " : "", argv[i]);
            continue;
        }
        if (d->set == uo_time_filter && o->threshold != 0) continue; /* the first one holds */
        if (d->set(o, value ? value : "", err) == CLI_OPT_FAILED) {
            rc = 1;
            break;
        }
    }
    if (rest[0]) {
        snprintf(msg, sizeof msg, "%s: options not applied (tracedec does not know them)", path);
        cli_diag(err, "note", -1, msg, rest);
    }
    free(text);
    return rc;
}
