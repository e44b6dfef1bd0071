/* The part of libcurl's C interface that CaptionAssistant uses, declared here
   so that building needs only libcurl's runtime library (libcurl.so.4, Debian's
   libcurl4, present wherever curl is) and not its development package.

   Written from libcurl's documentation (https://curl.se/libcurl/c/: the easy
   and multi interfaces, curl_easy_setopt's option list, curl_easy_getinfo's,
   libcurl-errors), not copied from curl.h. libcurl keeps its ABI stable within
   soname 4: an option's, an info's or an error's number never changes once
   released, and these are those numbers. scripts/check-curl-declarations.sh
   compares every name below with curl.h where curl.h is installed (CI does).
   Names newer than Debian 12's libcurl 7.88 carry the comment "newer"; that
   check skips them, and libcurl 7.88 answers them with an error code.

   Only Sources/CLibCurl/shim.h includes this file. */
#ifndef CAPTION_ASSISTANT_CURL_API_H
#define CAPTION_ASSISTANT_CURL_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Handles: opaque. */
typedef void CURL;
typedef void CURLM;

/* curl_off_t: a signed 64-bit integer (long on LP64 systems, as libcurl's own
   system.h chooses there). */
#if defined(__LP64__)
typedef long curl_off_t;
#else
typedef long long curl_off_t;
#endif

typedef int curl_socket_t;

/* curl_global_init's flags. */
#define CURL_GLOBAL_SSL (1<<0)
#define CURL_GLOBAL_WIN32 (1<<1)
#define CURL_GLOBAL_ALL (CURL_GLOBAL_SSL|CURL_GLOBAL_WIN32)
#define CURL_GLOBAL_NOTHING 0
#define CURL_GLOBAL_DEFAULT CURL_GLOBAL_ALL

/* The size CURLOPT_ERRORBUFFER's buffer must have at least. */
#define CURL_ERROR_SIZE 256

/* The easy interface's result codes (libcurl-errors). */
typedef enum {
    CURLE_OK = 0,
    CURLE_UNSUPPORTED_PROTOCOL = 1,
    CURLE_FAILED_INIT = 2,
    CURLE_URL_MALFORMAT = 3,
    CURLE_NOT_BUILT_IN = 4,
    CURLE_COULDNT_RESOLVE_PROXY = 5,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_WEIRD_SERVER_REPLY = 8,
    CURLE_REMOTE_ACCESS_DENIED = 9,
    CURLE_HTTP2 = 16,
    CURLE_PARTIAL_FILE = 18,
    CURLE_QUOTE_ERROR = 21,
    CURLE_HTTP_RETURNED_ERROR = 22,
    CURLE_WRITE_ERROR = 23,
    CURLE_UPLOAD_FAILED = 25,
    CURLE_READ_ERROR = 26,
    CURLE_OUT_OF_MEMORY = 27,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_RANGE_ERROR = 33,
    CURLE_HTTP_POST_ERROR = 34,
    CURLE_SSL_CONNECT_ERROR = 35,
    CURLE_BAD_DOWNLOAD_RESUME = 36,
    CURLE_FILE_COULDNT_READ_FILE = 37,
    CURLE_FUNCTION_NOT_FOUND = 41,
    CURLE_ABORTED_BY_CALLBACK = 42,
    CURLE_BAD_FUNCTION_ARGUMENT = 43,
    CURLE_INTERFACE_FAILED = 45,
    CURLE_TOO_MANY_REDIRECTS = 47,
    CURLE_UNKNOWN_OPTION = 48,
    CURLE_SETOPT_OPTION_SYNTAX = 49,
    CURLE_GOT_NOTHING = 52,
    CURLE_SSL_ENGINE_NOTFOUND = 53,
    CURLE_SSL_ENGINE_SETFAILED = 54,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_SSL_CERTPROBLEM = 58,
    CURLE_SSL_CIPHER = 59,
    CURLE_PEER_FAILED_VERIFICATION = 60,
    CURLE_BAD_CONTENT_ENCODING = 61,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURLE_USE_SSL_FAILED = 64,
    CURLE_SEND_FAIL_REWIND = 65,
    CURLE_SSL_ENGINE_INITFAILED = 66,
    CURLE_LOGIN_DENIED = 67,
    CURLE_REMOTE_DISK_FULL = 70,
    CURLE_REMOTE_FILE_EXISTS = 73,
    CURLE_SSL_CACERT_BADFILE = 77,
    CURLE_REMOTE_FILE_NOT_FOUND = 78,
    CURLE_SSH = 79,
    CURLE_SSL_SHUTDOWN_FAILED = 80,
    CURLE_AGAIN = 81,
    CURLE_SSL_CRL_BADFILE = 82,
    CURLE_SSL_ISSUER_ERROR = 83,
    CURLE_CHUNK_FAILED = 88,
    CURLE_NO_CONNECTION_AVAILABLE = 89,
    CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CURLE_SSL_INVALIDCERTSTATUS = 91,
    CURLE_HTTP2_STREAM = 92,
    CURLE_RECURSIVE_API_CALL = 93,
    CURLE_AUTH_ERROR = 94,
    CURLE_HTTP3 = 95,
    CURLE_QUIC_CONNECT_ERROR = 96,
    CURLE_PROXY = 97,
    CURLE_SSL_CLIENTCERT = 98,
    CURLE_UNRECOVERABLE_POLL = 99,
    CURLE_TOO_LARGE = 100 /* newer: 8.6.0; 7.88 says CURLE_RECV_ERROR or CURLE_OUT_OF_MEMORY for a header too large */
} CURLcode;

