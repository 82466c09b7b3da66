/* PostgreSQL's client library, libpq (Debian: libpq-dev), for the store's
   second backend (issue #48). Its header gives the types and prototypes;
   the functions themselves are found in libpq.so.5 by dlopen at the first
   connection (CLibPQ.c), so a ghostd that keeps its state in SQLite never
   maps libpq and what it pulls in (Kerberos, LDAP, GnuTLS: about 3.3 MB
   resident). */
#ifndef CLIBPQ_H
#define CLIBPQ_H
#include <stddef.h>
#include <postgresql/libpq-fe.h>

/* Loads libpq once (thread-safe). Returns 1 when every function this
   module forwards is there, else 0 with the reason in `error`. No other
   function of this header may be called before it returned 1. */
int ghost_pq_load(char *error, size_t size);

#endif
