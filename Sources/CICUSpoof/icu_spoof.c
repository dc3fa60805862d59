#include "icu_spoof.h"
#include <unicode/uspoof.h>

void *digno_spoof_open(void) {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&status);
    uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS, &status);
    uspoof_setRestrictionLevel(checker, USPOOF_HIGHLY_RESTRICTIVE);
    if (U_FAILURE(status)) {
        if (checker) uspoof_close(checker);
        return 0;
    }
    return checker;
}

int32_t digno_spoof_check(void *checker, const char *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t result = uspoof_checkUTF8((const USpoofChecker *)checker, text, length, 0, &status);
    return U_FAILURE(status) ? -1 : result;
}

void digno_spoof_close(void *checker) {
    uspoof_close((USpoofChecker *)checker);
}
