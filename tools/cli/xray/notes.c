/* notes.c - the notes about an XRay log; see notes.h. */
#include "tools/cli/xray/notes.h"

#include <stdio.h>

#include "tools/cli/cli.h"

static void xn_note(xray_notes *n, const char *level, uint64_t offset, const char *msg, const char *detail)
{
    n->count++;
    if (n->out) out_flush(n->out);
    cli_diag(n->err, level, (int64_t)offset, msg, detail);
}

void xray_notes_record(xray_notes *n, const tdec_xray_record *r, uint64_t offset)
{
    switch (r->type) {
    case TDEC_XRAY_REC_CUSTOM_EVENT:
    case TDEC_XRAY_REC_TYPED_EVENT:
        if (r->payload_size == 0)
            xn_note(n, "note", offset,
                    r->type == TDEC_XRAY_REC_CUSTOM_EVENT ? "zero-size custom event" : "zero-size typed event",
                    "valid (the XRay runtime writes them); llvm-xray rejects the file here");
        return;
    case TDEC_XRAY_REC_CALL_ARG:
        if ((r->flags & TDEC_XRAY_RF_NO_CALL) && n->no_call_args++ == 0)
            xn_note(n, "note", offset, "argument record without its function record",
                    "the runtime dropped the call (max_stack_depth or func_duration_threshold_us) but wrote "
                    "its argument; llvm-xray rejects the file here (further ones are not noted)");
        return;
    case TDEC_XRAY_REC_FUNCTION:
        if (n->hdr.file_type == TDEC_XRAY_FDR && r->action > TDEC_XRAY_ENTER_ARGS)
            xn_note(n, "warning", offset, "function record with unknown action", "llvm-xray rejects it");
        return;
    case TDEC_XRAY_REC_END_OF_BUFFER:
        if (n->hdr.version >= 2)
            xn_note(n, "warning", offset, "EndOfBuffer record in a version 2+ log", "llvm-xray rejects it");
        return;
    case TDEC_XRAY_REC_UNKNOWN:
        if (n->hdr.file_type == TDEC_XRAY_FDR)
            xn_note(n, "warning", offset, "unknown metadata record kind", "llvm-xray rejects it");
        return;
    default:
        return;
    }
}

void xray_notes_gap(xray_notes *n, const tdec_xray_item *it)
{
    char msg[64], detail[256];
    const char *hint = "";
    if (it->u.gap.reason == TDEC_XRAY_R_OVERRUN)
        hint = " (the XRay runtime under-counts a buffer's extents by 16 bytes per typed event,"
               " cutting its last records; llvm-xray fails here)";
    snprintf(msg, sizeof msg, "%llu bytes skipped", (unsigned long long)it->u.gap.len);
    snprintf(detail, sizeof detail, "%s%s", tdec_xray_reason_str(it->u.gap.reason), hint);
    xn_note(n, "warning", it->offset, msg, detail);
}

int xray_notes_padding(xray_notes *n, uint64_t offset, uint64_t size, uint64_t len, int nonzero)
{
    if (!nonzero && (len < size || len % 8 == 0)) return 1;
    xn_note(n, "note", offset, "v1 buffer tail after EndOfBuffer skipped, not parsed",
            size % 8 != 0 ? "its length is not a multiple of 8: llvm-xray parses it as records and loses sync here"
                          : "it holds non-zero bytes, which llvm-xray would print as records");
    return 0;
}

void xray_notes_basic_empty(xray_notes *n, uint64_t offset)
{
    xn_note(n, "note", offset, "basic log without records",
            "valid (the runtime writes its header first); llvm-xray rejects it, its reader wants at least one record");
}
