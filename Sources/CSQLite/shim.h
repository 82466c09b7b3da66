#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call: the int options
   (SQLITE_DBCONFIG_ENABLE_QPSG and the like) through a fixed signature. */
static inline int ghost_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
    int out = 0;
    return sqlite3_db_config(db, op, value, &out);
}

/* sqlite3_config is variadic too: SQLITE_CONFIG_MEMSTATUS, before SQLite
   initializes (it returns SQLITE_MISUSE after). */
static inline int ghost_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