/* The multi interface's result codes. */
typedef enum {
    CURLM_CALL_MULTI_PERFORM = -1,
    CURLM_OK = 0,
    CURLM_BAD_HANDLE = 1,
    CURLM_BAD_EASY_HANDLE = 2,
    CURLM_OUT_OF_MEMORY = 3,
    CURLM_INTERNAL_ERROR = 4,
    CURLM_BAD_SOCKET = 5,
    CURLM_UNKNOWN_OPTION = 6,
    CURLM_ADDED_ALREADY = 7,
    CURLM_RECURSIVE_API_CALL = 8,
    CURLM_WAKEUP_FAILURE = 9,
    CURLM_BAD_FUNCTION_ARGUMENT = 10,
    CURLM_ABORTED_BY_CALLBACK = 11,
    CURLM_UNRECOVERABLE_POLL = 12
} CURLMcode;

/* An option's number is its kind's base plus its own number. */
#define CA_CURLOPT_LONG 0
#define CA_CURLOPT_POINTER 10000
#define CA_CURLOPT_FUNCTION 20000
#define CA_CURLOPT_OFF_T 30000

/* curl_easy_setopt's options. */
typedef enum {
    /* long */
    CURLOPT_TIMEOUT = CA_CURLOPT_LONG + 13,
    CURLOPT_LOW_SPEED_LIMIT = CA_CURLOPT_LONG + 19,
    CURLOPT_LOW_SPEED_TIME = CA_CURLOPT_LONG + 20,
    CURLOPT_VERBOSE = CA_CURLOPT_LONG + 41,
    CURLOPT_HEADER = CA_CURLOPT_LONG + 42,
    CURLOPT_NOPROGRESS = CA_CURLOPT_LONG + 43,
    CURLOPT_NOBODY = CA_CURLOPT_LONG + 44,
    CURLOPT_FAILONERROR = CA_CURLOPT_LONG + 45,
    CURLOPT_UPLOAD = CA_CURLOPT_LONG + 46,
    CURLOPT_POST = CA_CURLOPT_LONG + 47,
    CURLOPT_FOLLOWLOCATION = CA_CURLOPT_LONG + 52,
    CURLOPT_PROXYPORT = CA_CURLOPT_LONG + 59,
    CURLOPT_POSTFIELDSIZE = CA_CURLOPT_LONG + 60,
    CURLOPT_HTTPPROXYTUNNEL = CA_CURLOPT_LONG + 61,
    CURLOPT_SSL_VERIFYPEER = CA_CURLOPT_LONG + 64,
    CURLOPT_MAXREDIRS = CA_CURLOPT_LONG + 68,
    CURLOPT_FRESH_CONNECT = CA_CURLOPT_LONG + 74,
    CURLOPT_FORBID_REUSE = CA_CURLOPT_LONG + 75,
    CURLOPT_CONNECTTIMEOUT = CA_CURLOPT_LONG + 78,
    CURLOPT_HTTPGET = CA_CURLOPT_LONG + 80,
    CURLOPT_SSL_VERIFYHOST = CA_CURLOPT_LONG + 81,
    CURLOPT_HTTP_VERSION = CA_CURLOPT_LONG + 84,
    CURLOPT_NOSIGNAL = CA_CURLOPT_LONG + 99,
    CURLOPT_PROXYTYPE = CA_CURLOPT_LONG + 101,
    CURLOPT_IPRESOLVE = CA_CURLOPT_LONG + 113,
    CURLOPT_MAXFILESIZE = CA_CURLOPT_LONG + 114,
    CURLOPT_TIMEOUT_MS = CA_CURLOPT_LONG + 155,
    CURLOPT_CONNECTTIMEOUT_MS = CA_CURLOPT_LONG + 156,
    CURLOPT_TCP_KEEPALIVE = CA_CURLOPT_LONG + 213,
    CURLOPT_PROXY_SSL_VERIFYPEER = CA_CURLOPT_LONG + 248,
    CURLOPT_PROXY_SSL_VERIFYHOST = CA_CURLOPT_LONG + 249,
    CURLOPT_SUPPRESS_CONNECT_HEADERS = CA_CURLOPT_LONG + 265,
    /* pointers: strings (copied by libcurl), lists, buffers, callback data */
    CURLOPT_WRITEDATA = CA_CURLOPT_POINTER + 1,
    CURLOPT_URL = CA_CURLOPT_POINTER + 2,
    CURLOPT_PROXY = CA_CURLOPT_POINTER + 4,
    CURLOPT_USERPWD = CA_CURLOPT_POINTER + 5,
    CURLOPT_PROXYUSERPWD = CA_CURLOPT_POINTER + 6,
    CURLOPT_READDATA = CA_CURLOPT_POINTER + 9,
    CURLOPT_ERRORBUFFER = CA_CURLOPT_POINTER + 10,
    CURLOPT_POSTFIELDS = CA_CURLOPT_POINTER + 15,
    CURLOPT_USERAGENT = CA_CURLOPT_POINTER + 18,
    CURLOPT_HTTPHEADER = CA_CURLOPT_POINTER + 23,
    CURLOPT_SSLCERT = CA_CURLOPT_POINTER + 25,
    CURLOPT_HEADERDATA = CA_CURLOPT_POINTER + 29,
    CURLOPT_CUSTOMREQUEST = CA_CURLOPT_POINTER + 36,
    CURLOPT_XFERINFODATA = CA_CURLOPT_POINTER + 57,
    CURLOPT_INTERFACE = CA_CURLOPT_POINTER + 62,
    CURLOPT_CAINFO = CA_CURLOPT_POINTER + 65,
    CURLOPT_SSLKEY = CA_CURLOPT_POINTER + 87,
    CURLOPT_DEBUGDATA = CA_CURLOPT_POINTER + 95,
    CURLOPT_CAPATH = CA_CURLOPT_POINTER + 97,
    CURLOPT_ACCEPT_ENCODING = CA_CURLOPT_POINTER + 102,
    CURLOPT_COPYPOSTFIELDS = CA_CURLOPT_POINTER + 165,
    CURLOPT_CRLFILE = CA_CURLOPT_POINTER + 169,
    CURLOPT_NOPROXY = CA_CURLOPT_POINTER + 177,
    CURLOPT_RESOLVE = CA_CURLOPT_POINTER + 203,
    CURLOPT_PROXYHEADER = CA_CURLOPT_POINTER + 228,
    CURLOPT_PINNEDPUBLICKEY = CA_CURLOPT_POINTER + 230,
    CURLOPT_UNIX_SOCKET_PATH = CA_CURLOPT_POINTER + 231,
    CURLOPT_PROXY_CAINFO = CA_CURLOPT_POINTER + 246,
    CURLOPT_PROXY_CAPATH = CA_CURLOPT_POINTER + 247,
    CURLOPT_PRE_PROXY = CA_CURLOPT_POINTER + 262,
    CURLOPT_PROTOCOLS_STR = CA_CURLOPT_POINTER + 318,
    CURLOPT_REDIR_PROTOCOLS_STR = CA_CURLOPT_POINTER + 319,
    /* functions */
    CURLOPT_WRITEFUNCTION = CA_CURLOPT_FUNCTION + 11,
    CURLOPT_READFUNCTION = CA_CURLOPT_FUNCTION + 12,
    CURLOPT_HEADERFUNCTION = CA_CURLOPT_FUNCTION + 79,
    CURLOPT_DEBUGFUNCTION = CA_CURLOPT_FUNCTION + 94,
    CURLOPT_XFERINFOFUNCTION = CA_CURLOPT_FUNCTION + 219,
    /* curl_off_t */
    CURLOPT_INFILESIZE_LARGE = CA_CURLOPT_OFF_T + 115,
    CURLOPT_MAXFILESIZE_LARGE = CA_CURLOPT_OFF_T + 117,
    CURLOPT_POSTFIELDSIZE_LARGE = CA_CURLOPT_OFF_T + 120,
    CURLOPT_MAX_SEND_SPEED_LARGE = CA_CURLOPT_OFF_T + 145,
    CURLOPT_MAX_RECV_SPEED_LARGE = CA_CURLOPT_OFF_T + 146
} CURLoption;

