#ifndef GROVE_CSHIMS_CRC32_CLMUL_H
#define GROVE_CSHIMS_CRC32_CLMUL_H
#include <stddef.h>
#include <stdint.h>

/* gzip's CRC-32 by carry-less multiplication (Intel, "Fast CRC Computation for Generic
   Polynomials Using PCLMULQDQ", 2009; the folding Chromium's zlib uses): four 16-byte lanes
   folded 64 bytes at a time, then reduced to 32 bits (Barrett). About 0.2 instructions a byte,
   where zlib 1.2's table-driven crc32 takes about 4. Swift cannot reach PCLMULQDQ, and the
   processor may lack it, hence a header with a run-time check and no fallback of its own: the
   caller uses zlib's crc32 when `grove_crc32_clmul_available()` is false and for the bytes past
   the last whole 16. */

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* Whether the processor has PCLMULQDQ and SSE4.1 (CPUID leaf 1, ECX bits 1 and 19). */
static inline int grove_crc32_clmul_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & (1u << 1)) != 0 && (ecx & (1u << 19)) != 0;
}

/* zlib's crc32(crc, bytes, count) for `count` >= 64 and a multiple of 16. */
__attribute__((target("pclmul,sse4.1")))
static inline uint32_t grove_crc32_clmul(uint32_t crc, const uint8_t *bytes, size_t count) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i x1 = _mm_loadu_si128((const __m128i *)(bytes + 0x00));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(bytes + 0x10));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(bytes + 0x20));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(bytes + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)~crc));
    bytes += 64;
    count -= 64;

    /* Four lanes, each folded 64 bytes ahead. */
    while (count >= 64) {
        __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        __m128i x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        __m128i x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(bytes + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(bytes + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(bytes + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(bytes + 0x30)));
        bytes += 64;
        count -= 64;
    }

    /* The four lanes into one, then one 16 bytes at a time. */
    __m128i lanes[3] = {x2, x3, x4};
    for (int lane = 0; lane < 3; lane++) {
        __m128i low = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, lanes[lane]), low);
    }
    while (count >= 16) {
        __m128i low = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, _mm_loadu_si128((const __m128i *)bytes)), low);
        bytes += 16;
        count -= 16;
    }

    /* 128 bits to 64, then Barrett's reduction to 32. */
    __m128i folded = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), folded);
    folded = _mm_srli_si128(x1, 4);
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5k0, 0x00);
    x1 = _mm_xor_si128(x1, folded);
    __m128i reduced = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
    reduced = _mm_clmulepi64_si128(_mm_and_si128(reduced, low32), poly, 0x00);
    x1 = _mm_xor_si128(x1, reduced);
    return ~(uint32_t)_mm_extract_epi32(x1, 1);
}
#else
static inline int grove_crc32_clmul_available(void) { return 0; }
static inline uint32_t grove_crc32_clmul(uint32_t crc, const uint8_t *bytes, size_t count) {
    (void)bytes; (void)count;
    return crc;
}
#endif
#endif
