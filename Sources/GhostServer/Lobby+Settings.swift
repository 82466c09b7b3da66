import GhostProtocol

/// The lobby's limits and periods: the event loop sets them from its
/// `ServerConfig` (Net/EventLoop.swift), which ghostd's options fill (Options.swift).
extension Lobby {
    public struct Settings: Sendable {
        /// Seconds an absent player to move has before the opponent may CLAIM.
        public var graceSeconds: Double = 60
        /// The computer waits about this long before it plays (0: at once).
        public var botDelay: Double = 0.6
        /// Whether a game's start, rounds, restarts and end are logged (`--game-log`).
        public var gameLog: GameLog = .all
        /// Names never used before that one address may create per minute on
        /// average, with bursts of `newNameBurst` (0: no limit). Taking a name
        /// that exists is never limited.
        public var newNamesPerMinute: Double = 10
        public var newNameBurst: Double = 20
        /// The seconds per move a game on a clock may have (`clock=`).
        public var clockRange: ClosedRange<Int> = GameOptions.clockRange
        /// The clocks SEEK takes, a few standard ones: each is a seek queue
        /// of its own (as a chess server's pools), and a seeker hears of
        /// every other queue (WAITING), so their number must stay small.
        public var seekClocks: [Int] = GameOptions.seekClocks
        /// Seekers who wait hear that other seek queues changed (WAITING) at
        /// most once in this many seconds, however many seeks come and go.
        public var waitingInterval: Double = 1
        /// Players and watchers hear that the number of watchers of their
        /// game changed (WATCHERS) at most once in this many seconds.
        public var watchersInterval: Double = 1
        /// Watchers get their game's lines in batches, at most one every this
        /// many seconds (a line waits at most this long; 0: each line at
        /// once): a move costs the same however many watch, and the players'
        /// replies never wait behind a thousand watchers' copies.
        public var watchBatchInterval: Double = 0.05
        /// A large audience waits longer: this many seconds per watcher of
        /// the game (1,000 watchers: 0.25 s), at most a second, so that its
        /// batches cost the players the same whatever its size.
        public var watchBatchPerWatcher: Double = 0.000_25
        /// JOINs with a wrong code one network (an IPv4 address, an IPv6
        /// /64) may send per minute on average, with bursts of
        /// `failedJoinBurst` (0: no limit); past it `ERR too-many-joins`.
        public var failedJoinsPerMinute: Double = 10
        public var failedJoinBurst: Double = 10
        /// Every game ends (Lifecycle.swift): seconds a game
        /// without a clock stays in memory once no person is at it (it is
        /// reloaded from the store on RESUME).
        public var unloadAfter: Double = 60
        /// On PostgreSQL: how long the read after a failed write waits for
        /// the server to come back (the loop waits with it) before an
        /// outage begins (`RecoveryDesk`).
        public var storeReconnectWait: Double = 10
        /// Seconds a game may stay untouched (no move, no RESUME) before it is
        /// aborted with no score (0: never).
        public var abandonAfter: Int = 7 * 86_400
        /// Seconds a person has for their first move of a game without a
        /// clock before the game is aborted with no score (0: no limit).
        /// No limit by default here: the daemon's default (60 s) is its
        /// option's (`ServerConfig`), and a lobby built without it (tests,
        /// benches) sends no countdowns in its TURNs (`abort_in=`).
        public var firstMoveTimeout: Double = 0
        /// Seconds a person who is present may take over a move in a game
        /// without a clock before their opponent may CLAIM it (0: no limit;
        /// the daemon's default, 300 s, is its option's, as above).
        public var moveTimeout: Double = 0
        /// Games in progress (adjourned ones included) one name may have, and
        /// one network (an IPv4 address, an IPv6 /64); past it NEW, SEEK,
        /// JOIN and REMATCH get `ERR too-many-games` (0: no limit).
        public var maxGamesPerName = 10
        public var maxGamesPerNetwork = 100
        /// Who the high-score lists are for (ScoringPolicy.swift).
        public var scoresFor: ScoresFor = .all
        /// Failed logins: after k failures for a name, or from a
        /// network, the next try waits min(2^(k-1), `loginBackoffMax`)
        /// seconds after the last; failures are forgotten
        /// `loginFailureMemory` seconds after the last one; each table (names,
        /// networks) keeps at most `maxLoginFailureEntries`.
        public var loginBackoffMax: Double = 300
        /// Passwords hashed or checked per network a minute on average, right
        /// or wrong, with bursts of `hashBurst` (0: no limit): `ERR
        /// too-many-attempts` past it, so that the hashing threads are shared
        /// by network (40 addresses logging in with their own right
        /// passwords kept an owner out 23–58% of the time).
        public var hashesPerMinute: Double = 12
        public var hashBurst: Double = 6
        public var loginFailureMemory: Double = 3600
        public var maxLoginFailureEntries = 10_000
        /// TOP lists a registered name on a board once it has played at
        /// least `topMinGames` rated games there and its RD (as of its last
        /// game) is at most `topMaxDeviation`. 350, the default, is any RD:
        /// a provisional name is listed with its `?` (in a game
        /// between two players where one wins nearly every game, RD stays
        /// above 110 for hundreds of games, so 110 kept a small server's
        /// lists empty; Issue44RatingsTests measures it).
        public var topMinGames = 10
        public var topMaxDeviation = 350.0
        /// Between people (SocialDesk.swift, Invitations.swift, ChatDesk.swift):
        /// the names one registered name may follow and block; the open
        /// invitations one name may receive, and one network send; reports
        /// one name may make a day; and how often a name's followers hear
        /// that it came or went (ONLINE, OFFLINE: at most once in this many seconds).
        public var maxFollows = 400
        public var maxBlocks = 500
        public var maxInvitesPerName = 5
        public var maxInvitesPerNetwork = 10
        public var maxReportsPerDay = 10
        public var presenceInterval: Double = 60
        public init() {}
    }
}
