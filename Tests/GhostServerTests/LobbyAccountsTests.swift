import Testing
import TestSupport
import GhostAuth
import GhostProtocol
import GhostStore
@testable import GhostServer

/// Registered names and guests, through the lobby: exact lines
/// for every path. The lobby's default checker hashes (real yescrypt) when
/// the harness drains, as the loop answers when the hashing pool wakes it.
@Suite(.ownThread) struct LobbyAccountsTests {
    static let pw = "correct horse battery"

    /// `id` named `name` and registered with `password`; its lines dropped.
    func register(_ h: Harness, _ id: ConnectionID, _ name: String, _ password: String = pw) {
        h.named(id, name)
        h.send(id, "REGISTER \(password)")
        #expect(h.drain()[id] == ["OK REGISTER name=\(name)"])
    }

    /// champ registered on 1, which goes; 2 connects (nameless), its lines dropped.
    func champGone(_ h: Harness) {
        register(h, 1, "champ")
        h.disconnect(1)
        h.connect(2)
        _ = h.drain()
    }

    @Test("REGISTER claims the name in use: OK REGISTER after the commit; the account holds a yescrypt hash, not the password")
    func registers() throws {
        let h = try Harness()
        h.named(1, "champ")
        h.send(1, "REGISTER  spaces at both ends ")
        #expect(h.drain() == [1: ["OK REGISTER name=champ"]])
        let account = try #require(try h.store.account("champ"))
        #expect(account.hash.hasPrefix("$y$"))
        #expect(GhostAuthCheck.verify(" spaces at both ends ", account.hash))
        #expect(!GhostAuthCheck.verify("spaces at both ends", account.hash))
        // Registered already (any case), by this connection or another.
        h.send(1, "REGISTER another password")
        #expect(h.drain() == [1: ["ERR name-registered champ is registered already"]])
        #expect(h.logged.lines.contains("name champ registered from ?"))
    }

