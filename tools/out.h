/* out.h - the CLI's shared output module: a buffered writer with fast
   number formatting, JSON escaping and hex dumps. Every front end prints
   through it. Not part of the library. */
#ifndef TDEC_TOOLS_OUT_H
#define TDEC_TOOLS_OUT_H

#include <stddef.h>
#include <stdint.h>

#define OUT_BUF_SIZE (1u << 16)

typedef struct out_buf {
    int    fd;
    int    failed;     /* a write(2) failed; further output is dropped */
    int    json_first; /* next JSON key is the object's first            */
    size_t len;
    char   buf[OUT_BUF_SIZE];
} out_buf;

void out_init(out_buf *o, int fd);
void out_flush(out_buf *o);
void out_mem(out_buf *o, const void *p, size_t n);
void out_str(out_buf *o, const char *s);
void out_char(out_buf *o, char c);
void out_u64(out_buf *o, uint64_t v);
void out_str_u64(out_buf *o, const char *s, uint64_t v); /* s, then v */
void out_i64(out_buf *o, int64_t v);
void out_u64_padded(out_buf *o, uint64_t v, unsigned width, char fill);
void out_hex(out_buf *o, uint64_t v);                  /* lowercase, no prefix */
void out_hex_bytes(out_buf *o, const uint8_t *p, size_t n);
void out_json_chars(out_buf *o, const char *s, size_t n); /* escaped, no quotes */
/* JSON objects: open writes '{', each helper writes `"key":value` with a
   comma before all but the first, close writes "}\n". */
void out_json_open(out_buf *o);
void out_json_close(out_buf *o);
void out_json_key(out_buf *o, const char *key);
void out_json_u64(out_buf *o, const char *key, uint64_t v);
void out_json_i64(out_buf *o, const char *key, int64_t v);
void out_json_str(out_buf *o, const char *key, const char *v);
void out_json_bool(out_buf *o, const char *key, int v);

#endif
