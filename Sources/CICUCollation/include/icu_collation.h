#ifndef DIGNO_ICU_COLLATION_H
#define DIGNO_ICU_COLLATION_H

#include <stdint.h>

/* A thin wrapper over ICU's collator, exposing only plain C types so that Swift code that also
 * imports Foundation (which carries its own copy of ICU) sees no ICU declarations. */

/* Opens a collator for a locale such as "fi"; NULL if ICU cannot. */
void *digno_collator_open(const char *locale);

/* Writes the sort key of a UTF-16 string into key (capacity bytes); returns the key's length
 * including its terminating zero, which may exceed capacity (then call again, larger). */
int32_t digno_collator_sort_key(void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity);

void digno_collator_close(void *collator);

#endif
