/* uftrace.h - the commands of the uftrace front end, one file each; its
   row of the table (uftrace.c) picks one. Each reads the data directory at
   `path`, prints to out, reports on err, and returns the exit status. */
#ifndef TDEC_TOOLS_UFTRACE_H
#define TDEC_TOOLS_UFTRACE_H

#include "tools/cli/out.h"
#include "tools/cli/uftrace/opts.h"

/* dump: as `uftrace dump` (dump.c) */
int uft_dump(const char *path, out_buf *out, out_buf *err);
/* dump --json (json.c, docs/uftrace.md) */
int uft_dump_json(const char *path, out_buf *out, out_buf *err);
/* dump --chrome, --flame-graph, --graphviz: as `uftrace dump` with that
   option (views.c) */
enum { UFT_VIEW_CHROME, UFT_VIEW_FLAME, UFT_VIEW_GRAPHVIZ };
int uft_dump_view(const char *path, int view, out_buf *out, out_buf *err);
/* replay: as `uftrace replay` with options o (replay.c) */
int uft_replay(const char *path, const uft_opts *o, out_buf *out, out_buf *err);

/* info: as `uftrace info`, `uftrace info --task` (info.c) */
int uft_info(const char *path, int show_task, out_buf *out, out_buf *err);
/* Are the sections of the info file in the shapes uftrace 0.13 reads (it
   refuses the directory otherwise, for every command)? 0, or 1 with the
   error on err (info.c). */
struct uft_dir;
int uft_info_check(const struct uft_dir *d, out_buf *err);
/* report: as `uftrace report` with options o (report.c) */
int uft_report(const char *path, const uft_opts *o, out_buf *out, out_buf *err);
/* graph: as `uftrace graph` with options o (graph.c) */
int uft_graph(const char *path, const uft_opts *o, out_buf *out, out_buf *err);

#endif
