#ifndef DIGNO_BUILD_TUNING_H
#define DIGNO_BUILD_TUNING_H

/// Turns off SQLite's memory statistics for this process, if SQLite is not initialised yet.
/// With them on, every allocation on every connection takes one process-wide mutex, and the
/// compiler's two writing threads then wait on each other. Returns 0 when applied; SQLite's
/// SQLITE_MISUSE (21) when SQLite was already in use, in which case nothing changes.
/// In C because `sqlite3_config` is variadic, which Swift cannot call.
int digno_sqlite_disable_memory_statistics(void);

/// Gives memory the process has freed back to the system (glibc keeps freed memory in its
/// arenas: after parsing 100,000 files, about 110 MB). A no-op where the C library has no
/// `malloc_trim`. In C because Swift's Glibc module does not export `malloc_trim`.
void digno_release_free_memory(void);

/// Has glibc map every allocation of 1 MiB or more on its own and unmap it when freed, rather
/// than raise that threshold as large blocks are freed (up to 32 MiB) and keep such blocks in its
/// arenas: after one 48-megapixel HEIC, 60 MB of its decode stayed, on top of the next picture's
/// decode. Applied when the compiler starts rendering pictures. A no-op where the C library is
/// not glibc.
void digno_map_large_allocations(void);

#endif
