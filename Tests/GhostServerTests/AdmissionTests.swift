import Testing
@testable import GhostServer

/// Who may connect, apart from the loop (Net/Admission.swift): the counts by
/// network as connections open, identify and close, each limit's refusal in
/// its order, and which network makes room at the cap of unnamed connections.
@Suite("Admission: the limits a new connection meets")
struct AdmissionTests {
    private static func admission(maxClients: Int = 100, perNetwork: Int = 0, unnamed: Int = 0, unnamedPerNetwork: Int = 0,
                                  connectsPerSecond: Double = 0, burst: Double = 1) -> Admission {
        Admission(maxClients: maxClients, maxPerNetwork: perNetwork, maxUnnamed: unnamed, maxUnnamedPerNetwork: unnamedPerNetwork,
                  connectsPerSecond: connectsPerSecond, connectBurst: burst)
    }

    @Test("Counts follow connections opened, identified and closed, and drop to nothing")
    func counts() {
        let a = Self.admission()
        a.opened("10.0.0.0/24")
        a.opened("10.0.0.0/24")
        a.opened("192.0.2.0/24")
        #expect(a.perNetwork == ["10.0.0.0/24": 2, "192.0.2.0/24": 1] && a.unnamed == 3)
        a.identified("10.0.0.0/24")
        #expect(a.unnamedPerNetwork == ["10.0.0.0/24": 1, "192.0.2.0/24": 1] && a.unnamed == 2)
        a.closed("10.0.0.0/24", identified: true)
        a.closed("10.0.0.0/24", identified: false)
        a.closed("192.0.2.0/24", identified: false)
        #expect(a.perNetwork.isEmpty && a.unnamedPerNetwork.isEmpty && a.unnamed == 0)
    }

    @Test("Each limit refuses with its own text, in order: clients, per network, unnamed (after trying to make room), unnamed per network, connects a second")
    func refusals() {
        let never = { false }
        #expect(Self.admission(maxClients: 2).refusal(network: "n", clients: 2, at: 0, makeRoom: never)
                == "the server has its maximum of 2 clients; try again later")
        var a = Self.admission(perNetwork: 1)
        a.opened("n")
        #expect(a.refusal(network: "n", clients: 1, at: 0, makeRoom: never) == "too many connections from n (at most 1)")
        #expect(a.refusal(network: "m", clients: 1, at: 0, makeRoom: never) == nil)
        a = Self.admission(unnamed: 1)
        a.opened("n")
        var asked = 0
        #expect(a.refusal(network: "m", clients: 1, at: 0, makeRoom: { asked += 1; return false })
                == "too many connections without NAME or RESUME (at most 1); try again later")
        #expect(asked == 1)
        // Room made (another connection closed meanwhile): let in.
        #expect(a.refusal(network: "m", clients: 1, at: 0, makeRoom: { a.closed("n", identified: false); return true }) == nil)
        a = Self.admission(unnamedPerNetwork: 1)
        a.opened("n")
        #expect(a.refusal(network: "n", clients: 1, at: 0, makeRoom: never)
                == "too many connections from n without NAME or RESUME (at most 1)")
        a = Self.admission(connectsPerSecond: 0.5, burst: 1)
        #expect(a.refusal(network: "n", clients: 0, at: 0, makeRoom: never) == nil)
        #expect(a.refusal(network: "n", clients: 0, at: 0.1, makeRoom: never)
                == "too many new connections from n (at most 0.5 a second); try again later")
        #expect(a.refusal(network: "m", clients: 0, at: 0.1, makeRoom: never) == nil)
    }

    @Test("At the cap, the network with the most unnamed connections makes room, if it holds more than the newcomer's would")
    func networkToMakeRoom() {
        let a = Self.admission(unnamed: 4)
        for _ in 0..<3 { a.opened("flood") }
        a.opened("quiet")
        #expect(a.networkToMakeRoom(for: "new") == "flood")
        #expect(a.networkToMakeRoom(for: "quiet") == "flood")
        #expect(a.networkToMakeRoom(for: "flood") == nil)
        #expect(!a.roomForUnnamed)
        a.identified("flood")
        #expect(a.roomForUnnamed)
    }
}
