import Foundation
import Testing
import TestSupport

/// `ghostd copy-store` (issue #48): a real daemon's data folder, left by
/// kill -9 with a game in progress whose letters wait in the move journal,
/// copied into PostgreSQL and back into a new folder, where the game resumes
/// as it was; every table's count and digest the same on the three; a copy
/// over a state, or from a folder a ghostd holds, refused; and a `pg_dump`
/// backup restored into a new database holding the same state.
@Suite("EndToEnd: ghostd copy-store between a data folder and PostgreSQL", .ownThread, sqliteFilesOnly, .hangLimit)
struct EndToEndCopyStoreTests {
    private func ghostd(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runTool(try DaemonProcess.binaryPath(), arguments)
    }

    /// A data folder a daemon left after one game played to its end.
    private func folderWithAFinishedGame() throws -> DataDirectory {
        let folder = try DataDirectory()
        let daemon = try DaemonProcess.start(extraArguments: ["--data", folder.path])
        let ann = try E2E.player(daemon, "ann"), ben = try E2E.player(daemon, "ben")
        var game = try Game.privateGame(host: ann, guest: ben)
        try game.play("pea")
        try game.playLosing("r", reason: "word", info: "\"pear\" is a word longer than 3 letters, so {loser} loses.")
        #expect(daemon.terminate() == .exited(0))
        return folder
    }

    /// `copy-store --check`'s table lines (not its last, which names the place).
    private func tables(_ location: String) throws -> [String] {
        let run = try ghostd(["copy-store", "--check", location])
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").map(String.init).filter { $0.contains(" rows=") }
    }

    @Test("A killed daemon's folder to PostgreSQL and back: the same digests, and the game resumes at its fragment")
    func roundTrip() async throws {
        try await onOwnThread {
            let server = try PostgresServer.shared()
            let url = try server.createDatabase()
            let live = try DataDirectory()
            let daemon = try DaemonProcess.start(extraArguments: ["--data", live.path])
            // Two registered names, one following the other (accounts, follows); two guests play.
            let cat = try E2E.player(daemon, "cat"), dan = try E2E.player(daemon, "dan")
            try cat.send("REGISTER correct horse battery")
            try cat.expect("OK REGISTER name=\(cat.name)")
            try dan.send("REGISTER staple gun battery")
            try dan.expect("OK REGISTER name=\(dan.name)")
            try cat.send("FOLLOW \(dan.name)")
            try cat.expect("OK FOLLOW name=\(dan.name) online=yes")
            let ann = try E2E.player(daemon, "ann"), ben = try E2E.player(daemon, "ben")
            var game = try Game.privateGame(host: ann, guest: ben)
            try game.play("pe")
            // Killed: the letters wait in the move journal, not folded.
            _ = daemon.kill()

            let there = try ghostd(["copy-store", "--from", live.path, "--to", url])
            #expect(there.status == 0, "\(there.output)")
            #expect(there.output.hasSuffix(" rows, checked on both sides\n"), "\(there.output)")
            let back = try DataDirectory()
            try FileManager.default.removeItem(atPath: back.path)   // a new folder: copy-store makes it
            let again = try ghostd(["copy-store", "--from", url, "--to", back.path])
            #expect(again.status == 0, "\(again.output)")

            let original = try tables(live.path)
            #expect(original.count == 16)
            #expect(original.contains { $0.hasPrefix("moves rows=2 ") }, "\(original)")
            #expect(original.contains { $0.hasPrefix("accounts rows=2 ") } && original.contains { $0.hasPrefix("follows rows=1 ") })
            #expect(try tables(url) == original)
            #expect(try tables(back.path) == original)

            // The copy's copy serves the game as it was.
            let restarted = try DaemonProcess.start(extraArguments: ["--data", back.path])
            defer { restarted.kill() }
            try E2E.resumeAtPeAndFinish(restarted, &game)
        }
    }

