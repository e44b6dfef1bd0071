#ifndef CAPTION_ASSISTANT_BUILD_INFO_H
#define CAPTION_ASSISTANT_BUILD_INFO_H

/// The commit this build was made from, as scripts/package.sh passes it
/// (`swift build -Xcc -DCAPTION_ASSISTANT_COMMIT='"0ba8de0c1a2b"'`); NULL for
/// a build that was not given one (a plain `swift build`). A compiler
/// definition rather than a generated source file, so packaging leaves
/// nothing changed in the tree.
const char *caption_assistant_build_commit(void);

#endif
