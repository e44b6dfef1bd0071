/* libcurl, declared by us (curl_api.h): building needs no curl headers. */
#include "curl_api.h"

/* curl_easy_setopt and curl_easy_getinfo take their value as a C variadic
   argument, which Swift cannot pass: one typed wrapper per kind of value
   (as FoundationNetworking's CFURLSessionInterface does). Only
   Sources/Assistant/HTTP/HTTPTransport+Curl.swift uses this module. */
static inline CURLcode ca_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ca_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
/* Strings (copied by libcurl), lists, and the user data given to callbacks. */
static inline CURLcode ca_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}
/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
typedef size_t (*ca_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ca_curl_set_data_callback(CURL *easy, CURLoption option, ca_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}
static inline CURLcode ca_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ca_curl_get_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ca_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
