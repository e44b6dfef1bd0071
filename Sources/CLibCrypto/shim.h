/* OpenSSL's libcrypto, for SHA-256 on Linux (Apple platforms use CryptoKit).
   Only the EVP digest interface is used. */
#include <openssl/evp.h>
