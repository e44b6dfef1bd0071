#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/c14n.h>
#include <libxml/xmlsave.h>
