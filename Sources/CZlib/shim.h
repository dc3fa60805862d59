/* zlib for the content compiler: digno publish writes each bundle's gzip copy with it. */
#include <zlib.h>
