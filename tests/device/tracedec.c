/* tracedec.c - every format in one image, with the all-formats header
   tracedec.h: the five device programs one after the other, their static
   names made apart. */
#include "tracedec.h"

#define main   xray_main
#define digest xray_digest
#define stream_pos xray_pos
#define decode xray_decode
#include "tests/device/xray.c"
#undef main
#undef digest
#undef stream_pos
#undef decode

#define main   uftrace_main
#define digest uftrace_digest
#define stream_pos uftrace_pos
#include "tests/device/uftrace.c"
#undef main
#undef digest
#undef stream_pos

#define main   ovni_main
#define digest ovni_digest
#define stream_pos ovni_pos
#define decode ovni_decode
#include "tests/device/ovni.c"
#undef main
#undef digest
#undef stream_pos
#undef decode

#define main   xtrace_main
#define digest xtrace_digest
#define stream_pos xtrace_pos
#define decode xtrace_decode
#include "tests/device/xtrace.c"
#undef main
#undef digest
#undef stream_pos
#undef decode

#define main ipt_main
#include "tests/device/ipt.c"
#undef main

int main(void)
{
    int bad = xray_main();
    bad |= uftrace_main();
    bad |= ovni_main();
    bad |= xtrace_main();
    return bad | ipt_main();
}
