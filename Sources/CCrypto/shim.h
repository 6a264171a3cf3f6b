#ifndef GROVE_CCRYPTO_SHIM_H
#define GROVE_CCRYPTO_SHIM_H

/// OpenSSL's libcrypto (Debian's libssl-dev): the EVP digest interface, for SHA-256, and the
/// EVP MAC interface with its parameters, for the state's keyed SipHash digests.
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#endif
