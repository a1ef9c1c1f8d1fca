#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// The 64 round constants of FIPS 180-4, section 4.2.2: one table for both compressions.
const uint32_t *checkrun_sha256_constants(void);

/// Whether this processor has the SHA extensions (and SSSE3 and SSE4.1) the accelerated
/// compression below needs. Checked once with CPUID.
int checkrun_sha256_accelerated(void);

/// Compresses `blocks` 64-byte blocks of `data` into `state` (h0…h7) with the x86 SHA
/// extensions. Only call when checkrun_sha256_accelerated() returned 1.
void checkrun_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
