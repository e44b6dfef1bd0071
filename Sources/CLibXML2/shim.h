#include <libxml/xmlversion.h>
/* libxml2 built with ICU would pull <unicode/ucnv.h> into this module, whose
   ICU types clash with Foundation's own ICU copy (_FoundationICU). Nothing here
   uses libxml2's ICU converter fields, so leave them out of the module. */
#ifdef LIBXML_ICU_ENABLED
#undef LIBXML_ICU_ENABLED
#endif
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/c14n.h>
#include <libxml/xmlsave.h>

/* xmlFree is a mutable global function pointer; Swift 6 refuses to read it
   from Swift code, so free through this helper. */
static inline void ca_xml_free(void *pointer) { xmlFree(pointer); }
