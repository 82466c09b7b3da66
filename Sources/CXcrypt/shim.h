// The system libxcrypt (Debian: libcrypt-dev): yescrypt password hashes, as
// Debian uses for /etc/shadow.
#include <crypt.h>
