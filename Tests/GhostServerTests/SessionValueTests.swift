import Testing
import GhostProtocol
@testable import GhostServer

/// A session is a value although most of its fields are shared between
/// copies until one changes (Lobby+Types.swift, copy on write): a command's
/// copy, and the undo of a lost turn's identity, must not see later changes.
@Suite struct SessionValueTests {
    @Test("A copy keeps its fields when the original changes, and the original keeps its own when the copy changes")
    func copiesAreIndependent() {
        var a = Lobby.Session(lang: "en", address: "192.0.2.1")
        a.name = "ann"
        a.loggedIn = "ann"
        a.state = .playing(game: 3, seat: 1)
        let before = a
        a.name = "bob"
        a.lang = "fr"
        a.langChosen = true
        a.loggedIn = nil
        a.awaitingPassword = 7
        a.deferred.append(.tooLong)
        a.state = .idle
        a.watching = 9
        #expect(before.name == "ann" && before.lang == "en" && before.address == "192.0.2.1" && !before.langChosen)
        #expect(before.loggedIn == "ann" && before.awaitingPassword == nil && before.deferred.isEmpty)
        #expect(before.state == .playing(game: 3, seat: 1) && before.watching == nil)
        #expect(a.name == "bob" && a.lang == "fr" && a.langChosen && a.loggedIn == nil && a.awaitingPassword == 7 && a.deferred.count == 1)

        var copy = before
        copy.address = "198.51.100.2"
        copy.name = nil
        #expect(before.address == "192.0.2.1" && before.name == "ann")
        #expect(copy.address == "198.51.100.2" && copy.name == nil && copy.lang == "en")
    }

    @Test("In the lobby's table, a change made through the table is not seen by a copy taken before it")
    func tableChangesAfterACopy() {
        let sessions = Sessions()
        sessions.byID[1] = Lobby.Session(lang: "en")
        sessions.update(1) { $0.name = "ann" }
        let held = sessions[1]
        sessions.update(1) { $0.name = "bob"; $0.lang = "de" }
        sessions.byID[1]?.loggedIn = "bob"
        #expect(held?.name == "ann" && held?.lang == "en" && held?.loggedIn == nil)
        #expect(sessions[1]?.name == "bob" && sessions[1]?.lang == "de" && sessions[1]?.loggedIn == "bob")
    }

    @Test("A session's network is NetworkKey.of its address, from the start and after the address changes; none for none")
    func networkFollowsTheAddress() {
        for address in ["", "192.0.2.1", "2001:db8:1:2:a:b:c:d", "::ffff:198.51.100.7", "::1", "unix", "not an address"] {
            var s = Lobby.Session(lang: "en", address: address)
            #expect(s.network == NetworkKey.of(address), "\(address)")
            let copy = s
            s.address = "2001:db8:9:9::1"
            #expect(s.network == "2001:db8:9:9::/64" && copy.network == NetworkKey.of(address), "\(address)")
        }
        #expect(Lobby.Session(lang: "en").network == "")
    }

    @Test("The table counts the sessions that wait for a password: set and cleared through update, and a session removed while it waits")
    func awaitingPasswordsAreCounted() {
        let sessions = Sessions()
        sessions.byID[1] = Lobby.Session(lang: "en")
        sessions.byID[2] = Lobby.Session(lang: "en")
        #expect(sessions.awaitingPasswords == 0 && !sessions.isAwaitingPassword(1))
        sessions.update(1) { $0.awaitingPassword = 4 }
        sessions.update(1) { $0.awaitingPassword = 5 }   // another ticket: still one session
        sessions.update(1) { $0.name = "ann" }
        #expect(sessions.awaitingPasswords == 1 && sessions.isAwaitingPassword(1) && !sessions.isAwaitingPassword(2))
        sessions.update(2) { $0.awaitingPassword = 6 }
        #expect(sessions.awaitingPasswords == 2 && sessions.isAwaitingPassword(2))
        sessions.update(1) { $0.awaitingPassword = nil }
        #expect(sessions.awaitingPasswords == 1 && !sessions.isAwaitingPassword(1) && sessions.isAwaitingPassword(2))
        sessions.remove(2)
        #expect(sessions.awaitingPasswords == 0 && !sessions.isAwaitingPassword(2) && sessions[2] == nil)
        sessions.remove(1)
        sessions.remove(3)
        #expect(sessions.awaitingPasswords == 0 && sessions.count == 0)
    }
}
