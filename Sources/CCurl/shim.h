// libcurl for the Linux transport (Sources/CurlTransport). Swift cannot call C's variadic
// functions, so each use of curl_easy_setopt and curl_easy_getinfo has a typed wrapper here.
#ifndef DIGNO_CCURL_SHIM_H
#define DIGNO_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*digno_curl_data_callback)(char *bytes, size_t size, size_t count, void *context);
typedef int (*digno_curl_progress_callback)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                            curl_off_t uploadTotal, curl_off_t uploaded);

static inline CURLcode digno_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode digno_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode digno_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode digno_curl_set_data_callback(CURL *handle, CURLoption option, digno_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode digno_curl_set_progress_callback(CURL *handle, digno_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

#endif
