/* info.c - `tracedec info DIR` and `info --task`: what `uftrace info`
   (v0.13, cmds/info.c) prints of a data directory.

   Everything comes from the directory: the sections of the info file that
   its header's info_mask announces (read one after the other, each in the
   line shapes uftrace's read handlers accept), the tasks of task.txt with
   the names uftrace gives them, the perf COMM records (they rename tasks;
   any perf record of a task moves its start back), the sizes of the
   <tid>.dat files and note.txt. Only "recorded on" of data without a
   record_date section comes from the file system: the info file's
   modification time, in the local time zone, as uftrace prints it. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

/* uftrace's UFTRACE_EXIT_FINISHED: the exit status of a finish trigger */
#define UI_EXIT_FINISHED (1 << 16)

/* The values of the info file's sections, as uftrace's read handlers keep
   them (strings point into the file's text, cut at their newline). */
typedef struct ui_info {
    const char *exename, *cmdline, *cpudesc, *meminfo, *kernel, *hostname, *distro;
    const char *argspec, *retspec, *record_date, *elapsed_time, *version, *pattern;
    unsigned char build_id[20];
    int           exit_status, cpus_online, cpus_possible, auto_args;
    double        stime, utime;
    long          vctxsw, ictxsw, maxrss, major_fault, minor_fault, rblock, wblock;
    float         load1, load5, load15;
} ui_info;

/* The info file's text after the header, read line by line. */
typedef struct ui_lines {
    char *p, *end;
} ui_lines;

/* The next line without its newline (cut in place), or NULL at the end. */
static char *ui_line(ui_lines *l)
{
    char *s = l->p, *nl;
    if (s >= l->end) return NULL;
    nl = memchr(s, '\n', (size_t)(l->end - s));
    if (nl != NULL) {
        *nl = '\0';
        l->p = nl + 1;
    } else {
        l->p = l->end;
    }
    return s;
}

/* The next line if it begins with key: its rest, else NULL. */
static char *ui_keyed(ui_lines *l, const char *key)
{
    char *s = ui_line(l);
    size_t n = strlen(key);
    return s != NULL && strncmp(s, key, n) == 0 ? s + n : NULL;
}

/* The "KEY:lines=N" line of a multi-line section; -1 when it is not one
   or announces more than max lines. */
static int ui_count(ui_lines *l, const char *key, int max)
{
    char *v = ui_keyed(l, key);
    int n;
    if (v == NULL || sscanf(v, "lines=%d", &n) != 1 || n > max) return -1;
    return n;
}

