#ifndef GROVE_CZLIB_SHIM_H
#define GROVE_CZLIB_SHIM_H

#include <zlib.h>

/// `inflateInit2` and `deflateInit2` are macros, which Swift cannot import: these wrappers expose them.
static inline int grove_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

static inline int grove_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif
