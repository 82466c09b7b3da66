import Foundation
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

/// For a test whose state ghost-bench's fixture built in data folder
/// `data` (it writes SQLite's file directly): under
/// `GHOSTD_TEST_STORE=postgresql`, `ghostd copy-store` moves that state
/// into the PostgreSQL database the folder's daemons keep theirs in, and
/// the SQLite file goes, so that only PostgreSQL holds it. Nothing on SQLite.
func moveFixtureToTestStore(_ data: String) throws {
    guard let url = try DaemonProcess.storeURL(forData: data) else { return }
    let copy = try runTool(try DaemonProcess.binaryPath(), ["copy-store", "--from", data, "--to", url])
    guard copy.status == 0 else { throw FixtureCopyFailed(output: copy.output) }
    for suffix in ["", "-wal", "-shm", "-moves"] {
        try? FileManager.default.removeItem(atPath: data + "/" + Store.fileName + suffix)
    }
}

struct FixtureCopyFailed: Error, CustomStringConvertible {
    let output: String
    var description: String { "ghostd copy-store failed: \(output)" }
}
