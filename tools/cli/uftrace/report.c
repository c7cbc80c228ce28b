/* report.c - `tracedec report DIR` (not written yet). */
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/uftrace.h"

int uft_report(const char *path, const uft_view_opts *o, out_buf *out, out_buf *err)
{
    (void)o;
    (void)out;
    cli_diag(err, "error", -1, path, "uftrace data: `report` is not supported yet");
    return 2;
}
