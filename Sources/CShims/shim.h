#ifndef GROVE_CSHIMS_SHIM_H
#define GROVE_CSHIMS_SHIM_H

/* The few C facilities Swift cannot reach by itself, each a header of a few lines: nothing here
   is linked or installed (glibc and the compiler's builtins and intrinsics only). The C
   libraries grove-report links or opens (zlib, libcrypto, SQLite, ISA-L) keep their own
   system-library modules. */
#include "byte_mask.h"
#include "prefetch.h"
#include "malloc_tuning.h"

#endif
