/* uftrace.c - the uftrace front end's row of the table: a directory with
   an info file is uftrace data; dump (text or JSON) and replay read it. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <sys/stat.h>

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
        return a->output == CLI_OUT_JSON ? uft_dump_json(a->path, out, err) : uft_dump(a->path, out, err);
    case CLI_REPLAY:
        return uft_replay(a->path, out, err);
    default:
        cli_diag(err, "error", -1, a->path, "uftrace data: `info` is not supported yet");
        return 2;
    }
}

static const char uft_help[] =
    "  dump           uftrace dump's text\n"
    "  replay         per-task call trees with durations, as uftrace replay\n";

const cli_format cli_uftrace = {
    .name = "uftrace",
    .inputs = "uftrace data directories",
    .dir = 1,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) /* to say it is not supported yet */ | CLI_CMD(CLI_REPLAY),
    .help = uft_help,
    .format_names = NULL, /* its info file tells it */
    .detect = uft_detect,
    .parse_opt = NULL,
    .run = uft_command,
};
