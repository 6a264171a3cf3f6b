#ifndef GROVE_CCRYPTO_SHIM_H
#define GROVE_CCRYPTO_SHIM_H

/// OpenSSL's libcrypto (Debian's libssl-dev): the EVP digest interface, for SHA-256.
#include <openssl/evp.h>
#include <openssl/rand.h>

#endif