static int ui_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Section `bit` of the info file (uftrace's read_uftrace_info() handlers).
   0, or -1 when it is not in the shape uftrace accepts. */
static int ui_section(ui_lines *l, unsigned bit, ui_info *in)
{
    char *v;
    int i, n;
    switch (bit) {
    case TDEC_UFTRACE_INFO_EXE_NAME: return (in->exename = ui_keyed(l, "exename:")) ? 0 : -1;
    case TDEC_UFTRACE_INFO_EXE_BUILD_ID:
        if ((v = ui_keyed(l, "build_id:")) == NULL || strlen(v) < 40) return -1;
        for (i = 0; i < 20; i++) {
            if (ui_hex(v[2 * i]) < 0 || ui_hex(v[2 * i + 1]) < 0) return -1;
            in->build_id[i] = (unsigned char)(ui_hex(v[2 * i]) << 4 | ui_hex(v[2 * i + 1]));
        }
        return 0;
    case TDEC_UFTRACE_INFO_EXIT_STATUS:
        if ((v = ui_keyed(l, "exit_status:")) == NULL) return -1;
        sscanf(v, "%d", &in->exit_status);
        return 0;
    case TDEC_UFTRACE_INFO_CMDLINE: return (in->cmdline = ui_keyed(l, "cmdline:")) ? 0 : -1;
    case TDEC_UFTRACE_INFO_CPUINFO:
        if ((n = ui_count(l, "cpuinfo:", 2)) < 0) return -1;
        for (i = 0; i < n; i++) {
            if ((v = ui_keyed(l, "cpuinfo:")) == NULL) return -1;
            if (strncmp(v, "nr_cpus=", 8) == 0) sscanf(v, "nr_cpus=%d / %d", &in->cpus_online, &in->cpus_possible);
            else if (strncmp(v, "desc=", 5) == 0) in->cpudesc = v + 5;
        }
        return 0;
    case TDEC_UFTRACE_INFO_MEMINFO: return (in->meminfo = ui_keyed(l, "meminfo:")) ? 0 : -1;
    case TDEC_UFTRACE_INFO_OSINFO:
        if ((n = ui_count(l, "osinfo:", 3)) < 0) return -1;
        for (i = 0; i < n; i++) {
            if ((v = ui_keyed(l, "osinfo:")) == NULL) return -1;
            if (strncmp(v, "kernel=", 7) == 0) in->kernel = v + 7;
            else if (strncmp(v, "hostname=", 9) == 0) in->hostname = v + 9;
            else if (strncmp(v, "distro=", 7) == 0) in->distro = v + 7;
        }
        return 0;
    case TDEC_UFTRACE_INFO_TASKINFO: /* the tids: uft_dir reads them */
        if ((n = ui_count(l, "taskinfo:", 2)) < 0) return -1;
        for (i = 0; i < n; i++) {
            if ((v = ui_keyed(l, "taskinfo:")) == NULL || (strncmp(v, "nr_tid=", 7) && strncmp(v, "tids=", 5))) return -1;
        }
        return 0;
    case TDEC_UFTRACE_INFO_USAGEINFO:
        if ((n = ui_count(l, "usageinfo:", 6)) < 0) return -1;
        for (i = 0; i < n; i++) {
            if ((v = ui_keyed(l, "usageinfo:")) == NULL) return -1;
            if (strncmp(v, "systime=", 8) == 0) sscanf(v + 8, "%lf", &in->stime);
            else if (strncmp(v, "usrtime=", 8) == 0) sscanf(v + 8, "%lf", &in->utime);
            else if (strncmp(v, "ctxsw=", 6) == 0) sscanf(v + 6, "%ld / %ld", &in->vctxsw, &in->ictxsw);
            else if (strncmp(v, "maxrss=", 7) == 0) sscanf(v + 7, "%ld", &in->maxrss);
            else if (strncmp(v, "pagefault=", 10) == 0) sscanf(v + 10, "%ld / %ld", &in->major_fault, &in->minor_fault);
            else if (strncmp(v, "iops=", 5) == 0) sscanf(v + 5, "%ld / %ld", &in->rblock, &in->wblock);
        }
        return 0;
    case TDEC_UFTRACE_INFO_LOADINFO:
        if ((v = ui_keyed(l, "loadinfo:")) == NULL) return -1;
        sscanf(v, "%f / %f / %f", &in->load1, &in->load5, &in->load15);
        return 0;
    case TDEC_UFTRACE_INFO_ARG_SPEC:
        if ((v = ui_keyed(l, "argspec:")) == NULL) return -1;
        if (strncmp(v, "lines", 5) != 0) { /* the old format: argspec alone */
            in->argspec = v;
            return 0;
        }
        if (sscanf(v, "lines=%d", &n) != 1 || n > 6) return -1;
        for (i = 0; i < n; i++) {
            if ((v = ui_line(l)) == NULL) return -1;
            if (strncmp(v, "argspec:", 8) == 0) in->argspec = v + 8;
            else if (strncmp(v, "retspec:", 8) == 0) in->retspec = v + 8;
            else if (strncmp(v, "auto-args:1", 11) == 0) in->auto_args = 1;
            else if (strncmp(v, "argauto:", 8) && strncmp(v, "retauto:", 8) && strncmp(v, "enumauto:", 9)) return -1;
        }
        return 0;
    case TDEC_UFTRACE_INFO_RECORD_DATE:
        if ((in->record_date = ui_keyed(l, "record_date:")) == NULL) return -1;
        return (in->elapsed_time = ui_keyed(l, "elapsed_time:")) ? 0 : -1;
    case TDEC_UFTRACE_INFO_PATTERN_TYPE:
        if ((v = ui_keyed(l, "pattern_type:")) == NULL) return -1;
        in->pattern = strcmp(v, "simple") == 0 || strcmp(v, "regex") == 0 || strcmp(v, "glob") == 0 ? v : "none";
        return 0;
    case TDEC_UFTRACE_INFO_VERSION: return (in->version = ui_keyed(l, "uftrace_version:")) ? 0 : -1;
    default: return 0; /* a section uftrace 0.13 does not know: not read */
    }
}

static void ui_printf(out_buf *o, const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) out_mem(o, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* "# KEY                 : VALUE" */
static void ui_field(out_buf *o, const char *key, const char *value)
{
    ui_printf(o, "# %-20s: %s\n", key, value ? value : "(null)");
}

/* The perf records rename tasks (COMM) and move their start back, file by
   file as uftrace's update_perf_task_comm() reads them: the records of the
   tasks of taskinfo that have a <tid>.dat. */
static void ui_perf_tasks(uft_dir *d)
{
    uft_perf_reader rd;
    tdec_uftrace_perf_record r;
    char path[4096];
    uft_task *t;
    size_t i;
    if (!(d->hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT)) return;
    for (i = 0; i < d->nperf_files; i++) {
        snprintf(path, sizeof path, "%s/%s", d->path, d->perf_files[i]);
        if (uft_perf_open(&rd, d, path) < 0) continue;
        while (uft_perf_next(&rd, &r) > 0) {
            if (!uft_tid_recorded(d, (int32_t)r.tid) || (t = (uft_task *)uft_find_task(d, (int32_t)r.tid)) == NULL) continue;
            if (t->time == 0 || t->time > r.time) t->time = r.time;
            if (r.type == TDEC_UFTRACE_PERF_COMM) memcpy(t->comm, r.comm, sizeof t->comm - 1);
        }
        uft_perf_close(&rd);
    }
}

static void ui_exit_status(int status, char *buf, size_t len)
{
    if (status == UI_EXIT_FINISHED) snprintf(buf, len, "terminated by finish trigger");
    else if (WIFEXITED(status)) snprintf(buf, len, "exited with code: %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "terminated by signal: %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else snprintf(buf, len, "unknown exit status: %d", status);
}

static void ui_print(uft_dir *d, const ui_info *in, out_buf *out)
{
    uint64_t mask = d->hdr.info_mask;
    char buf[4096], *note;
    struct stat sb;
    size_t i, n;
    out_lit(out, "# system information\n# ==================\n");
    if (mask & TDEC_UFTRACE_INFO_VERSION) ui_field(out, "program version", in->version);
    if (mask & TDEC_UFTRACE_INFO_RECORD_DATE) {
        ui_field(out, "recorded on", in->record_date);
    } else {
        time_t mtime;
        snprintf(buf, sizeof buf, "%s/info", d->path);
        mtime = stat(buf, &sb) == 0 ? sb.st_mtime : 0;
        ui_printf(out, "# %-20s: %s", "recorded on", ctime(&mtime));
    }
    if (mask & TDEC_UFTRACE_INFO_CMDLINE) ui_field(out, "cmdline", in->cmdline);
    if (mask & TDEC_UFTRACE_INFO_CPUINFO) {
        ui_field(out, "cpu info", in->cpudesc);
        ui_printf(out, "# %-20s: %d / %d (online / possible)\n", "number of cpus", in->cpus_online, in->cpus_possible);
    }
    if (mask & TDEC_UFTRACE_INFO_MEMINFO) ui_field(out, "memory info", in->meminfo);
    if (mask & TDEC_UFTRACE_INFO_LOADINFO)
        ui_printf(out, "# %-20s: %.02f / %.02f / %.02f (1 / 5 / 15 min)\n", "system load", (double)in->load1,
                  (double)in->load5, (double)in->load15);
    if (mask & TDEC_UFTRACE_INFO_OSINFO) {
        ui_field(out, "kernel version", in->kernel);
        ui_field(out, "hostname", in->hostname);
        ui_field(out, "distro", in->distro);
    }
    out_lit(out, "#\n# process information\n# ===================\n");
    if (mask & TDEC_UFTRACE_INFO_TASKINFO) {
        ui_printf(out, "# %-20s: %d\n", "number of tasks", (int)d->ntids);
        ui_perf_tasks(d);
        ui_printf(out, "# %-20s: ", "task list");
        for (i = 0; i < d->ntids; i++) {
            const uft_task *t = uft_find_task(d, d->tids[i]);
            ui_printf(out, "%s%d(%s)", i ? ", " : "", d->tids[i], t ? t->comm : "");
        }
        out_char(out, '\n');
    }
    if (mask & TDEC_UFTRACE_INFO_EXE_NAME) ui_field(out, "exe image", in->exename);
    if (mask & TDEC_UFTRACE_INFO_EXE_BUILD_ID) {
        for (i = 0; i < 20; i++) snprintf(buf + 2 * i, 3, "%02x", in->build_id[i]);
        ui_field(out, "build id", buf);
    }
    if (mask & TDEC_UFTRACE_INFO_ARG_SPEC) {
        if (in->argspec) ui_field(out, "arguments", in->argspec);
        if (in->retspec) ui_field(out, "return values", in->retspec);
        if (in->auto_args) ui_field(out, "auto-args", "true");
    }
    if (mask & TDEC_UFTRACE_INFO_PATTERN_TYPE) ui_field(out, "pattern", in->pattern);
    if (mask & TDEC_UFTRACE_INFO_EXIT_STATUS) {
        ui_exit_status(in->exit_status, buf, sizeof buf);
        ui_field(out, "exit status", buf);
    }
    if (mask & TDEC_UFTRACE_INFO_RECORD_DATE) ui_field(out, "elapsed time", in->elapsed_time);
    if (mask & TDEC_UFTRACE_INFO_USAGEINFO) {
        ui_printf(out, "# %-20s: %.3f / %.3f sec (sys / user)\n", "cpu time", in->stime, in->utime);
        ui_printf(out, "# %-20s: %ld / %ld (voluntary / involuntary)\n", "context switch", in->vctxsw, in->ictxsw);
        ui_printf(out, "# %-20s: %ld KB\n", "max rss", in->maxrss);
        ui_printf(out, "# %-20s: %ld / %ld (major / minor)\n", "page fault", in->major_fault, in->minor_fault);
        ui_printf(out, "# %-20s: %ld / %ld (read / write)\n", "disk iops", in->rblock, in->wblock);
    }
    snprintf(buf, sizeof buf, "%s/note.txt", d->path);
    if ((note = uft_read_file(buf, &n)) != NULL) {
        out_lit(out, "#\n# extra note information\n# ======================\n");
        out_str(out, note); /* up to a NUL, as uftrace's "%s" */
        free(note);
    }
    out_char(out, '\n');
}

/* info --task: every task of task.txt by tid (uftrace's print_task_info()). */
static void ui_print_tasks(uft_dir *d, out_buf *out)
{
    char path[4096], flags[6];
    const uft_task **byid;
    struct stat sb;
    size_t i, k;
    ui_perf_tasks(d);
    byid = (const uft_task **)malloc((d->ntasks + 1) * sizeof *byid);
    if (byid == NULL) return;
    for (i = 0; i < d->ntasks; i++) { /* insertion sort by tid: task.txt is short */
        for (k = i; k > 0 && byid[k - 1]->tid > d->tasks[i].tid; k--) byid[k] = byid[k - 1];
        byid[k] = &d->tasks[i];
    }
    ui_printf(out, "#%23s  %5s  %8s  %-16s  %s\n", "TIMESTAMP     ", "FLAGS", "  TID  ", "TASK", "DATA SIZE");
    for (i = 0; i < d->ntasks; i++) {
        const uft_task *t = byid[i];
        memcpy(flags, "     ", sizeof flags);
        if (t->tid == t->pid) flags[0] = 'F';
        for (k = 0; k < t->nrefs; k++)
            if (t->refs[k].sess->pid == t->tid) flags[1] = 'S';
        ui_printf(out, " %13llu.%09llu ", (unsigned long long)(t->time / 1000000000u),
                  (unsigned long long)(t->time % 1000000000u));
        ui_printf(out, " %s  [%6d]  %-16s ", flags, t->tid, t->comm);
        snprintf(path, sizeof path, "%s/%d.dat", d->path, t->tid);
        if (stat(path, &sb) == 0 && sb.st_size > 0) {
            unsigned long long kb = (unsigned long long)sb.st_size / 1024u, rem = kb % 1024u;
            ui_printf(out, " %5llu.%03llu MB\n", kb / 1024u, rem >= 1000u ? 999u : rem);
        } else {
            out_char(out, '\n');
        }
    }
    free(byid);
}

/* Reads the sections of DIR/info into *in (*text: the file, to free):
   0, or 1 with the error on err. */
static int ui_read(const uft_dir *d, ui_info *in, char **text, out_buf *err)
{
    ui_lines lines;
    char msg[512], file[4096];
    size_t n;
    unsigned bit;
    snprintf(file, sizeof file, "%s/info", d->path);
    *text = uft_read_file(file, &n);
    if (*text == NULL || n < TDEC_UFTRACE_HEADER_SIZE) {
        cli_diag(err, "error", -1, file, "cannot read");
        return 1;
    }
    memset(in, 0, sizeof *in);
    in->pattern = "regex";
    lines.p = *text + TDEC_UFTRACE_HEADER_SIZE;
    lines.end = *text + n;
    for (bit = 0; bit < 14; bit++) {
        if ((d->hdr.info_mask & (1u << bit)) && ui_section(&lines, 1u << bit, in) < 0) {
            /* uftrace: "cannot read uftrace header info!" */
            snprintf(msg, sizeof msg, "section %s is not in the shape uftrace 0.13 reads", tdec_uftrace_info_str(bit));
            cli_diag(err, "error", -1, file, msg);
            return 1;
        }
    }
    return 0;
}

int uft_info_check(const uft_dir *d, out_buf *err)
{
    ui_info in;
    char *text;
    int rc = ui_read(d, &in, &text, err);
    free(text);
    return rc;
}

int uft_info(const char *path, int show_task, out_buf *out, out_buf *err)
{
    static uft_dir d; /* reachable to the end (the CLI frees nothing of it) */
    ui_info in;
    char msg[512], *text;
    if (uft_dir_load(&d, path, msg, sizeof msg) < 0) {
        cli_diag(err, "error", -1, msg, NULL);
        return 1;
    }
    if (ui_read(&d, &in, &text, err)) {
        free(text);
        return 1;
    }
    if (show_task) ui_print_tasks(&d, out);
    else if (d.hdr.info_mask != 0) ui_print(&d, &in, out); /* (uftrace prints nothing without sections) */
    free(text);
    return 0;
}
