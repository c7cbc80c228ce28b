/* digest.h - the digest of an instruction sequence too long to keep
   (make bench-traces): FNV-1a 64 over each IP's 8 bytes, little-endian.
   The writer prints it (writer -d) as "digest COUNT HASH"; build/diff/ipt_flow
   takes that line as its EXPECTED. */
#ifndef EXEC_DIGEST_H
#define EXEC_DIGEST_H
#include <stdint.h>

#define EXEC_DIGEST_START 0xcbf29ce484222325ull

static inline uint64_t exec_digest(uint64_t hash, uint64_t ip)
{
    int k;
    for (k = 0; k < 64; k += 8)
        hash = (hash ^ ((ip >> k) & 0xffu)) * 0x100000001b3ull;
    return hash;
}
#endif
