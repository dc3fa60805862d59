/* libxml2 for the content compiler.
 *
 * Debian builds libxml2 with ICU, and its encoding.h then includes ICU's headers, whose
 * UErrorCode clashes with the copy inside Foundation (_FoundationICU). The compiler never
 * touches libxml2's encoding handlers, only pointers to them, so ICU is hidden here. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

/* libxml2 2.9 keeps its element-depth limit in a global variable; Swift 6 cannot assign a
   C global safely, so the compiler sets it once, before any parsing, through this function. */
static inline void digno_xml_set_max_depth(unsigned int depth) {
    xmlParserMaxDepth = depth;
}

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void digno_xml_free(void *pointer) {
    xmlFree(pointer);
}
