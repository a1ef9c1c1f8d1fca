#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has the SHA extensions (and SSSE3 and SSE4.1) the accelerated
/// compression below needs. Checked once with CPUID.
int checkrun_sha256_accelerated(void);

/// Compresses `blocks` 64-byte blocks of `data` into `state` (h0…h7) with the x86 SHA
/// extensions. Only call when checkrun_sha256_accelerated() returned 1.
void checkrun_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
