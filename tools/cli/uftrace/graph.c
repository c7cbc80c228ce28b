/* graph.c - `tracedec graph DIR` (not written yet). */
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/uftrace.h"

int uft_graph(const char *path, const uft_view_opts *o, out_buf *out, out_buf *err)
{
    (void)o;
    (void)out;
    cli_diag(err, "error", -1, path, "uftrace data: `graph` is not supported yet");
    return 2;
}
