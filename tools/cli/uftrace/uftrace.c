/* uftrace.c - the uftrace front end's row of the table: a directory with
   an info file is uftrace data; dump (text or JSON), info, replay, report
   and graph read it.
   The options are uftrace 0.13's (opts.h: one table for every command),
   the recording's default.opts applied after the command line's. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"
#include "tools/cli/uftrace/opts.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <sys/stat.h>

/* the command line's options (uft_parse_opt), then default.opts' */
static uft_opts uft_options;
static int      uft_options_set;

static cli_match uft_detect(const cli_args *a, const cli_probe *p)
{
    char file[4096];
    struct stat sb;
    (void)p;
    snprintf(file, sizeof file, "%s/info", a->path);
    return stat(file, &sb) == 0 && S_ISREG(sb.st_mode) ? CLI_YES : CLI_NO;
}

static int uft_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    if (!(cli_uftrace.commands & CLI_CMD(a->command))) return CLI_OPT_NONE;
    if (!uft_options_set) {
        uft_opts_init(&uft_options);
        uft_options_set = 1;
    }
    if (a->command == CLI_GRAPH && a->path != NULL && argv[*i][0] != '-' && uft_options.func == NULL) {
        uft_options.func = argv[*i]; /* graph DIR FUNC */
        return CLI_OPT_TAKEN;
    }
    return uft_opts_parse(&uft_options, a->command, &a->path, argc, argv, i, err);
}

static int uft_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    (void)in;
    if (!uft_options_set) {
        uft_opts_init(&uft_options);
        uft_options_set = 1;
    }
    switch (a->command) {
    case CLI_DUMP:
        if (a->output == CLI_OUT_CHROME) return uft_dump_view(a->path, UFT_VIEW_CHROME, out, err);
        if (uft_options.flame_graph) return uft_dump_view(a->path, UFT_VIEW_FLAME, out, err);
        if (uft_options.graphviz) return uft_dump_view(a->path, UFT_VIEW_GRAPHVIZ, out, err);
        return a->output == CLI_OUT_JSON ? uft_dump_json(a->path, out, err) : uft_dump(a->path, out, err);
    case CLI_INFO:
        return uft_info(a->path, uft_options.task, out, err);
    case CLI_REPLAY:
        if (uft_opts_default(&uft_options, a->path, err)) return 1;
        return uft_replay(a->path, &uft_options, out, err);
    case CLI_REPORT:
        if (uft_opts_default(&uft_options, a->path, err)) return 1;
        return uft_report(a->path, &uft_options, out, err);
    case CLI_GRAPH:
        if (uft_opts_default(&uft_options, a->path, err)) return 1;
        return uft_graph(a->path, &uft_options, out, err);
    default: /* main runs only the commands of .commands */
        return 2;
    }
}

static const char uft_help[] =
    "  dump           uftrace dump's text\n"
    "  dump --chrome  Chrome trace-event JSON, as uftrace dump --chrome\n"
    "  dump --flame-graph  folded stacks with samples, as uftrace dump --flame-graph\n"
    "  dump --graphviz     the call graph in DOT, as uftrace dump --graphviz\n"
    "  dump -d DIR    (--data DIR) the data directory, as uftrace's -d\n"
    "  info           the recording's system and process information, as uftrace info\n"
    "    --task                  its tasks instead (start, flags, tid, name, data size)\n"
    "  replay         per-task call trees with durations, as uftrace replay\n"
    "    -d, --data=DIR          the data directory (or DIR as the last argument)\n"
    "    -F, --filter=FUNC       only FUNC and what it calls (regex; ';' or repeat)\n"
    "    -N, --notrace=FUNC      not FUNC nor what it calls\n"
    "    -T, --trigger=FUNC@ACT  depth=N, time=TIME, trace_on, trace_off, backtrace,\n"
    "                            filter, notrace, hide, trace\n"
    "    -D, --depth=N           N levels of calls at most\n"
    "    -t, --time-filter=TIME  hide calls shorter than TIME (e.g. 10us)\n"
    "    --tid=TID[,TID...]      only those tasks\n"
    "    -f, --output-fields=F   duration,tid,addr,time,delta,elapsed,task,module;\n"
    "                            none; +F adds to the default (duration,tid)\n"
    "    --flat                  a line per record\n"
    "    --no-libcall            hide library (PLT) calls\n"
    "    --no-event              hide events\n"
    "    --no-args               hide arguments and return values\n"
    "    --demangle=full|simple|no   C++ names (default simple)\n"
    "    --srcline               each function's FILE:LINE (.dbg), in a comment\n"
    "    --task-newline          an empty line where the task changes\n"
    "    --column-view           each task in its own column (--column-offset=N)\n"
    "    --no-comment, --no-merge, --match=regex|glob, --event-full  as uftrace\n"
    "  report         a flat profile (total, self, calls per function), as uftrace report\n"
    "    --task                  per task instead\n"
    "    -s, --sort=KEY[,KEY]    order (total, self, call, func, total_avg ... size)\n"
    "    -f, --output-fields=F   total, self, call, total-avg, total-min ... size\n"
    "    --avg-total, --avg-self the average, min and max of the total / self time\n"
    "  graph [FUNC]   the call graph of each session (from FUNC), as uftrace graph\n"
    "    -f, --output-fields=F   total, self, addr\n"
    "    --task                  the task graph instead (run and self times; -f total,\n"
    "                            self, tid)\n"
    "  report and graph take replay's -F, -N, -T, -D, -t, --tid, --match,\n"
    "  --no-event, --event-full, --no-libcall, --demangle, --srcline (a function's\n"
    "  [FILE:LINE] after its name); info, report and graph\n"
    "  take -d, --data=DIR\n";

const cli_format cli_uftrace = {
    .name = "uftrace",
    .inputs = "uftrace data directories",
    .dir = 1,
    .chrome = 1,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) | CLI_CMD(CLI_REPLAY) | CLI_CMD(CLI_REPORT) | CLI_CMD(CLI_GRAPH),
    .help = uft_help,
    .format_names = NULL, /* its info file tells it */
    .detect = uft_detect,
    .parse_opt = uft_parse_opt,
    .run = uft_command,
};
