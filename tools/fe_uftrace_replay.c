/* fe_uftrace_replay.c - `tracedec replay DIR`: not written yet. */
#include "frontends.h"

int fe_uftrace_replay(const cli_opts *opt, out_buf *out, out_buf *err)
{
    (void)out;
    cli_diag(err, "error", -1, opt->path, "replay is not implemented yet");
    return 2;
}
