/* tracedec - the demo CLI: picks the trace format from the table of
   formats (tools/cli/formats.h), then hands the input to that format's
   front end, which reads it in CLI_CHUNK pieces through the library's
   public API (never the whole file at once).

     tracedec COMMAND [options] FILE|DIR
     tracedec --help      the commands and options of every format

   Exit status: 0 ok, 1 decoding error (stderr: message with byte offset;
   everything decoded before it was printed), 2 usage or unreadable file.
   Intel PT follows ptdump instead: decoding errors are lines in the dump
   (exit 0; 1 with --strict), file and option errors exit 1 (docs/ipt.md). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Detection order: on equal answers the earlier row wins. Files: Intel PT
   first (a PSB at offset 0, or chosen), xtrace (by name), XRay (its
   header), Intel PT's guess last; directories: uftrace, then ovni. */
static const cli_format *const cli_formats[] = {&cli_ipt, &cli_xtrace, &cli_xray, &cli_uftrace, &cli_ovni};
#define CLI_NFORMATS (sizeof cli_formats / sizeof cli_formats[0])

/* The commands, by cli_command. */
static const struct {
    const char *name;
    int         json; /* takes --json */
} cli_commands[] = {
    {"dump", 1},   {"info", 0},    {"replay", 0},  {"top", 0},     {"events", 1},
    {"queries", 1}, {"flow", 1},   {"report", 0},  {"graph", 0},   {"extract", 0},
    {"account", 0}, {"stack", 0},  {"convert", 0},
};
#define CLI_NCOMMANDS (sizeof cli_commands / sizeof cli_commands[0])

static out_buf cli_out, cli_err;
static uint8_t cli_chunk[CLI_CHUNK];

/* The help: the common part, then each format's own lines (its row's help). */
static void help(out_buf *o)
{
    size_t k;
    out_str(o, "usage: tracedec COMMAND [options] FILE|DIR\n"
               "The format is told by the input (--format=NAME chooses it); each format\n"
               "runs the commands listed under it, with the reference tool's options.\n"
               "Common commands and options:\n"
               "  dump           records as text, exactly as the format's reference tool\n"
               "                 prints them (llvm-xray fdr-dump, uftrace dump, ovnidump,\n"
               "                 ptdump)\n"
               "  dump --json    one JSON object per record (docs/FORMAT.md)\n"
               "  dump --chrome  Chrome trace-event JSON (formats with spans)\n"
               "  info           header fields and record counts\n"
               "  --strict       tolerated anomalies (gaps, unknown records) are errors\n"
               "  --help         this text\n"
               "Exit status: 0 ok, 1 decoding error (stderr: message with byte offset;\n"
               "everything decoded before it was printed), 2 usage or unreadable input.\n");
    for (k = 0; k < CLI_NFORMATS; k++) {
        out_str(o, cli_formats[k]->name);
        out_str(o, " (");
        out_str(o, cli_formats[k]->inputs);
        out_str(o, "):\n");
        out_str(o, cli_formats[k]->help);
    }
    out_flush(o);
}

static int usage(void)
{
    help(&cli_err);
    return 2;
}

/* A --format value: one of a row's format_names. */
static int cli_format_known(const char *name)
{
    const char *const *n;
    size_t k;
    for (k = 0; k < CLI_NFORMATS; k++)
        for (n = cli_formats[k]->format_names; n && *n; n++)
            if (strcmp(*n, name) == 0) return 1;
    return 0;
}

/* Parses the command line into *a; the formats' own options go to their
   parse_opt. Returns -1 when all is well, else the exit status. */
static int parse_args(int argc, char **argv, cli_args *a)
{
    const char *v;
    size_t k;
    int i, rc;
    memset(a, 0, sizeof *a);
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        help(&cli_out);
        return 0;
    }
    if (argc < 3) return usage();
    for (k = 0; k < CLI_NCOMMANDS && strcmp(argv[1], cli_commands[k].name) != 0; k++) continue;
    if (k == CLI_NCOMMANDS) return usage();
    a->command = (cli_command)k;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && cli_commands[a->command].json) {
            a->output = CLI_OUT_JSON;
            continue;
        }
        if (strcmp(argv[i], "--chrome") == 0 && a->command == CLI_DUMP) {
            a->output = CLI_OUT_CHROME;
            continue;
        }
        if (strcmp(argv[i], "--strict") == 0) {
            a->strict = 1;
            continue;
        }
        if (strcmp(argv[i], "--pt") == 0 && i + 1 < argc && a->path == NULL) { /* ptxed's FILE */
            a->path = argv[++i];
            continue;
        }
        if ((v = cli_opt_value(argv[i], "--format")) != NULL && cli_format_known(v)) {
            a->format = v; /* another value may be a row's (account --format=csv) */
            continue;
        }
        rc = CLI_OPT_NONE;
        for (k = 0; k < CLI_NFORMATS && rc == CLI_OPT_NONE; k++)
            if (cli_formats[k]->parse_opt) rc = cli_formats[k]->parse_opt(a, argc, argv, &i, &cli_err);
        if (rc == CLI_OPT_TAKEN) continue;
        if (rc == CLI_OPT_FAILED) {
            out_flush(&cli_err);
            return 1;
        }
        if (rc == CLI_OPT_USAGE || (argv[i][0] == '-' && argv[i][1] != '\0') || a->path != NULL) return usage();
        a->path = argv[i];
    }
    return a->path == NULL ? usage() : -1;
}

