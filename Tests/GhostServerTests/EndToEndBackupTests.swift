import Foundation
import Testing
import TestSupport

/// The backup procedure of docs/operating.md ("Backups"): the move journal
/// copied, then SQLite's online backup (`sqlite3 ghostd.sqlite3 ".backup FILE"`) taken while ghostd runs and a
/// game is in progress, restored into a fresh data folder, where the game
/// resumes as it was when the backup was taken.
@Suite("EndToEnd: a backup taken mid-game, restored", .ownThread, .hangLimit)
struct EndToEndBackupTests {
    static let sqlite3 = "/usr/bin/sqlite3"

    @Test("sqlite3 .backup while ghostd runs mid-game; restored into a fresh --data, both players RESUME at the backed-up fragment and finish", sqliteFilesOnly)
    func backupAndRestore() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.sqlite3) else {
            print("backup: \(Self.sqlite3) not found (apt-get install sqlite3); skipped")
            return
        }
        let live = try DataDirectory()
        let daemon = try DaemonProcess.start(extraArguments: ["--data", live.path])
        defer { daemon.kill() }
        let ann = try E2E.player(daemon, "ann"), ben = try E2E.player(daemon, "ben")
        var game = try Game.privateGame(host: ann, guest: ben)
        try game.play("pe")

        // The online backup, with ghostd running and the game in progress.
        let saved = try DataDirectory()
        let backup = saved.path + "/backup.sqlite3"
        // The move journal first (the letters since the game's start wait there), then the database.
        try FileManager.default.copyItem(atPath: live.path + "/ghostd.sqlite3-moves", toPath: backup + "-moves")
        let run = try runTool(Self.sqlite3, [live.path + "/ghostd.sqlite3", ".backup '\(backup)'"])
        #expect(run.status == 0 && run.output.isEmpty, "\(run.output)")

        // Play goes on after the backup: that letter is not in it.
        try game.play("a")
        #expect(daemon.terminate() == .exited(0))

        // Restore: the backup becomes ghostd.sqlite3 of a fresh data folder.
        let restored = try DataDirectory()
        try FileManager.default.copyItem(atPath: backup, toPath: restored.path + "/ghostd.sqlite3")
        try FileManager.default.copyItem(atPath: backup + "-moves", toPath: restored.path + "/ghostd.sqlite3-moves")
        let again = try DaemonProcess.start(extraArguments: ["--data", restored.path])
        defer { again.kill() }
        #expect(again.waitForStderrLine { $0.hasSuffix("restored 0 adjourned game(s) on a clock; the others load on RESUME") } != nil, "\(again.stderrText)")
        game.fragment = "pe"
        game.toMove = 0
        try E2E.resumeAtPeAndFinish(again, &game)
    }
}
