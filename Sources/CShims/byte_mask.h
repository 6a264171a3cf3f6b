#ifndef GROVE_CSHIMS_BYTE_MASK_H
#define GROVE_CSHIMS_BYTE_MASK_H
#include <stdint.h>

/* Bit i set when byte i of the 16 at `bytes` equals `byte`. Swift has no one-bit-per-lane
   operation (SSE2's compare and `pmovmskb`, two instructions); the compiler's vector extensions
   and its builtin give it here, with a byte-by-byte fallback elsewhere. */
static inline uint32_t grove_byte_mask16(const uint8_t *bytes, uint8_t byte) {
#if defined(__SSE2__)
    typedef signed char lanes16 __attribute__((vector_size(16)));
    lanes16 lanes;
    __builtin_memcpy(&lanes, bytes, 16);
    signed char wanted = (signed char)byte;
    lanes16 splat = {wanted, wanted, wanted, wanted, wanted, wanted, wanted, wanted,
                     wanted, wanted, wanted, wanted, wanted, wanted, wanted, wanted};
    return (uint32_t)(uint16_t)__builtin_ia32_pmovmskb128((lanes16)(lanes == splat));
#else
    uint32_t mask = 0;
    for (int index = 0; index < 16; index++) {
        if (bytes[index] == byte) mask |= (uint32_t)1 << index;
    }
    return mask;
#endif
}
#endif
