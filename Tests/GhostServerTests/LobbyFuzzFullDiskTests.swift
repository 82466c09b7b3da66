import Foundation
import Testing

/// The lobby fuzzer on a disk that is full part of the time:
/// besides the store failures of a third of the ordinary
/// episodes (a trigger fails one kind of write or the commit of its turn),
/// every episode here has stretches in which the move journal's appends fail
/// as on a full disk (`MoveJournal.failWrites`: half the bytes written, then
/// ENOSPC; the append is cut back and its turn lost), mostly with one kind of
/// write or commit failing too (`FuzzRun.diskFaults`). Every invariant of the
/// fuzzer holds after every step (LobbyFuzzRun.swift): one final OK or ERR
/// per command, `ERR store-failed` only while the disk is full, every game in
/// memory equal to the one stored, so that what was acknowledged is what is
/// stored; and at the end of each episode a second lobby from the reopened
/// database holds the same games, names and scores, and the journal's file
/// holds no damaged line, not even a torn tail.
///
///   LOBBY_FUZZ_SEED=43000 LOBBY_FUZZ_VERBOSE=1 swift test --filter LobbyFuzzFullDisk
///   LOBBY_FUZZ_SECONDS=300 LOBBY_FUZZ_SEED=50000 swift test --filter LobbyFuzzFullDisk
///
/// SQLite only (`sqliteFilesOnly`): the move journal is SQLite's; on
/// PostgreSQL a turn's moves wait in memory for its commit, whose failures
/// the ordinary episodes' faults make.
@Suite struct LobbyFuzzFullDiskTests {
    @Test(sqliteFilesOnly) func lobbyFuzzFullDisk() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["LOBBY_FUZZ_SECONDS"].flatMap(Double.init)
        let seed = env["LOBBY_FUZZ_SEED"].flatMap { UInt64($0) } ?? 43_000
        do {
            let r = try LobbyFuzz.run(seed: seed, episodeSteps: 300, totalSteps: seconds == nil ? 3_600 : Int.max,
                                      seconds: seconds ?? 120, fullDisk: true)
            print("lobby fuzzer, full disk: seeds \(seed)..<\(seed + UInt64(r.episodes)): \(r.episodes) episodes, \(r.steps) steps, "
                  + "\(r.commands) commands in \(String(format: "%.1f", r.elapsed)) s; \(r.reached["lost turn"] ?? 0) lost turns, "
                  + "\(r.reached["ERR store-failed"] ?? 0) ERR store-failed, \(r.reached["OK LETTER"] ?? 0) OK LETTER")
            if env["LOBBY_FUZZ_VERBOSE"] != nil {
                print(r.reached.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }.joined(separator: "\n"))
            }
            // The full disk was met, and play went on around it.
            #expect((r.reached["lost turn"] ?? 0) > 0 && (r.reached["ERR store-failed"] ?? 0) > 0, "\(r.reached)")
            #expect((r.reached["OK LETTER"] ?? 0) > 0, "\(r.reached)")
        } catch let failure as LobbyFuzz.Failure {
            print(failure)
            Issue.record("\(failure)")
        }
    }
}
