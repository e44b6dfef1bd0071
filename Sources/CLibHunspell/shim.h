/* Hunspell, declared by us: building needs no hunspell headers. */
#include <dlfcn.h>
#include <stddef.h>

/* Hunspell is opened when first used (dlopen of libhunspell-1.7.so.0, the
   runtime package libhunspell-1.7-0), not linked: a run whose titles are
   never checked against a dictionary (no model, the fake, the local
   fallback) never loads it, and a machine without it runs all the same,
   without the dictionary check (`TitleDictionary.isAvailable`). Only
   Sources/Assistant/Answer/TitleDictionary.swift uses this module. These
   four functions are hunspell.h's (hunspell 1.3 to 1.7), called through the
   wrappers below, which answer as a missing dictionary does without the library. */

typedef struct ca_hunhandle ca_hunhandle;

/* The library's handle, opened once (NULL when it cannot be loaded). */
static inline void *ca_hunspell_library(void) {
    static void *library;
    static int tried;
    void *found = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (found || __atomic_load_n(&tried, __ATOMIC_ACQUIRE)) return found;
    /* dlopen counts its references: a second thread opening it too is harmless. */
    found = dlopen("libhunspell-1.7.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!found) found = dlopen("libhunspell-1.6.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!found) found = dlopen("libhunspell.dylib", RTLD_NOW | RTLD_LOCAL);
    if (found) __atomic_store_n(&library, found, __ATOMIC_RELEASE);
    __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
    return found;
}

/* Whether Hunspell could be loaded. */
static inline int ca_hunspell_is_loaded(void) { return ca_hunspell_library() != NULL; }

/* Hunspell_create(affpath, dpath): the dictionary, or NULL (no library, no such files). */
static inline ca_hunhandle *ca_hunspell_create(const char *aff, const char *dic) {
    void *library = ca_hunspell_library();
    ca_hunhandle *(*f)(const char *, const char *) = library ? (ca_hunhandle *(*)(const char *, const char *))dlsym(library, "Hunspell_create") : NULL;
    return f ? f(aff, dic) : NULL;
}

/* Hunspell_destroy(handle). */
static inline void ca_hunspell_destroy(ca_hunhandle *handle) {
    void *library = ca_hunspell_library();
    void (*f)(ca_hunhandle *) = library ? (void (*)(ca_hunhandle *))dlsym(library, "Hunspell_destroy") : NULL;
    if (f && handle) f(handle);
}

/* Hunspell_spell(handle, word): nonzero when `word` (in the dictionary's encoding) is a word of it. */
static inline int ca_hunspell_spell(ca_hunhandle *handle, const char *word) {
    void *library = ca_hunspell_library();
    int (*f)(ca_hunhandle *, const char *) = library ? (int (*)(ca_hunhandle *, const char *))dlsym(library, "Hunspell_spell") : NULL;
    return f && handle ? f(handle, word) : 0;
}

/* Hunspell_get_dic_encoding(handle): the dictionary's encoding ("UTF-8", "ISO8859-1"…), or NULL. */
static inline const char *ca_hunspell_encoding(ca_hunhandle *handle) {
    void *library = ca_hunspell_library();
    char *(*f)(ca_hunhandle *) = library ? (char *(*)(ca_hunhandle *))dlsym(library, "Hunspell_get_dic_encoding") : NULL;
    return f && handle ? f(handle) : NULL;
}