/* Appends s to the string in buf[cap]. */
static void cli_append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < cap) snprintf(buf + n, cap - n, "%s", s);
}

/* No row took the input: say why. Returns the exit status. */
static int no_format(const cli_args *a, const cli_probe *p, const cli_reader *in)
{
    char msg[256];
    const char *sep = "";
    size_t k;
    int some; /* the command is one that only some formats have */
    if (!p->opened) {
        cli_diag(&cli_err, "error", -1, a->path, strerror(in->open_errno));
        return 2;
    }
    for (k = 0; k < CLI_NFORMATS && (cli_formats[k]->commands & CLI_CMD(a->command)); k++) continue;
    some = k < CLI_NFORMATS;
    if (p->dir && !some) {
        cli_diag(&cli_err, "error", -1, a->path,
                 "directory of no known format (uftrace: needs an info file; ovni: no stream found)");
        return 2;
    }
    /* "replay reads uftrace data directories only", or the file formats */
    snprintf(msg, sizeof msg, some ? "%s reads " : "unrecognised trace format (known: ",
             cli_commands[a->command].name);
    for (k = 0; k < CLI_NFORMATS; k++) {
        if (some ? !(cli_formats[k]->commands & CLI_CMD(a->command)) : cli_formats[k]->dir) continue;
        cli_append(msg, sizeof msg, sep);
        cli_append(msg, sizeof msg, cli_formats[k]->inputs);
        sep = ", ";
    }
    cli_append(msg, sizeof msg, some ? " only" : ")");
    cli_diag(&cli_err, "error", -1, a->path, msg);
    return 2;
}

int main(int argc, char **argv)
{
    cli_args a;
    cli_probe p;
    cli_reader in;
    const cli_format *best = NULL;
    cli_match m, best_match = CLI_NO;
    struct stat sb;
    size_t k;
    int rc;

    out_init(&cli_out, 1);
    out_init(&cli_err, 2);
    if ((rc = parse_args(argc, argv, &a)) >= 0) return rc;

    /* What is at the path: a directory, a file (its first chunk read for
       detection), or nothing that opens (Intel PT reports that itself). */
    memset(&p, 0, sizeof p);
    memset(&in, 0, sizeof in);
    in.buf = cli_chunk;
    in.fd = open(a.path, O_RDONLY);
    if (in.fd < 0) {
        in.open_errno = errno;
    } else if (fstat(in.fd, &sb) != 0 || (!S_ISDIR(sb.st_mode) && cli_read_first(&in) != 0)) {
        cli_diag(&cli_err, "error", -1, a.path, strerror(errno));
        return 2;
    } else {
        p.opened = 1;
        p.dir = S_ISDIR(sb.st_mode);
        p.head = in.buf;
        p.head_len = in.pending;
    }
    if (p.dir) {
        close(in.fd);
        in.fd = -1;
    }

    for (k = 0; k < CLI_NFORMATS; k++) {
        const cli_format *f = cli_formats[k];
        if (f->dir != p.dir || !(f->commands & CLI_CMD(a.command))) continue;
        m = f->detect(&a, &p);
        if (m > best_match) {
            best = f;
            best_match = m;
        }
    }
    if (best && a.output == CLI_OUT_CHROME && !best->chrome) {
        cli_diag(&cli_err, "error", -1, a.path, "--chrome: this format has no spans to show");
        rc = 2;
    } else {
        rc = best ? best->run(&a, &in, &cli_out, &cli_err) : no_format(&a, &p, &in);
    }
    if (in.fd >= 0) close(in.fd);
    out_flush(&cli_out);
    out_flush(&cli_err);
    if (cli_out.failed) rc = rc ? rc : 1;
    return rc;
}
