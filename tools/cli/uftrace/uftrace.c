/* uftrace.c - the uftrace front end's row of the table: a directory with
   an info file is uftrace data; dump (text or JSON) and replay read it. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* dump's view: --flame-graph or --graphviz (uftrace's names), -1 for none */
static int uft_dump_graph_view = -1;

static cli_match uft_detect(const cli_args *a, const cli_probe *p)
{
    char file[4096];
    struct stat sb;
    (void)p;
    snprintf(file, sizeof file, "%s/info", a->path);
    return stat(file, &sb) == 0 && S_ISREG(sb.st_mode) ? CLI_YES : CLI_NO;
}

static int uft_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    (void)in;
    switch (a->command) {
    case CLI_DUMP:
        if (a->output == CLI_OUT_CHROME) return uft_dump_view(a->path, UFT_VIEW_CHROME, out, err);
        if (uft_dump_graph_view >= 0) return uft_dump_view(a->path, uft_dump_graph_view, out, err);
        return a->output == CLI_OUT_JSON ? uft_dump_json(a->path, out, err) : uft_dump(a->path, out, err);
    case CLI_REPLAY:
        return uft_replay(a->path, out, err);
    default:
        cli_diag(err, "error", -1, a->path, "uftrace data: `info` is not supported yet");
        return 2;
    }
}

/* dump's --flame-graph, --graphviz and -d/--data DIR (uftrace's names). */
static int uft_dump_opt(cli_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (a->command != CLI_DUMP) return CLI_OPT_NONE;
    if (strcmp(arg, "--flame-graph") == 0) {
        uft_dump_graph_view = UFT_VIEW_FLAME;
    } else if (strcmp(arg, "--graphviz") == 0) {
        uft_dump_graph_view = UFT_VIEW_GRAPHVIZ;
    } else if (strcmp(arg, "-d") == 0 || strcmp(arg, "--data") == 0) {
        if (*i + 1 >= argc) return CLI_OPT_USAGE;
        a->path = argv[++*i];
    } else if (strncmp(arg, "--data=", 7) == 0) {
        a->path = arg + 7;
    } else if (strncmp(arg, "-d", 2) == 0) {
        a->path = arg + 2;
    } else {
        return CLI_OPT_NONE;
    }
    return CLI_OPT_TAKEN;
}

static int uft_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    (void)err;
    return uft_dump_opt(a, argc, argv, i);
}

static const char uft_help[] =
    "  dump           uftrace dump's text\n"
    "  dump --chrome  Chrome trace-event JSON, as uftrace dump --chrome\n"
    "  dump --flame-graph  folded stacks with samples, as uftrace dump --flame-graph\n"
    "  dump --graphviz     the call graph in DOT, as uftrace dump --graphviz\n"
    "  dump -d DIR    (--data DIR) the data directory, as uftrace's -d\n"
    "  replay         per-task call trees with durations, as uftrace replay\n";

const cli_format cli_uftrace = {
    .name = "uftrace",
    .inputs = "uftrace data directories",
    .dir = 1,
    .chrome = 1,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) /* to say it is not supported yet */ | CLI_CMD(CLI_REPLAY),
    .help = uft_help,
    .format_names = NULL, /* its info file tells it */
    .detect = uft_detect,
    .parse_opt = uft_parse_opt,
    .run = uft_command,
};
