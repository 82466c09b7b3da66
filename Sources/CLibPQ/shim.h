/* The system libpq (Debian: libpq-dev), PostgreSQL's client library: the
   store's second backend (issue #48). Debian puts its headers in
   /usr/include/postgresql; libpq-fe.h finds its own ("postgres_ext.h")
   beside itself. */
#include <postgresql/libpq-fe.h>
