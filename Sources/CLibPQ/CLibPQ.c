/* libpq's functions, found at run time (see include/CLibPQ.h). Each one
   ghostd calls is defined here with libpq's own name and prototype and
   forwards to the library's, so the Swift code reads as if linked. */
#include "CLibPQ.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define GHOST_PQ_FUNCTIONS(X) \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    X(void, PQfinish, (PGconn *conn), (conn)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    X(int, PQserverVersion, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
        (conn, stmtName, query, nParams, paramTypes)) \
    X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query)) \
    X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQsendPrepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
        (conn, stmtName, query, nParams, paramTypes)) \
    X(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
        const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
    X(int, PQpipelineSync, (PGconn *conn), (conn)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    X(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(void, PQclear, (PGresult *res), (res))

#define GHOST_PQ_POINTER(ret, name, params, args) static ret (*ghost_##name) params;
GHOST_PQ_FUNCTIONS(GHOST_PQ_POINTER)

#define GHOST_PQ_FORWARD(ret, name, params, args) ret name params { return ghost_##name args; }
GHOST_PQ_FUNCTIONS(GHOST_PQ_FORWARD)

static pthread_once_t ghost_pq_once = PTHREAD_ONCE_INIT;
static int ghost_pq_loaded = 0;
static char ghost_pq_error[256];

static void ghost_pq_open(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(ghost_pq_error, sizeof ghost_pq_error, "cannot load libpq.so.5 (Debian: libpq5): %s", why ? why : "unknown");
        return;
    }
#define GHOST_PQ_FIND(ret, name, params, args) \
    *(void **)(&ghost_##name) = dlsym(library, #name); \
    if (!ghost_##name) { \
        snprintf(ghost_pq_error, sizeof ghost_pq_error, "libpq.so.5 has no %s (PostgreSQL 14 or newer is needed)", #name); \
        return; \
    }
    GHOST_PQ_FUNCTIONS(GHOST_PQ_FIND)
    ghost_pq_loaded = 1;
}

int ghost_pq_load(char *error, size_t size) {
    pthread_once(&ghost_pq_once, ghost_pq_open);
    if (!ghost_pq_loaded && error && size > 0) snprintf(error, size, "%s", ghost_pq_error);
    return ghost_pq_loaded;
}
