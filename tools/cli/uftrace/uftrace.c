/* uftrace.c - the uftrace front end's row of the table: a directory with
   an info file is uftrace data; dump (text or JSON), info, replay, report
   and graph read it. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The options of info, report and graph (uftrace's names). */
static uft_view_opts uft_vopts;

static cli_match uft_detect(const cli_args *a, const cli_probe *p)
{
    char file[4096];
    struct stat sb;
    (void)p;
    snprintf(file, sizeof file, "%s/info", a->path);
    return stat(file, &sb) == 0 && S_ISREG(sb.st_mode) ? CLI_YES : CLI_NO;
}

/* argv[*i] is the option -X / --NAME (with its value: "-X V", "-XV",
   "--NAME=V", "--NAME V"); *value is set to the value, *i moved past it. */
static int uft_opt_arg(int argc, char **argv, int *i, char shortname, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (shortname && arg[0] == '-' && arg[1] == shortname) {
        if (arg[2] != '\0') *value = arg + 2;
        else if (*i + 1 < argc) *value = argv[++*i];
        else return 0;
        return 1;
    }
    if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0) return 0;
    if (arg[2 + n] == '=') *value = arg + 3 + n;
    else if (arg[2 + n] == '\0' && *i + 1 < argc) *value = argv[++*i];
    else return 0;
    return 1;
}

static int uft_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    const char *arg = argv[*i], *v;
    int info = a->command == CLI_INFO, report = a->command == CLI_REPORT, graph = a->command == CLI_GRAPH;
    (void)err;
    if (!info && !report && !graph) return CLI_OPT_NONE;
    if (uft_opt_arg(argc, argv, i, 'd', "data", &v)) {
        a->path = v;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(arg, "--task") == 0 && (info || report)) {
        uft_vopts.task = 1;
        return CLI_OPT_TAKEN;
    }
    if (report && uft_opt_arg(argc, argv, i, 's', "sort", &v)) {
        uft_vopts.sort = v;
        return CLI_OPT_TAKEN;
    }
    if ((report || graph) && uft_opt_arg(argc, argv, i, 'f', "output-fields", &v)) {
        uft_vopts.fields = v;
        return CLI_OPT_TAKEN;
    }
    if (report && strcmp(arg, "--avg-total") == 0) {
        uft_vopts.avg_total = 1;
        return CLI_OPT_TAKEN;
    }
    if (report && strcmp(arg, "--avg-self") == 0) {
        uft_vopts.avg_self = 1;
        return CLI_OPT_TAKEN;
    }
    if (graph && a->path != NULL && arg[0] != '-' && uft_vopts.func == NULL) { /* graph DIR FUNC */
        uft_vopts.func = arg;
        return CLI_OPT_TAKEN;
    }
    return CLI_OPT_NONE;
}

static int uft_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    (void)in;
    switch (a->command) {
    case CLI_DUMP:
        return a->output == CLI_OUT_JSON ? uft_dump_json(a->path, out, err) : uft_dump(a->path, out, err);
    case CLI_INFO:
        return uft_info(a->path, uft_vopts.task, out, err);
    case CLI_REPLAY:
        return uft_replay(a->path, out, err);
    case CLI_REPORT:
        return uft_report(a->path, &uft_vopts, out, err);
    case CLI_GRAPH:
        return uft_graph(a->path, &uft_vopts, out, err);
    default:
        return 2;
    }
}

static const char uft_help[] =
    "  dump           uftrace dump's text\n"
    "  info           the recording's system and process information, as uftrace info\n"
    "    --task         its tasks instead (timestamp, flags, tid, name, data size)\n"
    "  replay         per-task call trees with durations, as uftrace replay\n"
    "  report         a flat profile (total, self, calls per function), as uftrace report\n"
    "    --task         per task instead\n"
    "    -s, --sort=KEY[,KEY...]  order (total, self, call, func, total_avg ... size)\n"
    "    -f, --output-fields=FIELD[,FIELD...]  columns (total, self, call, total-avg ...)\n"
    "    --avg-total, --avg-self  average, min and max of the total / self time\n"
    "  graph [FUNC]   the call graph of each session (or the calls of FUNC), as uftrace graph\n"
    "    -f, --output-fields=FIELD[,FIELD...]  columns (total, self, addr)\n"
    "  -d, --data=DIR  the data directory (instead of DIR)\n";

const cli_format cli_uftrace = {
    .name = "uftrace",
    .inputs = "uftrace data directories",
    .dir = 1,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) | CLI_CMD(CLI_REPLAY) | CLI_CMD(CLI_REPORT) | CLI_CMD(CLI_GRAPH),
    .help = uft_help,
    .format_names = NULL, /* its info file tells it */
    .detect = uft_detect,
    .parse_opt = uft_parse_opt,
    .run = uft_command,
};
