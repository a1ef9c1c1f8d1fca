// SHA-256 block compression with the x86 SHA extensions (SHA-NI), after Intel's description of
// the instructions: four rounds per step, the message schedule computed four words at a time.
// The portable compression in Swift (CheckrunModel/Text/SHA256.swift) is used on every other
// processor; tests hold both to the same reference digests.

#include "csha256.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *checkrun_sha256_constants(void) { return K; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int checkrun_sha256_accelerated(void) {
    static int known = -1;
    if (known >= 0) return known;
    unsigned int a, b, c, d;
    int result = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1)) {
        if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29))) result = 1;
    }
    known = result;
    return result;
}


__attribute__((target("sha,sse4.1,ssse3")))
void checkrun_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as ABEF and CDGH.
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);   // CDAB
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);                                      // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);                                           // CDGH

    for (size_t block = 0; block < blocks; block++, data += 64) {
        const __m128i abefSaved = state0, cdghSaved = state1;
        __m128i w[4];
        for (int step = 0; step < 16; step++) {
            const int now = step & 3, next = (step + 1) & 3, previous = (step + 3) & 3;
            if (step < 4) w[now] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * step)), byteSwap);
            __m128i message = _mm_add_epi32(w[now], _mm_loadu_si128((const __m128i *)&K[4 * step]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, message);
            if (step >= 3 && step < 15) {
                w[next] = _mm_add_epi32(w[next], _mm_alignr_epi8(w[now], w[previous], 4));
                w[next] = _mm_sha256msg2_epu32(w[next], w[now]);
            }
            message = _mm_shuffle_epi32(message, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, message);
            if (step >= 1 && step < 13) w[previous] = _mm_sha256msg1_epu32(w[previous], w[now]);
        }
        state0 = _mm_add_epi32(state0, abefSaved);
        state1 = _mm_add_epi32(state1, cdghSaved);
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);       // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);    // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0); // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);    // ABEF → HGFE
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

#else

int checkrun_sha256_accelerated(void) { return 0; }
void checkrun_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) { (void)state; (void)data; (void)blocks; }

#endif