/* CURLOPT_PROXYTYPE's values. */
typedef enum {
    CURLPROXY_HTTP = 0,
    CURLPROXY_HTTP_1_0 = 1,
    CURLPROXY_HTTPS = 2,
    CURLPROXY_SOCKS4 = 4,
    CURLPROXY_SOCKS5 = 5,
    CURLPROXY_SOCKS4A = 6,
    CURLPROXY_SOCKS5_HOSTNAME = 7
} curl_proxytype;

/* An info's number is its kind's base plus its own number. */
#define CURLINFO_STRING 0x100000
#define CURLINFO_LONG 0x200000
#define CURLINFO_DOUBLE 0x300000
#define CURLINFO_SLIST 0x400000
#define CURLINFO_PTR 0x400000
#define CURLINFO_SOCKET 0x500000
#define CURLINFO_OFF_T 0x600000
#define CURLINFO_MASK 0x0fffff
#define CURLINFO_TYPEMASK 0xf00000

/* curl_easy_getinfo's infos. */
typedef enum {
    CURLINFO_NONE = 0,
    /* char * (owned by the handle) */
    CURLINFO_EFFECTIVE_URL = CURLINFO_STRING + 1,
    CURLINFO_CONTENT_TYPE = CURLINFO_STRING + 18,
    CURLINFO_REDIRECT_URL = CURLINFO_STRING + 31,
    CURLINFO_PRIMARY_IP = CURLINFO_STRING + 32,
    CURLINFO_LOCAL_IP = CURLINFO_STRING + 41,
    CURLINFO_SCHEME = CURLINFO_STRING + 49,
    CURLINFO_EFFECTIVE_METHOD = CURLINFO_STRING + 58,
    /* long */
    CURLINFO_RESPONSE_CODE = CURLINFO_LONG + 2,
    CURLINFO_HEADER_SIZE = CURLINFO_LONG + 11,
    CURLINFO_REQUEST_SIZE = CURLINFO_LONG + 12,
    CURLINFO_SSL_VERIFYRESULT = CURLINFO_LONG + 13,
    CURLINFO_HTTP_CONNECTCODE = CURLINFO_LONG + 22,
    CURLINFO_OS_ERRNO = CURLINFO_LONG + 25,
    CURLINFO_NUM_CONNECTS = CURLINFO_LONG + 26,
    CURLINFO_PRIMARY_PORT = CURLINFO_LONG + 40,
    CURLINFO_LOCAL_PORT = CURLINFO_LONG + 42,
    CURLINFO_HTTP_VERSION = CURLINFO_LONG + 46,
    CURLINFO_PROXY_SSL_VERIFYRESULT = CURLINFO_LONG + 47,
    CURLINFO_PROXY_ERROR = CURLINFO_LONG + 59,
    CURLINFO_USED_PROXY = CURLINFO_LONG + 66, /* newer: 8.7.0 */
    /* curl_off_t */
    CURLINFO_SIZE_UPLOAD_T = CURLINFO_OFF_T + 7,
    CURLINFO_SIZE_DOWNLOAD_T = CURLINFO_OFF_T + 8,
    CURLINFO_SPEED_DOWNLOAD_T = CURLINFO_OFF_T + 9,
    CURLINFO_CONTENT_LENGTH_DOWNLOAD_T = CURLINFO_OFF_T + 15,
    CURLINFO_CONTENT_LENGTH_UPLOAD_T = CURLINFO_OFF_T + 16,
    CURLINFO_TOTAL_TIME_T = CURLINFO_OFF_T + 50,
    CURLINFO_NAMELOOKUP_TIME_T = CURLINFO_OFF_T + 51,
    CURLINFO_CONNECT_TIME_T = CURLINFO_OFF_T + 52,
    CURLINFO_PRETRANSFER_TIME_T = CURLINFO_OFF_T + 53,
    CURLINFO_STARTTRANSFER_TIME_T = CURLINFO_OFF_T + 54,
    CURLINFO_REDIRECT_TIME_T = CURLINFO_OFF_T + 55,
    CURLINFO_APPCONNECT_TIME_T = CURLINFO_OFF_T + 56
} CURLINFO;

