#ifndef GROVE_CSHIMS_MALLOC_TUNING_H
#define GROVE_CSHIMS_MALLOC_TUNING_H
/* glibc's malloc tuning (mallopt), which Swift's Glibc module does not export. */
#include <malloc.h>
#endif
