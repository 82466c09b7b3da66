import GhostStore
import Testing
import TestSupport

/// The state a daemon started on data folder `data` keeps: SQLite in the
/// folder, or under `GHOSTD_TEST_STORE=postgresql` its PostgreSQL database
/// (`DaemonProcess.storeURL(forData:)`), opened in the test to fill it
/// before the daemon starts or to look at it after it stopped.
func openTestStore(_ data: String) throws -> Store {
    if let url = try DaemonProcess.storeURL(forData: data) { return try Store(postgres: url, directory: data) }
    return try Store(directory: data)
}

/// For a test of SQLite's own files (the move journal, the WAL, the page
/// limit, the sqlite3 CLI): skipped when the daemons keep their state in
/// PostgreSQL, which has its own tests of the same promises.
let sqliteFilesOnly = Testing.ConditionTrait.enabled(if: !DaemonProcess.onPostgres, "checks SQLite's own files")

/// For a test whose state is built by ghost-bench's fixture, which writes
/// SQLite's file directly: skipped on PostgreSQL (the state could be
/// copied there with `ghostd copy-store`; not done yet).
let sqliteFixtureOnly = Testing.ConditionTrait.enabled(
    if: !DaemonProcess.onPostgres, "builds its state with ghost-bench's SQLite fixture")
