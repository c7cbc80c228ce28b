/* tracedec - the demo CLI: detects the trace format, then hands the file to
   that format's front end, which reads it in CLI_CHUNK pieces through the
   library's public API (never the whole file at once).

     tracedec dump [--json] [--hex] [--strict] FILE|DIR
     tracedec info [--strict] FILE|DIR
     tracedec replay DIR          (uftrace data: as `uftrace replay`)
     tracedec top DIR             (ovni trace: as `ovnitop`)
     --ovnidump-ties              (ovni: equal clocks in ovnidump's order)
     [ptdump options] FILE[:FROM[-TO]]  (Intel PT: as libipt's ptdump)

   Exit status: 0 ok, 1 decoding error (stderr: message with byte offset;
   everything decoded before it was printed), 2 usage or unreadable file.
   Intel PT follows ptdump instead: decoding errors are lines in the dump
   (exit 0; 1 with --strict), file and option errors exit 1 (docs/ipt.md). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static out_buf cli_out, cli_err;
static uint8_t cli_chunk[CLI_CHUNK];
static uint32_t cli_token_size[256]; /* xtrace --token-size */
static char cli_path[4096];          /* Intel PT: FILE of FILE:FROM[-TO] */

/* "--name=VALUE": VALUE if arg is that option, else NULL. */
static const char *opt_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* A number option (decimal or 0x hex) into *v; 0 when malformed. */
static int opt_number(const char *s, uint32_t *v)
{
    char *end;
    unsigned long x;
    if (s == NULL || *s == '\0') return 0;
    errno = 0;
    x = strtoul(s, &end, 0);
    if (errno || *end != '\0' || x > UINT32_MAX) return 0;
    *v = (uint32_t)x;
    return 1;
}

/* --token-size=TOKEN:BYTES (xtrace: pass tokens of unknown size through). */
static int opt_token_size(const char *s)
{
    char tok[16];
    const char *colon = strchr(s, ':');
    uint32_t t, n;
    if (colon == NULL || (size_t)(colon - s) >= sizeof tok) return 0;
    memcpy(tok, s, (size_t)(colon - s));
    tok[colon - s] = '\0';
    if (!opt_number(tok, &t) || t > 255 || !opt_number(colon + 1, &n) || n == 0) return 0;
    cli_token_size[t] = n;
    return 1;
}

/* The xtrace and --format options; 0 when arg is none of them or malformed. */
static int parse_xtrace_opt(const char *arg, cli_opts *o)
{
    const char *v;
    if ((v = opt_value(arg, "--format")) != NULL) {
        o->format = v;
        return strcmp(v, "xtrace") == 0 || strcmp(v, "xtrace-snapshot") == 0 || strcmp(v, "ipt") == 0;
    }
    if ((v = opt_value(arg, "--vl")) != NULL) return opt_number(v, &o->xt_vl);
    if ((v = opt_value(arg, "--time-size")) != NULL) return opt_number(v, &o->xt_time_size);
    if ((v = opt_value(arg, "--snap-header")) != NULL) {
        /* The library's TDEC_XTRACE_HDR_AUTO (0), _PRESENT (1), _ABSENT (2). */
        o->xt_snap_header = strcmp(v, "yes") == 0 ? 1u : strcmp(v, "no") == 0 ? 2u : 0u;
        return strcmp(v, "yes") == 0 || strcmp(v, "no") == 0 || strcmp(v, "auto") == 0;
    }
    if ((v = opt_value(arg, "--token-size")) != NULL) {
        o->xt_token_size = cli_token_size;
        return opt_token_size(v);
    }
    if (strcmp(arg, "--iovec-data") == 0) return o->xt_iovec_data = 1;
    if (strcmp(arg, "--big-endian") == 0) return o->xt_big_endian = 1;
    return 0;
}

size_t cli_read(cli_reader *r)
{
    size_t n;
    ssize_t k;
    if (r->pending > 0) {
        n = r->pending;
        r->pending = 0;
        return n;
    }
    for (;;) {
        k = read(r->fd, r->buf, CLI_CHUNK);
        if (k >= 0) return (size_t)k;
        if (errno != EINTR) {
            r->failed = 1;
            return 0;
        }
    }
}

void cli_diag(out_buf *err, const char *level, int64_t offset, const char *msg, const char *detail)
{
    out_str(err, "tracedec: ");
    out_str(err, level);
    out_str(err, ": ");
    if (offset >= 0) {
        out_str(err, "offset ");
        out_i64(err, offset);
        out_str(err, ": ");
    }
    out_str(err, msg);
    if (detail && *detail) {
        out_str(err, ": ");
        out_str(err, detail);
    }
    out_char(err, '\n');
    out_flush(err);
}

