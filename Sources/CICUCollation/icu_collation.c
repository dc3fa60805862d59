#include "icu_collation.h"
#include <unicode/ucol.h>

void *digno_collator_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) {
        if (collator) ucol_close(collator);
        return 0;
    }
    return collator;
}

int32_t digno_collator_sort_key(void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity) {
    return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, key, capacity);
}

void digno_collator_close(void *collator) {
    ucol_close((UCollator *)collator);
}