    @Test("REGISTER before NAME: ERR no-name; a short password: ERR bad-password-form; nothing stored")
    func registerRefusals() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "REGISTER \(Self.pw)")
        h.send(1, "REGISTER short")
        #expect(h.drain() == [1: ["ERR no-name send NAME <name> first: REGISTER registers the name you use",
                                  "ERR bad-password-form password: 8 to 200 characters"]])
        #expect(try h.store.accounts(limit: 10).isEmpty)
    }

    @Test("A registered name: NAME alone is password-required, a wrong password bad-password, the right one logs in (registered=yes)")
    func login() throws {
        let h = try Harness()
        champGone(h)
        h.send(2, "NAME champ")
        h.send(2, "NAME CHAMP")
        #expect(h.drain() == [2: ["ERR password-required champ is registered: NAME champ <password>",
                                  "ERR password-required CHAMP is registered: NAME CHAMP <password>"]])
        h.send(2, "NAME champ not the password")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"]])
        h.clock.advance(1)
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [2: ["OK NAME name=champ lang=en registered=yes"]])
        // Logged in, the connection may play, and NAME it again without the password.
        h.send(2, "NAME champ")
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.prefix(2) == ["OK NAME name=champ lang=en registered=yes", "OK SEEK lang=en"])
        #expect(h.logged.lines.contains("login failed for champ from ?"))
        // STATS counts them: one registration, one login, one wrong password.
        h.send(2, "STATS")
        let stats = h.drain()[2] ?? []
        for line in ["STAT name=registrations value=1", "STAT name=logins value=1",
                     "STAT name=logins_failed value=1", "STAT name=passwords_changed value=0", "STAT name=hashes_refused value=0",
                     "STAT name=passwords_pending value=0"] {
            #expect(stats.contains(line), "\(line) in \(stats)")
        }
    }

    @Test("A password for a guest's name: ERR not-registered, and nothing is stored (not even the name)")
    func passwordOnAGuestName() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "NAME guest some password")
        #expect(h.drain() == [1: ["ERR not-registered guest is not registered; a guest's name takes no password"]])
        #expect(try !h.store.isKnownName("guest"))
        #expect(!h.lobby.isIdentified(1))
    }

    @Test("PASSWORD changes the password: the new one logs in, the old one is bad-password; not logged in: not-registered")
    func changePassword() throws {
        let h = try Harness()
        h.named(3, "guest")
        h.send(3, "PASSWORD \(Self.pw)")
        #expect(h.drain() == [3: ["ERR not-registered log in to a registered name first: NAME <name> <password>"]])
        register(h, 1, "champ")
        h.send(1, "PASSWORD brand new password")
        #expect(h.drain() == [1: ["OK PASSWORD"]])
        h.disconnect(1)
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"]])
        h.clock.advance(1)
        h.send(2, "NAME champ brand new password")
        #expect(h.drain() == [2: ["OK NAME name=champ lang=en registered=yes"]])
        h.send(2, "PASSWORD third password")
        #expect(h.drain() == [2: ["OK PASSWORD"]])
        #expect(h.logged.lines.contains("password changed for champ"))
    }

    @Test("After k failures the next try waits 2^(k-1) s (too-many-attempts, not checked); success clears the name's count")
    func backoffPerName() throws {
        let h = try Harness()
        champGone(h)
        h.send(2, "NAME champ wrong guess 1")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"]])
        h.send(2, "NAME champ wrong guess 2")
        #expect(h.drain() == [2: ["ERR too-many-attempts try again in 1 s"]])
        h.clock.advance(1)
        h.send(2, "NAME champ wrong guess 2")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"]])
        // Two failures: 2 s; even the right password is not checked before then.
        h.clock.advance(1)
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [2: ["ERR too-many-attempts try again in 1 s"]])
        h.clock.advance(1)
        h.send(2, "NAME champ wrong guess 3")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"]])
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [2: ["ERR too-many-attempts try again in 4 s"]])
        h.clock.advance(4)
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [2: ["OK NAME name=champ lang=en registered=yes"]])
        // Cleared: a failure now waits 1 s again.
        h.disconnect(2)
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME champ wrong guess 4")
        h.send(3, "NAME champ wrong guess 5")
        #expect(h.drain() == [3: ["ERR bad-password wrong password", "ERR too-many-attempts try again in 1 s"]])
    }

    @Test("The backoff counts per network too: failures on one name slow a guess at another from the same network, not from another")
    func backoffPerNetwork() throws {
        let h = try Harness()
        register(h, 1, "champ")
        register(h, 2, "queen")
        h.connect(3, address: "192.0.2.7")
        h.connect(4, address: "192.0.2.7")
        h.connect(5, address: "198.51.100.1")
        _ = h.drain()
        h.send(3, "NAME champ wrong guess 1")
        #expect(h.drain() == [3: ["ERR bad-password wrong password"]])
        h.send(4, "NAME queen wrong guess 1")
        h.send(5, "NAME queen wrong guess 1")
        #expect(h.drain() == [4: ["ERR too-many-attempts try again in 1 s"], 5: ["ERR bad-password wrong password"]])
        #expect(h.logged.lines.contains("login failed for champ from 192.0.2.7"))
    }

    @Test("Two logins of one name at once: the second waits for the first's answer (too-many-attempts), so parallel guesses are slowed too")
    func oneLoginAtATime() throws {
        let h = try Harness()
        register(h, 1, "champ")
        h.connect(2)
        h.connect(3)
        h.outbox.drain()
        h.send(2, "NAME champ wrong guess 1")
        h.send(3, "NAME champ wrong guess 2")
        #expect(h.drain() == [2: ["ERR bad-password wrong password"], 3: ["ERR too-many-attempts try again in 1 s"]])
    }

    @Test("A network has at most four logins being checked at once: a fifth, at another name, is too-many-attempts")
    func fourLoginsPerNetwork() throws {
        let h = try Harness()
        for i in 1...5 { register(h, i, "name\(i)") }
        for i in 1...5 { h.disconnect(i) }
        for i in 11...15 { h.connect(i, address: "192.0.2.9") }
        h.connect(16, address: "192.0.2.10")
        _ = h.outbox.drain()
        for i in 1...5 { h.send(10 + i, "NAME name\(i) \(Self.pw)") }
        h.send(16, "NAME name5 \(Self.pw)")
        let d = h.drain()
        for i in 1...4 { #expect(d[10 + i] == ["OK NAME name=name\(i) lang=en registered=yes"]) }
        #expect(d[15] == ["ERR too-many-attempts try again in 1 s"])
        #expect(d[16] == ["OK NAME name=name5 lang=en registered=yes"])
    }

    @Test("Hashing is shared by network (issue #43): right passwords cost too; past the burst a network gets too-many-attempts, another is served; STATS counts it")
    func hashesPerNetwork() throws {
        var settings = Lobby.Settings()
        settings.hashesPerMinute = 12
        settings.hashBurst = 3
        let h = try Harness(settings: settings)
        let net = "198.51.100.1", other = "198.51.100.2", pw2 = "another good password"
        h.connect(1, address: net)
        h.send(1, "NAME ann")
        _ = h.drain()
        h.send(1, "REGISTER \(Self.pw)")                 // a hash: 1 of 3
        #expect(h.drain()[1] == ["OK REGISTER name=ann"])
        h.send(1, "PASSWORD \(pw2)")                     // 2
        #expect(h.drain()[1] == ["OK PASSWORD"])
        h.disconnect(1)
        h.connect(2, address: net)
        _ = h.drain()
        h.send(2, "NAME ann \(pw2)")                     // 3: the right password
        #expect(h.drain()[2]?.last == "OK NAME name=ann lang=en registered=yes")
        h.disconnect(2)
        h.connect(3, address: net)
        _ = h.drain()
        h.send(3, "NAME ann \(pw2)")                     // the burst is spent: one more in 60 / 12 = 5 s
        #expect(h.drain()[3]?.last == "ERR too-many-attempts too many passwords from your network; try again in 5 s")
        h.connect(4, address: other)
        _ = h.drain()
        h.send(4, "NAME ann \(pw2)")
        #expect(h.drain()[4]?.last == "OK NAME name=ann lang=en registered=yes")
        h.disconnect(4)
        h.clock.advance(5)
        h.send(3, "NAME ann \(pw2)")
        #expect(h.drain()[3]?.last == "OK NAME name=ann lang=en registered=yes")
        h.send(3, "STATS")
        let stats = h.drain()[3] ?? []
        for line in ["STAT name=logins value=3", "STAT name=passwords_changed value=1", "STAT name=hashes_refused value=1"] {
            #expect(stats.contains(line), "\(line) in \(stats)")
        }
    }

    @Test("The queue of passwords is full: ERR server-busy, nothing done; the queued one is answered")
    func serverBusy() throws {
        let h = try Harness()
        h.lobby.passwordChecker = DeferredPasswordChecker(capacity: 1)
        h.named(1, "ann")
        h.named(2, "bob")
        h.send(1, "REGISTER \(Self.pw)")
        h.send(2, "REGISTER \(Self.pw)")
        #expect(h.drain() == [1: ["OK REGISTER name=ann"], 2: ["ERR server-busy too many passwords being checked; try again"]])
        #expect(try !h.store.isRegistered("bob"))
    }

    @Test("The lines after REGISTER wait for its answer: not served before it, then in order")
    func linesWait() throws {
        let h = try Harness()
        h.named(1, "champ")
        h.named(2, "other")
        h.send(1, "REGISTER \(Self.pw)")
        h.send(1, "PING")
        h.send(1, "NAMES")
        h.send(2, "PING")
        // Before the answer: the other connection is served, this one is not.
        #expect(h.outbox.drain() == [2: ["OK PING"]])
        #expect(h.lobby.isWaitingForPassword(1) && !h.lobby.isWaitingForPassword(2))
        let d = h.drain()
        #expect(d[1]?.first == "OK REGISTER name=champ")
        #expect(d[1]?.dropFirst().first == "OK PING")
        #expect(d[1]?.last?.hasPrefix("OK NAMES") == true)
        #expect(!h.lobby.isWaitingForPassword(1))
    }

    @Test("A connection that goes away while its password is hashed: the answer is dropped, nothing stored")
    func goneWhileHashing() throws {
        let h = try Harness()
        h.named(1, "champ")
        h.send(1, "REGISTER \(Self.pw)")
        h.disconnect(1)
        #expect(h.drain().isEmpty)
        #expect(try !h.store.isRegistered("champ"))
        // The name is free for anyone, as a guest's.
        h.named(2, "champ")
        #expect(h.lobby.isIdentified(2))
    }

    @Test("The owner's password takes the name from another connection that is not in a game (INFO); one in a game keeps it")
    func ownerTakesTheName() throws {
        let h = try Harness()
        register(h, 1, "champ")
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [1: ["INFO champ logged in on another connection; send NAME to pick a name."],
                              2: ["OK NAME name=champ lang=en registered=yes"]])
        #expect(!h.lobby.isIdentified(1))
        // Connection 2 plays; 3 logs in with the password: champ is in a game.
        h.named(4, "rival")
        h.send(2, "SEEK")
        h.send(4, "SEEK")
        _ = h.drain()
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME champ \(Self.pw)")
        #expect(h.drain() == [3: ["ERR name-taken champ is playing a game on another connection"]])
    }

    @Test("NAME alone for a registered name in use on another connection asks the password (as when nobody uses it), so the owner's client can take it over; a guest's name in use stays name-taken")
    func passwordAskedWhileInUse() throws {
        let h = try Harness()
        register(h, 1, "champ")
        h.named(3, "guest")
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME champ")
        h.send(2, "NAME Champ")
        h.send(2, "NAME guest")
        #expect(h.drain() == [2: ["ERR password-required champ is registered: NAME champ <password>",
                                  "ERR password-required Champ is registered: NAME Champ <password>",
                                  "ERR name-taken another player is using that name"]])
        #expect(h.lobby.isIdentified(1))
        h.send(2, "NAME champ \(Self.pw)")
        #expect(h.drain() == [1: ["INFO champ logged in on another connection; send NAME to pick a name."],
                              2: ["OK NAME name=champ lang=en registered=yes"]])
        // Logged in, it takes its own name again without the password.
        h.send(2, "NAME champ")
        #expect(h.drain() == [2: ["OK NAME name=champ lang=en registered=yes"]])
    }

    @Test("Spoiling a record (issue #26): a guest cannot take champ's registered name to lose games under it")
    func spoilingARecord() throws {
        let h = try Harness()
        champGone(h)
        h.send(2, "NAME champ")
        h.send(2, "SEEK")
        #expect(h.drain() == [2: ["ERR password-required champ is registered: NAME champ <password>",
                                  "ERR no-name send NAME <name> first"]])
    }

    @Test("Forfeit by blocking resume (issue #26): a guest cannot take the name of a player who is away; RESUME then works")
    func awayPlayersName() throws {
        let h = try Harness()
        let tokens = try h.pairAliceAndBob()
        h.disconnect(1)
        _ = h.drain()
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME alice")
        h.send(3, "NAME Alice")
        #expect(h.drain() == [3: ["ERR name-taken alice has a game waiting for its player, who comes back with RESUME",
                                  "ERR name-taken Alice has a game waiting for its player, who comes back with RESUME"]])
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(tokens.alice)")
        let d = h.drain()
        #expect(d[4]?.first == "OK RESUME id=1")
        #expect(d[2] == ["RETURNED id=1 player=alice"])
        // Present again, the name is simply taken (by alice's own connection).
        h.send(3, "NAME alice")
        #expect(h.drain() == [3: ["ERR name-taken another player is using that name"]])
    }

    @Test("A game not in memory (after a restart) keeps its away player's name from guests too: the store is asked")
    func awayPlayersNameAfterRestart() throws {
        let first = try Harness()
        let tokens = try first.pairAliceAndBob()
        first.disconnect(1)
        first.disconnect(2)
        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME bob")
        #expect(h.drain() == [3: ["ERR name-taken bob has a game waiting for its player, who comes back with RESUME"]])
        h.send(3, "RESUME \(tokens.bob)")
        #expect(h.drain()[3]?.first == "OK RESUME id=1")
    }

    @Test("No log line and no reply holds a password or a hash")
    func nothingSecretIsShown() throws {
        let h = try Harness()
        var all: [String] = []
        func collect() { for (_, lines) in h.drain() { all += lines } }
        h.named(1, "champ")
        h.send(1, "REGISTER secret one two")
        collect()
        h.send(1, "PASSWORD secret three four")
        collect()
        h.connect(2, address: "192.0.2.1")
        h.send(2, "NAME champ secret wrong one")
        collect()
        h.clock.advance(2)
        h.send(2, "NAME champ secret three four")
        h.send(2, "NAME champ secret three four")
        collect()
        let hash = try #require(try h.store.account("champ")).hash
        for line in all + h.logged.lines {
            #expect(!line.contains("secret"), "\(line)")
            #expect(!line.contains("$y$") && !line.contains(hash), "\(line)")
        }
        #expect(all.contains("OK NAME name=champ lang=en registered=yes"))
    }
}

/// PasswordHash.verify, for checking what the store holds.
enum GhostAuthCheck {
    static func verify(_ password: String, _ hash: String) -> Bool { PasswordHash.verify(password, against: hash) }
}
