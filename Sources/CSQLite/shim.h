#ifndef ACTIONLOG_CSQLITE_SHIM_H
#define ACTIONLOG_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a cast macro that does not import into Swift.
/// Binding with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type actionlog_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_db_config` is variadic; this is the one form ActionLog uses
/// (an int option with an int result pointer).
static inline int actionlog_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif
