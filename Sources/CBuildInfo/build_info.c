#include <stddef.h>
#include "build_info.h"

const char *caption_assistant_build_commit(void) {
#ifdef CAPTION_ASSISTANT_COMMIT
    return CAPTION_ASSISTANT_COMMIT;
#else
    return NULL;
#endif
}
