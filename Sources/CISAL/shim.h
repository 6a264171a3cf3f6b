#ifndef GROVE_CISAL_SHIM_H
#define GROVE_CISAL_SHIM_H

/*
 * The ABI of ISA-L's inflate (libisal.so.2, Debian `libisal2`, v2.x) as grove-report uses it.
 *
 * Nothing here is linked: the library is opened with dlopen at run time, so neither the library
 * nor its headers are needed to build. The layout mirrors `struct inflate_state` of ISA-L's
 * `igzip_lib.h` (BSD-3-Clause, Intel), which has been stable across the 2.x releases; callers
 * allocate it and let `isal_inflate_init` fill it in.
 */

#include <stdint.h>

#define GROVE_ISAL_DECODE_LONG_BITS 12
#define GROVE_ISAL_DECODE_SHORT_BITS 10
#define GROVE_ISAL_L_REM (21 - GROVE_ISAL_DECODE_LONG_BITS)
#define GROVE_ISAL_S_REM (15 - GROVE_ISAL_DECODE_SHORT_BITS)
#define GROVE_ISAL_L_DUP ((1 << GROVE_ISAL_L_REM) - (GROVE_ISAL_L_REM + 1))
#define GROVE_ISAL_S_DUP ((1 << GROVE_ISAL_S_REM) - (GROVE_ISAL_S_REM + 1))
#define GROVE_ISAL_L_UNUSED ((1 << GROVE_ISAL_L_REM) - (1 << ((GROVE_ISAL_L_REM) / 2)) - (1 << ((GROVE_ISAL_L_REM + 1) / 2)) + 1)
#define GROVE_ISAL_S_UNUSED ((1 << GROVE_ISAL_S_REM) - (1 << ((GROVE_ISAL_S_REM) / 2)) - (1 << ((GROVE_ISAL_S_REM + 1) / 2)) + 1)
#define GROVE_ISAL_L_SIZE (257 + 29 + GROVE_ISAL_L_DUP + GROVE_ISAL_L_UNUSED)
#define GROVE_ISAL_S_SIZE (30 + GROVE_ISAL_S_DUP + GROVE_ISAL_S_UNUSED)
#define GROVE_ISAL_LARGE_LONG_ALIGNED (GROVE_ISAL_L_SIZE + (-GROVE_ISAL_L_SIZE & 0xf))
#define GROVE_ISAL_SMALL_LONG_ALIGNED (GROVE_ISAL_S_SIZE + (-GROVE_ISAL_S_SIZE & 0xf))
#define GROVE_ISAL_MAX_HDR_SIZE 328
#define GROVE_ISAL_HIST_SIZE (32 * 1024)
#define GROVE_ISAL_LOOK_AHEAD ((258 + 31) & ~31)

/* `crc_flag`: parse the gzip header and trailer and verify the CRC-32 and length. */
#define GROVE_ISAL_GZIP 1

/* `block_state` once a member's deflate data and trailer are fully read. */
#define GROVE_ISAL_BLOCK_FINISH 5

/* Return codes of `isal_inflate`. */
#define GROVE_ISAL_DECOMP_OK 0

struct grove_isal_huff_code_large {
    uint32_t short_code_lookup[1 << GROVE_ISAL_DECODE_LONG_BITS];
    uint16_t long_code_lookup[GROVE_ISAL_LARGE_LONG_ALIGNED];
};

struct grove_isal_huff_code_small {
    uint16_t short_code_lookup[1 << GROVE_ISAL_DECODE_SHORT_BITS];
    uint16_t long_code_lookup[GROVE_ISAL_SMALL_LONG_ALIGNED];
};

struct grove_isal_inflate_state {
    uint8_t *next_out;
    uint32_t avail_out;
    uint32_t total_out;
    uint8_t *next_in;
    uint64_t read_in;
    uint32_t avail_in;
    int32_t read_in_length;
    struct grove_isal_huff_code_large lit_huff_code;
    struct grove_isal_huff_code_small dist_huff_code;
    int32_t block_state; /* enum isal_block_state */
    uint32_t dict_length;
    uint32_t bfinal;
    uint32_t crc_flag;
    uint32_t crc;
    uint32_t hist_bits;
    int32_t type0_block_len; /* a union in ISA-L's header, all members 32 bits */
    int32_t write_overflow_lits;
    int32_t write_overflow_len;
    int32_t copy_overflow_length;
    int32_t copy_overflow_distance;
    int16_t wrapper_flag;
    int16_t tmp_in_size;
    int32_t tmp_out_valid;
    int32_t tmp_out_processed;
    uint8_t tmp_in_buffer[GROVE_ISAL_MAX_HDR_SIZE];
    uint8_t tmp_out_buffer[2 * GROVE_ISAL_HIST_SIZE + GROVE_ISAL_LOOK_AHEAD];
};

/* The three entry points, looked up with dlsym. */
typedef void (*grove_isal_inflate_init_fn)(struct grove_isal_inflate_state *state);
typedef void (*grove_isal_inflate_reset_fn)(struct grove_isal_inflate_state *state);
typedef int (*grove_isal_inflate_fn)(struct grove_isal_inflate_state *state);
/* crc32_gzip_refl: gzip's CRC-32 of `count` bytes after `crc`, zlib's crc32 by another name
   (carry-less multiplication where the processor has it, chosen by ISA-L at load). */
typedef uint32_t (*grove_isal_crc32_gzip_fn)(uint32_t crc, const unsigned char *bytes, uint64_t count);

#endif
