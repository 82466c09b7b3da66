import Foundation
import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer

/// Join codes cannot be guessed: 40 bits, and wrong JOINs slow
/// their network down (`ERR too-many-joins`), never anyone else.
@Suite(.ownThread) struct LobbyJoinCodeTests {
    private static let alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

    @Test("A code from its bits, as bytes, is the code the alphabet's Characters spell, five bits each, lowest first")
    func codeFromBits() {
        var rng = SystemRandomNumberGenerator()
        for bits in [0, 1, 31, 32, UInt64.max, 0x12_3456_789A] + (0..<500).map({ _ in rng.next() as UInt64 }) {
            var b = bits, expected = ""
            for _ in 0..<JoinCodes.length {
                expected.append(JoinCodes.alphabet[Int(b & 31)])
                b >>= 5
            }
            #expect(JoinCodes.code(bits) == expected, "\(bits)")
        }
    }

    @Test("A typed code reads byte by byte as the Unicode rule reads it: every ASCII byte, and non-ASCII text as before")
    func normalizedAsTheRule() {
        func rule(_ typed: String) -> String {
            String(typed.uppercased().map { c -> Character in
                switch c {
                case "O": "0"
                case "I", "L": "1"
                default: c
                }
            })
        }
        let every = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        for typed in [every, "", "o1il0abc", "ABCDEFGH", "zz-9_q", "ßoil", "éo", "ǆl", "ﬁo", "a\u{301}o"] {
            #expect(JoinCodes.normalized(typed) == rule(typed), "\(Array(typed.utf8))")
        }
    }

    @Test("A code is 8 characters of Crockford's 32 (40 bits), different each time; O, I and L typed for 0, 1, 1 still join")
    func codeShape() throws {
        #expect(JoinCodes.alphabet.count == 32 && Set(JoinCodes.alphabet).count == 32)
        #expect(JoinCodes.length * 5 >= 40)
        var seen: Set<String> = []
        for _ in 0..<500 {
            let code = JoinCodes.random()
            #expect(code.count == 8 && code.allSatisfy { Self.alphabet.contains($0) }, "\(code)")
            seen.insert(code)
        }
        #expect(seen.count == 500)
        #expect(JoinCodes.normalized("o1il0abc") == "0111" + "0ABC")

        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW")
        let hosted = try #require(h.drain()[1])
        let code = try #require(Message.parse(hosted[0])?["code"])
        #expect(hosted == ["OK NEW code=\(code) lang=en", "INFO Give the code \(code) to your opponent: they send JOIN \(code)."])
        #expect(code.count == 8 && code.allSatisfy { Self.alphabet.contains($0) })
        // Read aloud and typed back: 0 as O, 1 as I or L, in lower case.
        let typed = String(code.lowercased().map { $0 == "0" ? "o" : $0 == "1" ? "l" : $0 })
        h.send(2, "JOIN \(typed)")
        #expect(h.drain()[2]?.first == "OK JOIN code=\(code) lang=en")
    }

    @Test("The network failed JOINs count under: an IPv4 address, an IPv6 /64, a mapped IPv4 address as itself")
    func networks() {
        #expect(NetworkKey.of("192.0.2.7") == "192.0.2.7")
        #expect(NetworkKey.of("192.0.2.8") == "192.0.2.8")
        #expect(NetworkKey.of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(NetworkKey.of("2001:0db8:0001:0002::ffff") == "2001:db8:1:2::/64")
        #expect(NetworkKey.of("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(NetworkKey.of("::1") == "::/64")
        #expect(NetworkKey.of("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(NetworkKey.of("") == "")
        #expect(NetworkKey.of("not an address") == "not an address")
    }

    @Test("Wrong JOINs past the burst: ERR too-many-joins, even with the right code; one from another network still joins; time refills")
    func failedJoinsSlowTheNetworkDown() throws {
        var settings = Lobby.Settings()
        settings.failedJoinsPerMinute = 6
        settings.failedJoinBurst = 3
        let h = try Harness(settings: settings)
        h.named(1, "alice")
        h.send(1, "NEW")
        let code = try #require(Message.parse(h.drain()[1]?.first ?? "")?["code"])
        // mallory guesses from 2001:db8:1:2::5; her neighbour in the same /64 too.
        for (conn, address, name) in [(2, "2001:db8:1:2::5", "mallory"), (3, "2001:db8:1:2::6", "trudy"),
                                      (4, "198.51.100.4", "bob")] {
            h.connect(conn, address: address)
            h.send(conn, "NAME \(name)")
        }
        _ = h.drain()
        for _ in 0..<3 {
            h.send(2, "JOIN ZZZZZZZZ")
            #expect(h.drain() == [2: ["ERR no-such-game no open private game has that code"]])
        }
        h.send(2, "JOIN ZZZZZZZZ")
        #expect(h.drain() == [2: ["ERR too-many-joins too many JOINs with a wrong code from your address; try again in 10 s"]])
        // The same /64, the right code: refused all the same.
        h.send(3, "JOIN \(code)")
        #expect(h.drain() == [3: ["ERR too-many-joins too many JOINs with a wrong code from your address; try again in 10 s"]])
        #expect(h.lobby.activeGames == 0)
        // Another network joins at once.
        h.send(4, "JOIN \(code)")
        #expect(h.drain()[4]?.first == "OK JOIN code=\(code) lang=en")
        #expect(h.lobby.activeGames == 1)
        // Ten seconds later mallory has one try again.
        h.clock.advance(10)
        h.send(2, "JOIN ZZZZZZZZ")
        #expect(h.drain() == [2: ["ERR no-such-game no open private game has that code"]])
        h.send(2, "JOIN ZZZZZZZZ")
        #expect(h.drain() == [2: ["ERR too-many-joins too many JOINs with a wrong code from your address; try again in 10 s"]])
    }
}
