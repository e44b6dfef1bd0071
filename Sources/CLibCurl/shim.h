/* libcurl, declared by us (curl_api.h): building needs no curl headers. */
#include "curl_api.h"
#include <dlfcn.h>

/* libcurl is opened when first used (dlopen of libcurl.so.4), not linked:
   a run without an HTTP model never loads it, nor the thirty libraries it
   pulls in (TLS, Kerberos, LDAP, SSH…, about 4.7 MiB of every process's
   memory, and their loading time). Every function of curl_api.h that
   CaptionAssistant calls is called through one of the wrappers below, which
   look the function up by its name and type (so a wrapper's call has the
   declared signature); without libcurl they answer as libcurl does when it
   fails (an error code, NULL). curl_api.h's declarations themselves are never
   called, so nothing links against libcurl. Only
   Sources/Assistant/HTTP/HTTPTransport+Curl.swift uses this module. */

/* libcurl's handle, opened once (NULL when it cannot be loaded). */
static inline void *ca_curl_library(void) {
    static void *library;
    static int tried;
    void *found = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (found || __atomic_load_n(&tried, __ATOMIC_ACQUIRE)) return found;
    /* dlopen counts its references: a second thread opening it too is harmless. */
    found = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (found) __atomic_store_n(&library, found, __ATOMIC_RELEASE);
    __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
    return found;
}

/* Whether libcurl could be loaded. */
static inline int ca_curl_is_loaded(void) { return ca_curl_library() != NULL; }

/* The libcurl function `name`, with the type curl_api.h declares it with; NULL without libcurl. */
#define CA_CURL(name) ((__typeof__(&name))(ca_curl_library() ? dlsym(ca_curl_library(), #name) : NULL))

static inline CURLcode ca_curl_global_init(long flags) {
    __typeof__(&curl_global_init) f = CA_CURL(curl_global_init);
    return f ? f(flags) : CURLE_FAILED_INIT;
}
static inline CURL *ca_curl_easy_init(void) {
    __typeof__(&curl_easy_init) f = CA_CURL(curl_easy_init);
    return f ? f() : NULL;
}
static inline void ca_curl_easy_cleanup(CURL *easy) {
    __typeof__(&curl_easy_cleanup) f = CA_CURL(curl_easy_cleanup);
    if (f) f(easy);
}
static inline const char *ca_curl_easy_strerror(CURLcode code) {
    __typeof__(&curl_easy_strerror) f = CA_CURL(curl_easy_strerror);
    return f ? f(code) : "libcurl (libcurl.so.4) could not be loaded";
}
static inline struct curl_slist *ca_curl_slist_append(struct curl_slist *list, const char *string) {
    __typeof__(&curl_slist_append) f = CA_CURL(curl_slist_append);
    return f ? f(list, string) : NULL;
}
static inline void ca_curl_slist_free_all(struct curl_slist *list) {
    __typeof__(&curl_slist_free_all) f = CA_CURL(curl_slist_free_all);
    if (f) f(list);
}
static inline CURLM *ca_curl_multi_init(void) {
    __typeof__(&curl_multi_init) f = CA_CURL(curl_multi_init);
    return f ? f() : NULL;
}
static inline CURLMcode ca_curl_multi_add_handle(CURLM *multi, CURL *easy) {
    __typeof__(&curl_multi_add_handle) f = CA_CURL(curl_multi_add_handle);
    return f ? f(multi, easy) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ca_curl_multi_remove_handle(CURLM *multi, CURL *easy) {
    __typeof__(&curl_multi_remove_handle) f = CA_CURL(curl_multi_remove_handle);
    return f ? f(multi, easy) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ca_curl_multi_perform(CURLM *multi, int *running) {
    __typeof__(&curl_multi_perform) f = CA_CURL(curl_multi_perform);
    return f ? f(multi, running) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ca_curl_multi_poll(CURLM *multi, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
                                           int timeout_ms, int *ret) {
    __typeof__(&curl_multi_poll) f = CA_CURL(curl_multi_poll);
    return f ? f(multi, extra_fds, extra_nfds, timeout_ms, ret) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ca_curl_multi_wakeup(CURLM *multi) {
    __typeof__(&curl_multi_wakeup) f = CA_CURL(curl_multi_wakeup);
    return f ? f(multi) : CURLM_INTERNAL_ERROR;
}
static inline CURLMsg *ca_curl_multi_info_read(CURLM *multi, int *left) {
    __typeof__(&curl_multi_info_read) f = CA_CURL(curl_multi_info_read);
    return f ? f(multi, left) : NULL;
}
static inline CURLMcode ca_curl_multi_cleanup(CURLM *multi) {
    __typeof__(&curl_multi_cleanup) f = CA_CURL(curl_multi_cleanup);
    return f ? f(multi) : CURLM_INTERNAL_ERROR;
}
static inline const char *ca_curl_multi_strerror(CURLMcode code) {
    __typeof__(&curl_multi_strerror) f = CA_CURL(curl_multi_strerror);
    return f ? f(code) : "libcurl (libcurl.so.4) could not be loaded";
}

/* curl_easy_setopt and curl_easy_getinfo take their value as a C variadic
   argument, which Swift cannot pass: one typed wrapper per kind of value
   (as FoundationNetworking's CFURLSessionInterface does). */
static inline CURLcode ca_curl_set_long(CURL *easy, CURLoption option, long value) {
    __typeof__(&curl_easy_setopt) f = CA_CURL(curl_easy_setopt);
    return f ? f(easy, option, value) : CURLE_FAILED_INIT;
}
static inline CURLcode ca_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    __typeof__(&curl_easy_setopt) f = CA_CURL(curl_easy_setopt);
    return f ? f(easy, option, value) : CURLE_FAILED_INIT;
}
/* Strings (copied by libcurl), lists, and the user data given to callbacks. */
static inline CURLcode ca_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    __typeof__(&curl_easy_setopt) f = CA_CURL(curl_easy_setopt);
    return f ? f(easy, option, value) : CURLE_FAILED_INIT;
}
/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
typedef size_t (*ca_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ca_curl_set_data_callback(CURL *easy, CURLoption option, ca_curl_data_callback callback) {
    __typeof__(&curl_easy_setopt) f = CA_CURL(curl_easy_setopt);
    return f ? f(easy, option, callback) : CURLE_FAILED_INIT;
}
static inline CURLcode ca_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    __typeof__(&curl_easy_getinfo) f = CA_CURL(curl_easy_getinfo);
    return f ? f(easy, info, value) : CURLE_FAILED_INIT;
}
static inline CURLcode ca_curl_get_string(CURL *easy, CURLINFO info, char **value) {
    __typeof__(&curl_easy_getinfo) f = CA_CURL(curl_easy_getinfo);
    return f ? f(easy, info, value) : CURLE_FAILED_INIT;
}
static inline CURLcode ca_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    __typeof__(&curl_easy_getinfo) f = CA_CURL(curl_easy_getinfo);
    return f ? f(easy, info, value) : CURLE_FAILED_INIT;
}
