#include "build_tuning.h"
#include <sqlite3.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int digno_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void digno_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void digno_map_large_allocations(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}
