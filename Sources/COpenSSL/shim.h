// OpenSSL's libcrypto, for HMAC-SHA256 (signed viewer cookies) and a constant-time
// comparison. OpenSSL is already the server's TLS library (Debian's libssl-dev), so
// signing (and hashing uploads) needs no second crypto library. Only these headers: Swift imports the
// functions directly.
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
