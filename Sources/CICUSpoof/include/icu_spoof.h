#ifndef DIGNO_ICU_SPOOF_H
#define DIGNO_ICU_SPOOF_H

#include <stdint.h>

/* A thin wrapper over ICU's spoof checker (uspoof.h, Unicode Technical Standard #39), exposing
 * only plain C types, as icu_collation.h does for the collator. */

/* Opens a checker that refuses text mixing scripts beyond what UTS #39 calls "highly
 * restrictive" (one script, or Latin with Han and the Japanese or Korean scripts), and digits
 * of more than one numbering system; NULL if ICU cannot. Safe to use from several threads. */
void *digno_spoof_open(void);

/* 0 when the UTF-8 text passes, nonzero when it mixes scripts or numbering systems, -1 when
 * ICU could not check it. */
int32_t digno_spoof_check(void *checker, const char *text, int32_t length);

void digno_spoof_close(void *checker);

#endif