    @Test("Refused, changing nothing: a target that holds a state, a folder a ghostd holds, the same place twice, a source with no state")
    func refusals() async throws {
        try await onOwnThread {
            let server = try PostgresServer.shared()
            let url = try server.createDatabase()
            let folder = try DataDirectory()
            let daemon = try DaemonProcess.start(extraArguments: ["--data", folder.path])
            let held = try ghostd(["copy-store", "--from", folder.path, "--to", url])
            #expect(held.status == 1)
            #expect(held.output.contains("in use"), "\(held.output)")
            #expect(try PostgresDatabaseProbe.tables(server, url).isEmpty)
            #expect(daemon.terminate() == .exited(0))

            #expect(try ghostd(["copy-store", "--from", folder.path, "--to", url]).status == 0)
            let before = try tables(url)
            let over = try ghostd(["copy-store", "--from", folder.path, "--to", url])
            #expect(over.status == 1)
            #expect(over.output.contains("the target already holds a state"), "\(over.output)")
            #expect(try tables(url) == before)

            let intoFolder = try ghostd(["copy-store", "--from", url, "--to", folder.path])
            #expect(intoFolder.status == 1)
            #expect(intoFolder.output.contains("the target already holds a state"), "\(intoFolder.output)")

            let empty = try server.createDatabase()
            let nothing = try ghostd(["copy-store", "--from", empty, "--to", try DataDirectory().path + "/new"])
            #expect(nothing.status == 1)
            #expect(nothing.output.contains("the source holds no state"), "\(nothing.output)")

            #expect(try ghostd(["copy-store", "--from", url, "--to", url]).output.contains("the same"))
            #expect(try ghostd(["copy-store", "--from", url]).status == 2)
            #expect(try ghostd(["copy-store", "--check", url, "--to", folder.path]).status == 2)
        }
    }

    @Test("A row PostgreSQL refuses (text in an integer column, which SQLite keeps): the copy fails whole, the target holds nothing")
    func failedCopyLeavesNothing() async throws {
        try await onOwnThread {
            guard FileManager.default.isExecutableFile(atPath: EndToEndBackupTests.sqlite3) else {
                print("copy-store: \(EndToEndBackupTests.sqlite3) not found (apt-get install sqlite3); skipped")
                return
            }
            let server = try PostgresServer.shared()
            let url = try server.createDatabase()
            let folder = try folderWithAFinishedGame()
            let broken = try runTool(EndToEndBackupTests.sqlite3, [folder.path + "/ghostd.sqlite3", "UPDATE games SET seed = 'not a number'"])
            #expect(broken.status == 0, "\(broken.output)")
            let copy = try ghostd(["copy-store", "--from", folder.path, "--to", url])
            #expect(copy.status == 1)
            #expect(copy.output.contains("invalid input syntax for type bigint"), "\(copy.output)")
            #expect(try PostgresDatabaseProbe.tables(server, url).isEmpty)   // not even the schema
        }
    }

    @Test("pg_dump, then pg_restore into a new database: the same state, table by table")
    func pgDumpRestores() async throws {
        try await onOwnThread {
            let server = try PostgresServer.shared()
            let url = try server.createDatabase()
            let folder = try folderWithAFinishedGame()
            #expect(try ghostd(["copy-store", "--from", folder.path, "--to", url]).status == 0)

            let dump = server.folder + "/ghostd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).dump"
            try server.tool("pg_dump", ["--format=custom", "--file=\(dump)", "--dbname=\(url)"])
            let restoredURL = try server.createDatabase()
            try server.tool("pg_restore", ["--no-owner", "--dbname=\(restoredURL)", dump])
            #expect(try tables(restoredURL) == tables(url))
            #expect(try tables(restoredURL).contains { $0.hasPrefix("games rows=1 ") })
        }
    }
}

/// What a PostgreSQL database holds, through psql.
enum PostgresDatabaseProbe {
    static func tables(_ server: PostgresServer, _ url: String) throws -> [String] {
        try server.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1", database: url)
            .split(separator: "\n").map(String.init)
    }
}
