// The system OpenSSL (Debian: libssl-dev): TLS for ghostd's --tls-port and
// ghost-client --tls, and CRYPTO_memcmp for constant-time comparison.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/x509v3.h>
