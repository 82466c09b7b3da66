import Foundation
import Testing
import GhostStore
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A damaged move journal is never emptied silently,
/// against the real binary: a folder left by SIGKILL with two games in the
/// journal, the first one folded into the tables already (by the second
/// pair's NAMEs), the second one's start line damaged: ghostd refuses to
/// start with one line naming the file and the line and leaves the file as it
/// is; `ghostd journal check` says so (exit 1); `ghostd journal salvage`
/// takes in every intact line, and ghostd starts with the first game whole.
@Suite("EndToEnd: a damaged move journal", .ownThread, .hangLimit)
struct EndToEndJournalTests {
    /// `ghostd <arguments>` to its end: status, stdout, stderr.
    static func ghostd(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        let output = Pipe(), errors = Pipe()
        process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // A few lines: the pipes hold them whole.
        let status = process.waitForExit()
        return (status,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("Damage before intact lines: refused with one line, file untouched; check exits 1; salvage keeps the intact game; ghostd starts", sqliteFilesOnly)
    func refuseCheckSalvage() throws {
        let daemon = try DaemonProcess.start()
        defer { daemon.kill() }
        var first = try Game.privateGame(host: try E2E.player(daemon, "jr-a"), guest: try E2E.player(daemon, "jr-b"))
        try first.play("pe")
        var second = try Game.privateGame(host: try E2E.player(daemon, "jr-c"), guest: try E2E.player(daemon, "jr-d"))
        try second.play("ca")
        let path = daemon.dataPath + "/" + Store.fileName + "-moves"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        // Its header, then each game's start and its two moves.
        #expect(lines.count == 7 && lines[0].hasPrefix("journal ") && lines[1].hasPrefix("start ") && lines[4].hasPrefix("start "),
                "\(lines)")
        #expect(daemon.kill() == .signaled(SIGKILL))

        // The second game's start (line 5): a byte of its check flipped.
        let ends = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[ends[3] + 1 + 7] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let again = try daemon.relaunch()
            again.kill()
            Issue.record("ghostd started on a journal damaged in its middle")
        } catch let error as DaemonError {
            #expect(error.description.contains("ghostd exited (exit status 1) before listening"), "\(error)")
            #expect(error.description.contains("ghostd: the move journal \(path) cannot be trusted: line 5 is damaged, and 2 intact line(s) follow it; ghostd has not touched it."),
                    "\(error)")
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)

        let check = try Self.ghostd(["journal", "check", "--data", daemon.dataPath])
        #expect(check.status == 1, "\(check)")
        #expect(check.out.contains("intact: 1 game start(s), 4 move(s)\ndamaged: line(s) 5\nghostd refuses to start: line 5 is damaged"), "\(check.out)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)

        let salvage = try Self.ghostd(["journal", "salvage", "--data", daemon.dataPath])
        #expect(salvage.status == 0, "\(salvage)")
        #expect(salvage.out.contains("took in 1 game start(s) and 2 move(s); lost the damaged line(s) 5, and 2 move(s) of games whose start was in one"),
                "\(salvage.out)")
        #expect(try Self.ghostd(["journal", "check", "--data", daemon.dataPath]).status == 0)

        let back = try daemon.relaunch()
        defer { back.kill() }
        // The first game is whole: both resume it and play on.
        first.players[0] = try E2E.resume(back, first, seat: 0, extra: ["ADJOURNED id=\(first.id) player=\(first.players[1].name) grace=60"],
                                          opponentPresent: false)
        first.players[1] = try E2E.resume(back, first, seat: 1)
        try first.play("a")
        // The second game's start was the damaged line: it is gone.
        let late = try LineClient(port: back.port, label: "late")
        try late.send("RESUME \(second.tokens[0])")
        _ = try late.expectError("bad-token")
    }
}
