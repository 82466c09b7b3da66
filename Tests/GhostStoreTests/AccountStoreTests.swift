import Testing
@testable import GhostStore

@Suite struct AccountStoreTests {
    @Test("An account is created once, found in any case, its hash replaced, listed by pages, deleted; all kept across a reopen")
    func accountsLifeCycle() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            defer { store.close() }
            #expect(try store.account("Champ") == nil)
            #expect(try store.createAccount("Champ", hash: "$y$first", now: 100))
            #expect(try !store.createAccount("CHAMP", hash: "$y$other", now: 101))
            #expect(try store.account("champ") == Store.Account(name: "Champ", hash: "$y$first", created: 100, changed: 100))
            #expect(try store.isKnownName("champ"))
            #expect(try store.setPasswordHash("CHAMP", hash: "$y$second", now: 200))
            #expect(try !store.setPasswordHash("nobody", hash: "$y$x", now: 200))
            #expect(try store.createAccount("ann", hash: "$y$a", now: 300))
            #expect(try store.createAccount("bob", hash: "$y$b", now: 300))
            try store.commit()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.account("champ")?.hash == "$y$second")
        #expect(try store.account("champ")?.changed == 200)
        #expect(try store.accounts(limit: 2).map(\.name) == ["ann", "bob"])
        #expect(try store.accounts(after: "bob", limit: 2).map(\.name) == ["Champ"])
        #expect(try store.registered(among: ["ANN", "carol", "Champ"]) == ["ANN", "Champ"])
        #expect(try store.deleteAccount("Ann"))
        #expect(try !store.deleteAccount("ann"))
        #expect(try !store.isRegistered("ann"))
        #expect(try store.isKnownName("ann"))   // the name and its records stay
    }

    @Test("A rolled-back registration leaves no account")
    func rollback() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        #expect(try store.createAccount("eve", hash: "$y$e", now: 1))
        store.rollback()
        #expect(try store.account("eve") == nil)
    }
}
