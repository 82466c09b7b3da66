import Foundation
import Testing
import TestSupport
import GhostCore
import GhostServer
import GameKit

/// The English list solved once, to judge the computer's letters and the hints.
private let englishSolver = Solver(rules: GhostRules(words: WordLists.en))

/// Games against the computer on a real ghostd (`--bot-delay 0`) over TCP, every line checked.
@Suite("EndToEnd: the computer", .ownThread, .hangLimit)
struct EndToEndComputerTests {
    /// The person plays the alphabetically first letter that does not lose at once
    /// (a: a lost start on en, whose winning first letters are j and z); Hard, in a
    /// won position after every one of them, must play winning letters and win.
    @Test("a whole game against bot=hard, to OVER")
    func wholeGameAgainstHard() throws {
        try E2E.withDaemon(extraArguments: ["--bot-delay", "0"]) { daemon in
            let me = try E2E.player(daemon, "solo")
            let c = me.client
            try c.send("NEW bot=hard")
            try c.expect("OK NEW bot=hard lang=en")
            let header = try c.expectPrefix("GAME id=")
            let f = lineFields(header)
            let id = try #require(f["id"].flatMap { Int($0) })
            let token = f["token"] ?? ""
            #expect(header == "GAME id=\(id) game=ghost lang=en players=\(me.name),bot-hard token=\(token) round=1 bot=hard" && isToken(token),
                    "\(header)")
            try c.expect("TURN id=\(id) player=\(me.name) fragment=")

            var game = PlainGhost(rules: englishSolver.rules)   // seat 0: the person, seat 1: the computer
            var letters = 0
            while !game.isOver {
                // The person's letter.
                let mine = WordLists.safeLetters(after: game.fragment, in: WordLists.en).first ?? "a"
                try c.send(String(mine))
                try game.play(Letter(String(mine))!, by: 0)
                letters += 1
                try c.expect(lines: ["OK LETTER letter=\(mine) fragment=\(game.fragment)",
                                     "MOVE id=\(id) player=\(me.name) letter=\(mine) fragment=\(game.fragment)"])
                if game.isOver { break }
                try c.expect("TURN id=\(id) player=bot-hard fragment=\(game.fragment)")
                // The computer's letter, at once: a winning one.
                let line = try c.expectPrefix("MOVE id=\(id) player=bot-hard letter=")
                let theirs = try #require(lineFields(line)["letter"].flatMap { Letter($0) }, "\(line)")
                let before = game
                #expect(englishSolver.isWinning(game.fragment), "Hard to move at \"\(game.fragment)\" should be winning")
                #expect(englishSolver.winningLetters(before.fragment).contains(theirs),
                        "Hard played \(theirs) at \"\(before.fragment)\"; winning: \(englishSolver.winningLetters(before.fragment))")
                try game.play(theirs, by: 1)
                letters += 1
                #expect(line == "MOVE id=\(id) player=bot-hard letter=\(theirs) fragment=\(game.fragment)")
                if !game.isOver { try c.expect("TURN id=\(id) player=\(me.name) fragment=\(game.fragment)") }
            }
            // The OVER agrees with the rules applied to the letters played.
            let outcome = try #require(game.outcome)
            #expect(outcome.loser == 0, "the person should lose, at \"\(game.fragment)\"")
            let (winner, loser) = outcome.loser == 0 ? ("bot-hard", me.name) : (me.name, "bot-hard")
            try c.expect(lines: ["OVER id=\(id) winner=\(winner) loser=\(loser) reason=\(outcome.reason.rawValue) fragment=\(game.fragment)"
                                    + game.endFields.map { " \($0)" }.joined(),
                                 "INFO " + game.explanation(loserName: loser),
                                 "RANK name=\(me.name) rank=1 wins=\(outcome.loser == 0 ? 0 : 1)"])
            #expect(letters >= 3)
            try c.expectNothing(within: 0.2)
            // Counted on the hard board only.
            try c.send("SCORES bot=hard")
            try c.expect(lines: ["SCORE rank=1 name=\(me.name) wins=\(outcome.loser == 0 ? 0 : 1) played=1",
                                 "OK SCORES count=1 board=hard"])
            try c.send("SCORES")
            try c.expect("OK SCORES count=0 board=game")
            // The game is over: the token no longer resumes it; it tells how it ended.
            try c.send("RESUME \(token)")
            try c.expectPrefix("OK RESUME id=")
            #expect(try c.expectPrefix("OVER id=").contains(" ended="))
        }
    }

    /// A match against Easy, the person playing every hinted letter. The person starts the
    /// odd rounds from a won position and wins them; the computer starts the even ones.
    /// The computer spells GHOST by round 9 at the latest, so the person wins the match.
    @Test("a G-H-O-S-T match against bot=easy, played with HINT, to MATCH")
    func matchAgainstEasyWithHints() throws {
        try E2E.withDaemon(extraArguments: ["--bot-delay", "0"]) { daemon in
            let me = try E2E.player(daemon, "hinted")
            let c = me.client
            try c.send("NEW bot=easy rounds=ghost")
            try c.expect("OK NEW bot=easy lang=en rounds=ghost")
            let header = try c.expectPrefix("GAME id=")
            let id = try #require(lineFields(header)["id"].flatMap { Int($0) })
            let token = lineFields(header)["token"] ?? ""
            func gameLine(_ round: Int, _ ghost: String) -> String {
                "GAME id=\(id) game=ghost lang=en players=\(me.name),bot-easy token=\(token) round=\(round) bot=easy rounds=ghost ghost=\(ghost)"
            }
            #expect(header == gameLine(1, ",") && isToken(token), "\(header)")
            try c.expect("TURN id=\(id) player=\(me.name) fragment= ghost=,")

            var counts = [0, 0]          // letters of GHOST: the person, the computer
            var ghost: String { ServerLineGhost.letters(counts) }
            var round = 1
            var rounds: [String] = []    // each round's OVER, for the failure message
            matchLoop: while true {
                let starter = (round - 1) % 2        // seat 0 (the person) starts odd rounds
                var game = PlainGhost(rules: englishSolver.rules, firstToMove: starter)
                if starter == 1 {
                    // The computer's first letter came with the GAME and TURN lines (checked below).
                    let line = try c.expectPrefix("MOVE id=\(id) player=bot-easy letter=")
                    let theirs = try #require(lineFields(line)["letter"].flatMap { Letter($0) })
                    try game.play(theirs, by: 1)
                    #expect(line == "MOVE id=\(id) player=bot-easy letter=\(theirs) fragment=\(game.fragment)")
                    if !game.isOver { try c.expect("TURN id=\(id) player=\(me.name) fragment=\(game.fragment) ghost=\(ghost)") }
                }
                while !game.isOver {
                    // Ask for a hint and play it.
                    try c.send("HINT")
                    let ok = try c.expectPrefix("OK HINT winning=")
                    let hf = lineFields(ok)
                    let hint = try #require(hf["letter"].flatMap { Letter($0) }, "\(ok)")
                    let winning = englishSolver.isWinning(game.fragment)
                    #expect(ok == "OK HINT winning=\(winning ? "yes" : "no") letter=\(hint)", "at \"\(game.fragment)\"")
                    if winning {
                        #expect(englishSolver.winningLetters(game.fragment).contains(hint), "hint \(hint) at \"\(game.fragment)\"")
                        try c.expect("INFO You can force a win from here: try \(hint).")
                    } else {
                        try c.expect("INFO With perfect play you lose from here; \(hint) gives your opponent the most chances to go wrong.")
                    }
                    if starter == 0 { #expect(winning, "the person started round \(round) from a won position") }
                    try c.send(hint.description)
                    try game.play(hint, by: 0)
                    try c.expect(lines: ["OK LETTER letter=\(hint) fragment=\(game.fragment)",
                                         "MOVE id=\(id) player=\(me.name) letter=\(hint) fragment=\(game.fragment)"])
                    if game.isOver { break }
                    try c.expect("TURN id=\(id) player=bot-easy fragment=\(game.fragment) ghost=\(ghost)")
                    let line = try c.expectPrefix("MOVE id=\(id) player=bot-easy letter=")
                    let theirs = try #require(lineFields(line)["letter"].flatMap { Letter($0) })
                    try game.play(theirs, by: 1)
                    #expect(line == "MOVE id=\(id) player=bot-easy letter=\(theirs) fragment=\(game.fragment)")
                    if !game.isOver { try c.expect("TURN id=\(id) player=\(me.name) fragment=\(game.fragment) ghost=\(ghost)") }
                }
                let outcome = try #require(game.outcome)
                let lost = try #require(outcome.loser)
                if starter == 0 { #expect(outcome.loser == 1, "round \(round): the person lost a won round at \"\(game.fragment)\"") }
                let before = counts
                counts[lost] += 1
                #expect(counts[0] + counts[1] == round)
                #expect(counts[lost] == before[lost] + 1)
                let names = [me.name, "bot-easy"]
                let (winner, loser) = (names[1 - lost], names[lost])
                let over = "OVER id=\(id) winner=\(winner) loser=\(loser) reason=\(outcome.reason.rawValue) fragment=\(game.fragment) ghost=\(ghost)"
                    + game.endFields.map { " \($0)" }.joined()
                rounds.append(over)
                try c.expect(over)
                let why = "INFO " + game.explanation(loserName: loser)
                if counts[lost] == 5 {
                    try c.expect(lines: [why, "MATCH id=\(id) winner=\(winner) loser=\(loser) ghost=\(ghost)",
                                         "INFO \(loser) spelled GHOST: \(winner) wins the match.",
                                         "RANK name=\(me.name) rank=1 wins=\(winner == me.name ? 1 : 0)"])
                    break matchLoop
                }
                try c.expect(why + " \(loser) earns the letter \(Array("GHOST")[counts[lost] - 1]).")
                round += 1
                try c.expect(gameLine(round, ghost))
                try c.expect("TURN id=\(id) player=\(names[(round - 1) % 2]) fragment= ghost=\(ghost)")
                #expect(round <= 9, "\(rounds)")
            }
            #expect(counts[1] == 5, "the computer should spell GHOST: \(rounds)")
            #expect(counts[0] <= 4)
            #expect(rounds.count == round && rounds.count >= 5 && rounds.count <= 9)
            // ghost= grew one letter per round, on the loser's side (a dead fragment's word= follows it).
            #expect(rounds.last.map { lineFields($0)["ghost"] } == ServerLineGhost.letters([counts[0], 5]))
            try c.expectNothing(within: 0.2)
            try c.send("SCORES bot=easy mode=match")
            try c.expect(lines: ["SCORE rank=1 name=\(me.name) wins=1 played=1", "OK SCORES count=1 board=easy-match"])
            try c.send("SCORES bot=easy")
            try c.expect("OK SCORES count=0 board=easy")
        }
    }
}

/// `ghost=` as the protocol spells it: each seat's letters of GHOST, empty for none.
private enum ServerLineGhost {
    static func letters(_ counts: [Int]) -> String {
        counts.map { String("GHOST".prefix($0)) }.joined(separator: ",")
    }
}