static int usage(void)
{
    out_str(&cli_err, "usage: tracedec dump [--json] [--hex] [--strict] FILE|DIR\n"
                      "       tracedec info [--strict] FILE|DIR\n"
                      "       tracedec replay DIR\n"
                      "       tracedec top DIR\n"
                      "       tracedec events|queries [--json] [options] FILE   (Intel PT)\n"
                      "Formats: LLVM XRay (FDR v1-v5, basic v1-v3) files; uftrace data directories;\n"
                      "ovni trace directories (every layout); xtrace files (by name, or --format);\n"
                      "Intel PT traces.\n"
                      "  dump           records as text (FDR: exactly llvm-xray fdr-dump's; uftrace:\n"
                      "                 uftrace dump's; ovni: ovnidump's; Intel PT: ptdump's)\n"
                      "  dump --hex     ovni: payload bytes instead of descriptions, as ovnidump -x\n"
                      "  dump --json    one JSON object per record (docs/xray.md, docs/uftrace.md,\n"
                      "                 docs/ovni.md, docs/ipt.md)\n"
                      "  info           header fields and record counts (ovni: per stream)\n"
                      "  replay         uftrace: per-task call trees with durations, as uftrace replay\n"
                      "  events         Intel PT: libipt's event decoder transcript (docs/ipt.md)\n"
                      "  queries        Intel PT: libipt's query decoder, drained without an image\n"
                      "  top            ovni: events per MCV, as ovnitop\n"
                      "  xtrace: --format=xtrace|xtrace-snapshot, --vl=BITS, --snap-header=auto|yes|no,\n"
                      "         --time-size=N, --iovec-data, --big-endian, --token-size=TOKEN:BYTES\n"
                      "         (docs/xtrace.md)\n"
                      "  --ovnidump-ties  ovni: order equal clocks of different streams as\n"
                      "                 ovnidump's heap does (default: by stream path)\n"
                      "  --strict       tolerated anomalies (gaps, unknown records) are errors\n"
                      "  Intel PT (a PSB first, or --format=ipt): dump prints exactly what libipt's\n"
                      "         ptdump prints, with its options: --no-sync --quiet --no-pad --no-timing\n"
                      "         --no-cyc --no-offset --raw --lastip --exec-mode --time --tcal\n"
                      "         --time-delta --no-tcal --no-wall-clock --keep-tcal-on-ovf\n"
                      "         --cpu none|F/M[/S] --mtc-freq N --nom-freq N --cpuid-0x15.eax N\n"
                      "         --cpuid-0x15.ebx N, and FILE:FROM[-TO] (docs/ipt.md)\n");
    out_flush(&cli_err);
    return 2;
}

