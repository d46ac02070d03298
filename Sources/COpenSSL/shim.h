// OpenSSL's libcrypto, for HMAC-SHA256 (signed viewer cookies) and a constant-time
// comparison. OpenSSL is already the server's TLS library (Debian's libssl-dev), so
// signing needs no second crypto library. Only two headers: Swift imports the
// functions directly.
#include <openssl/crypto.h>
#include <openssl/hmac.h>