/* A list of strings (CURLOPT_HTTPHEADER and others). */
struct curl_slist {
    char *data;
    struct curl_slist *next;
};

/* What curl_multi_info_read returns. */
typedef enum {
    CURLMSG_NONE = 0,
    CURLMSG_DONE = 1
} CURLMSG;

typedef struct CURLMsg {
    CURLMSG msg;
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

/* An extra descriptor for curl_multi_poll to wait on. */
struct curl_waitfd {
    curl_socket_t fd;
    short events;
    short revents;
};

/* Global. */
CURLcode curl_global_init(long flags);
void curl_global_cleanup(void);
char *curl_version(void);

/* The easy interface. */
CURL *curl_easy_init(void);
CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...);
CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...);
void curl_easy_cleanup(CURL *curl);
const char *curl_easy_strerror(CURLcode code);

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string);
void curl_slist_free_all(struct curl_slist *list);

/* The multi interface. */
CURLM *curl_multi_init(void);
CURLMcode curl_multi_add_handle(CURLM *multi_handle, CURL *curl_handle);
CURLMcode curl_multi_remove_handle(CURLM *multi_handle, CURL *curl_handle);
CURLMcode curl_multi_perform(CURLM *multi_handle, int *running_handles);
CURLMcode curl_multi_poll(CURLM *multi_handle, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
                          int timeout_ms, int *ret);
CURLMcode curl_multi_wakeup(CURLM *multi_handle);
CURLMsg *curl_multi_info_read(CURLM *multi_handle, int *msgs_in_queue);
CURLMcode curl_multi_cleanup(CURLM *multi_handle);
const char *curl_multi_strerror(CURLMcode code);

#ifdef __cplusplus
}
#endif

#endif