int main(int argc, char **argv)
{
    cli_opts opt;
    cli_reader in;
    struct stat sb;
    int i, rc, ipt;
    size_t got = 0;
    ssize_t k;

    out_init(&cli_out, 1);
    out_init(&cli_err, 2);
    memset(&opt, 0, sizeof opt);
    if (argc < 3) return usage();
    if (strcmp(argv[1], "dump") == 0) opt.command = CLI_DUMP;
    else if (strcmp(argv[1], "info") == 0) opt.command = CLI_INFO;
    else if (strcmp(argv[1], "replay") == 0) opt.command = CLI_REPLAY;
    else if (strcmp(argv[1], "top") == 0) opt.command = CLI_TOP;
    else if (strcmp(argv[1], "events") == 0) opt.command = CLI_EVENTS;
    else if (strcmp(argv[1], "queries") == 0) opt.command = CLI_QUERIES;
    else return usage();
    for (i = 2; i < argc; i++) {
        if ((rc = fe_ipt_parse_opt(&opt, argc, argv, &i, &cli_err)) != 0) {
            if (rc > 0) continue;
            out_flush(&cli_err);
            return 1; /* ptdump's status for a bad option value */
        }
        if (strcmp(argv[i], "--json") == 0 &&
            (opt.command == CLI_DUMP || opt.command == CLI_EVENTS || opt.command == CLI_QUERIES))
            opt.json = 1;
        else if ((strcmp(argv[i], "--hex") == 0 || strcmp(argv[i], "-x") == 0) && opt.command == CLI_DUMP) opt.hex = 1;
        else if (strcmp(argv[i], "--ovnidump-ties") == 0) opt.ovnidump_ties = 1;
        else if (parse_xtrace_opt(argv[i], &opt)) continue;
        else if (strcmp(argv[i], "--strict") == 0) opt.strict = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') return usage();
        else if (opt.path == NULL) opt.path = argv[i];
        else return usage();
    }
    if (opt.path == NULL) return usage();
    ipt = opt.format != NULL && strcmp(opt.format, "ipt") == 0;
    if (opt.ipt.given) ipt = 1;
    /* Intel PT: ptdump's FILE:FROM[-TO], unless a file has that very name. */
    if (stat(opt.path, &sb) != 0) {
        rc = fe_ipt_range(opt.path, cli_path, sizeof cli_path, &opt.ipt.from, &opt.ipt.size);
        if (rc < 0) {
            out_str(&cli_err, "tracedec: bad file ");
            out_str(&cli_err, opt.path);
            out_str(&cli_err, ": invalid argument.\n");
            out_flush(&cli_err);
            return 2; /* ptdump's status: -pte_invalid */
        }
        if (rc > 0) {
            opt.ipt.has_range = 1;
            opt.path = cli_path;
            ipt = 1;
        }
    }

    memset(&in, 0, sizeof in);
    in.buf = cli_chunk;
    in.fd = open(opt.path, O_RDONLY);
    if (in.fd < 0 && (ipt || fe_ipt_maybe(opt.path, NULL, 0)) && opt.command != CLI_REPLAY &&
        opt.command != CLI_TOP && opt.command != CLI_EVENTS && opt.command != CLI_QUERIES) {
        in.open_errno = errno; /* ptdump's message */
        return fe_ipt_run(&opt, &in, &cli_out, &cli_err);
    }
    if (in.fd < 0 || fstat(in.fd, &sb) != 0) {
        cli_diag(&cli_err, "error", -1, opt.path, strerror(errno));
        return 2;
    }
    if (S_ISDIR(sb.st_mode)) {
        close(in.fd);
        if (fe_uftrace_detect_dir(opt.path)) {
            if (opt.command == CLI_INFO || opt.command == CLI_TOP) {
                cli_diag(&cli_err, "error", -1, opt.path, opt.command == CLI_TOP ? "top reads ovni trace directories only" : "uftrace data: `info` is not supported yet");
                return 2;
            }
            rc = opt.command == CLI_REPLAY ? fe_uftrace_replay(&opt, &cli_out, &cli_err)
                 : opt.json                ? fe_uftrace_json(&opt, &cli_out, &cli_err)
                                           : fe_uftrace_run(&opt, &cli_out, &cli_err);
            out_flush(&cli_out);
            if (cli_out.failed) rc = rc ? rc : 1;
            return rc;
        }
        if (fe_ovni_detect_dir(opt.path)) {
            if (opt.command == CLI_REPLAY) {
                cli_diag(&cli_err, "error", -1, opt.path, "replay reads uftrace data directories only");
                return 2;
            }
            rc = fe_ovni_run(&opt, &cli_out, &cli_err);
            out_flush(&cli_out);
            out_flush(&cli_err);
            if (cli_out.failed) rc = rc ? rc : 1;
            return rc;
        }
        cli_diag(&cli_err, "error", -1, opt.path,
                 "directory of no known format (uftrace: needs an info file; ovni: no stream found)");
        return 2;
    }
    /* The first chunk decides the format; the front end gets it back first. */
    while (got < CLI_CHUNK) {
        k = read(in.fd, cli_chunk + got, CLI_CHUNK - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            cli_diag(&cli_err, "error", -1, opt.path, strerror(errno));
            return 2;
        }
        if (k == 0) break;
        got += (size_t)k;
    }
    in.pending = got;
    if (opt.command == CLI_REPLAY || opt.command == CLI_TOP) {
        cli_diag(&cli_err, "error", -1, opt.path,
                 opt.command == CLI_TOP ? "top reads ovni trace directories only"
                                        : "replay reads uftrace data directories only");
        close(in.fd);
        return 2;
    }
    if (opt.command == CLI_EVENTS || opt.command == CLI_QUERIES) {
        rc = fe_ipt_layer2(&opt, &in, &cli_out, &cli_err); /* Intel PT only */
    } else if (ipt || (opt.format == NULL && fe_ipt_detect(cli_chunk, got))) {
        rc = fe_ipt_run(&opt, &in, &cli_out, &cli_err);
    } else if (opt.format != NULL || fe_xtrace_detect(opt.path)) {
        rc = fe_xtrace_run(&opt, &in, &cli_out, &cli_err);
    } else if (fe_xray_detect(cli_chunk, got)) {
        rc = fe_xray_run(&opt, &in, &cli_out, &cli_err);
    } else if (fe_ipt_maybe(opt.path, cli_chunk, got)) {
        rc = fe_ipt_run(&opt, &in, &cli_out, &cli_err);
    } else {
        cli_diag(&cli_err, "error", -1, opt.path, "unrecognised trace format (known: LLVM XRay, Intel PT)");
        rc = 2;
    }
    close(in.fd);
    out_flush(&cli_out);
    out_flush(&cli_err);
    if (cli_out.failed) rc = rc ? rc : 1;
    return rc;
}
