import Testing
import GhostWire
import GhostProtocol
import HangmanWire
import GameKit

private func F(_ key: String, _ value: String) -> Field { Field(key, value) }

/// Which case a line is. Exhaustive on purpose: a new case does not compile
/// here until it is added, and then `everyCaseHasASample` wants a sample.
private func caseIndex(_ line: ServerLine) -> Int {
    switch line {
    case .hello: 0
    case .ok: 1
    case .error: 2
    case .info: 3
    case .game: 4
    case .turn: 5
    case .move: 6
    case .over: 7
    case .match: 8
    case .adjourned: 9
    case .returned: 10
    case .claimable: 11
    case .offer: 12
    case .accepted: 13
    case .declined: 14
    case .rematch: 15
    case .rank: 16
    case .nameEntry: 17
    case .score: 18
    case .helpEntry: 19
    case .bye: 20
    case .cancelled: 21
    case .bestScore: 22
    case .bestRank: 23
    case .setting: 24
    case .waiting: 25
    case .stat: 26
    case .live: 27
    case .watchers: 28
    case .aborted: 29
    case .played: 30
    case .ply: 31
    case .ratingData: 32
    case .view: 33
    case .drawn: 34
    case .social: 35
    }
}
private let caseCount = 36

/// The same for replies.
private func replyIndex(_ reply: Reply) -> Int {
    switch reply {
    case .name: 0
    case .names: 1
    case .lang: 2
    case .seek: 3
    case .new: 4
    case .join: 5
    case .leave: 6
    case .restart: 7
    case .accept: 8
    case .decline: 9
    case .resume: 10
    case .claim: 11
    case .rematch: 12
    case .scores: 13
    case .hint: 14
    case .help: 15
    case .ping: 16
    case .quit: 17
    case .other: 18
    case .bestGames: 19
    case .set: 20
    case .settings: 21
    case .stats: 22
    case .games: 23
    case .watch: 24
    case .unwatch: 25
    }
}
private let replyCount = 26

@Suite struct ServerLineTests {
    /// Every line the server sends, typed, and its exact text.
    static let cases: [(ServerLine, String)] = [
        (.hello(version: "0.1.0", protocolVersion: 1, languages: ["en", "nl"]),
         "HELLO ghostd/0.1.0 protocol=1 languages=en,nl"),
        (.ok(.ping), "OK PING"),
        (.ok(.stats(count: 31)), "OK STATS count=31"),
        (.stat(name: "uptime_seconds", value: "12"), "STAT name=uptime_seconds value=12"),
        (.stat(name: "version", value: "0.4.0"), "STAT name=version value=0.4.0"),
        (.played(n: 1, round: 2, player: "alice", play: "<p"), "PLAYED n=1 round=2 player=alice play=<p"),
        (.ok(.other(verb: "MOVES", fields: [F("id", "4"), F("count", "2"), F("more", "no"), F("status", "live")])),
         "OK MOVES id=4 count=2 more=no status=live"),
        (.ok(.other(verb: "REVIEW", fields: [F("id", "4"), F("mistake", "3"), F("round", "2")])), "OK REVIEW id=4 mistake=3 round=2"),
        (.played(n: 1, round: 1, player: "ann", play: "hidden"), "PLAYED n=1 round=1 player=ann play=hidden"),
        (.ply(n: 3, round: nil, player: "bob", fields: [F("play", "r"), F("fragment", "pear"), F("outcome", "loss"), F("better", "c")]),
         "PLY n=3 player=bob play=r fragment=pear outcome=loss better=c"),
        (.ply(n: 1, round: 2, player: "bob", fields: [F("play", "e"), F("pattern", "_e__"), F("family", "310"), F("word", "bear")]),
         "PLY n=1 round=2 player=bob play=e pattern=_e__ family=310 word=bear"),
        // VIEW's data lines: fields, then the text after " - ".
        (.view(.row(key: "fragment", shape: .cells, value: "pea", max: nil, seat: nil, label: "Fragment")),
         "ROW key=fragment shape=cells value=pea - Fragment"),
        (.view(.row(key: "left", shape: .count, value: "5", max: 8, seat: nil, label: "Misses left")),
         "ROW key=left shape=count value=5 max=8 - Misses left"),
        (.view(.row(key: "ghost", shape: .cells, value: "GH", max: nil, seat: "bob", label: "Letters of GHOST")),
         "ROW key=ghost shape=cells value=GH seat=bob - Letters of GHOST"),
        (.view(.row(key: "missed", shape: .cells, value: "", max: nil, seat: nil, label: "Missed")),
         "ROW key=missed shape=cells value= - Missed"),
        (.view(.can(verb: "LETTER", takes: .letter, then: "front", help: "add a letter at the front")),
         "CAN verb=LETTER takes=letter then=front - add a letter at the front"),
        (.view(.can(verb: "CHALLENGE", takes: .none, then: nil, help: "challenge: no word starts with it")),
         "CAN verb=CHALLENGE takes=none - challenge: no word starts with it"),
        (.ok(.other(verb: "VIEW", fields: [F("id", "7"), F("game", "ghost"), F("lang", "en"), F("turn", "alice"), F("rows", "1"), F("moves", "1")])),
         "OK VIEW id=7 game=ghost lang=en turn=alice rows=1 moves=1"),
        // Between people (SocialLine.swift).
        (.social(.friend(name: "bob", online: true, playing: 12, seen: nil)), "FRIEND name=bob online=yes playing=12"),
        (.social(.friend(name: "cy", online: false, playing: nil, seen: 1_796_000_000)), "FRIEND name=cy online=no seen=1796000000"),
        (.social(.blocked(name: "dan")), "BLOCKED name=dan"),
        (.social(.online(name: "bob")), "ONLINE name=bob"),
        (.social(.offline(name: "bob")), "OFFLINE name=bob"),
        (.social(.invite(from: "ann", code: "K3J9QX2A", fields: [F("game", "ghost"), F("lang", "en"), F("clock", "30")])),
         "INVITE from=ann code=K3J9QX2A game=ghost lang=en clock=30"),
        (.social(.withdrawn(from: "ann", code: "K3J9QX2A")), "WITHDRAWN from=ann code=K3J9QX2A"),
        (.social(.declined(name: "bob", code: "K3J9QX2A")), "DECLINED name=bob code=K3J9QX2A"),
        (.social(.said(id: 7, player: "ann", watcher: false, text: "good game")), "SAID id=7 player=ann - good game"),
        (.social(.said(id: 7, player: "cy", watcher: true, text: "nice - move")), "SAID id=7 player=cy watcher=yes - nice - move"),
        (.ok(.other(verb: "DECLINE", fields: [F("code", "K3J9QX2A")])), "OK DECLINE code=K3J9QX2A"),
        (.ok(.other(verb: "FOLLOW", fields: [F("name", "bob"), F("online", "yes")])), "OK FOLLOW name=bob online=yes"),
        (.ok(.other(verb: "UNFOLLOW", fields: [F("name", "bob")])), "OK UNFOLLOW name=bob"),
        (.ok(.other(verb: "FOLLOWING", fields: [F("count", "2")])), "OK FOLLOWING count=2"),
        (.ok(.other(verb: "INVITE", fields: [F("code", "K3J9QX2A"), F("name", "bob"), F("game", "ghost"), F("lang", "en")])),
         "OK INVITE code=K3J9QX2A name=bob game=ghost lang=en"),
        (.ok(.other(verb: "SAY", fields: [])), "OK SAY"),
        (.ok(.other(verb: "BLOCK", fields: [F("name", "dan")])), "OK BLOCK name=dan"),
        (.ok(.other(verb: "UNBLOCK", fields: [F("name", "dan")])), "OK UNBLOCK name=dan"),
        (.ok(.other(verb: "BLOCKS", fields: [F("count", "1")])), "OK BLOCKS count=1"),
        (.ok(.other(verb: "REPORT", fields: [F("name", "dan")])), "OK REPORT name=dan"),
        (.ok(.help), "OK HELP"),
        (.ok(.quit), "OK QUIT"),
        (.ok(.registered(name: "ann")), "OK REGISTER name=ann"),
        (.ok(.passwordChanged), "OK PASSWORD"),
        (.ok(.leave), "OK LEAVE"),
        (.ok(.claim), "OK CLAIM"),
        (.ok(.accept), "OK ACCEPT"),
        (.ok(.decline), "OK DECLINE"),
        (.ok(.name(name: "alice", lang: "en")), "OK NAME name=alice lang=en"),
        (.ok(.names(count: 2, more: false)), "OK NAMES count=2 more=no"),
        (.ok(.names(count: 100, more: true)), "OK NAMES count=100 more=yes"),
        (.ok(.set(key: "hangman-mode", value: "fair")), "OK SET key=hangman-mode value=fair"),
        (.ok(.set(key: "lang", value: "nl")), "OK SET key=lang value=nl"),
        (.ok(.settings), "OK SETTINGS"),
        (.ok(.lang(lang: "nl", status: nil)), "OK LANG lang=nl"),
        (.ok(.lang(lang: "nl", status: .done)), "OK LANG lang=nl status=done"),
        (.ok(.lang(lang: "en", status: .offered)), "OK LANG lang=en status=offered"),
        (.ok(.seek(lang: "nl", rounds: .one)), "OK SEEK lang=nl"),
        (.ok(.seek(lang: "en", rounds: .ghost)), "OK SEEK lang=en rounds=ghost"),
        (.ok(.new(code: "ABCDE", bot: nil, lang: "en", rounds: .one)), "OK NEW code=ABCDE lang=en"),
        (.ok(.new(code: "ABCDE", bot: nil, lang: "en", rounds: .ghost)), "OK NEW code=ABCDE lang=en rounds=ghost"),
        (.ok(.new(code: nil, bot: .easy, lang: "nl", rounds: .ghost)), "OK NEW bot=easy lang=nl rounds=ghost"),
        (.ok(.new(code: nil, bot: .hard, lang: "en", rounds: .one)), "OK NEW bot=hard lang=en"),
        (.ok(.join(code: "4EG7R", lang: "en", rounds: .one)), "OK JOIN code=4EG7R lang=en"),
        (.ok(.join(code: "4EG7R", lang: "nl", rounds: .ghost)), "OK JOIN code=4EG7R lang=nl rounds=ghost"),
        // A game on a clock: clock= last.
        (.ok(.seek(lang: "en", rounds: .one, clock: 30)), "OK SEEK lang=en clock=30"),
        (.ok(.seek(lang: "en", rounds: .ghost, clock: 600)), "OK SEEK lang=en rounds=ghost clock=600"),
        (.ok(.new(code: "ABCDE", bot: nil, lang: "en", rounds: .one, clock: 5)), "OK NEW code=ABCDE lang=en clock=5"),
        (.ok(.new(code: nil, bot: .hard, lang: "nl", rounds: .ghost, clock: 3600)), "OK NEW bot=hard lang=nl rounds=ghost clock=3600"),
        (.ok(.join(code: "4EG7R", lang: "en", rounds: .ghost, clock: 45)), "OK JOIN code=4EG7R lang=en rounds=ghost clock=45"),
        (.ok(.other(verb: "LETTER", fields: GhostFields.move(letter: "x", fragment: "pex"))), "OK LETTER letter=x fragment=pex"),
        (.ok(.other(verb: "SOLVE", fields: [Field("word", "peach"), Field("hit", "yes"), Field("pattern", "peach"),
                                            Field("missed", "-"), Field("left", "8")])),
         "OK SOLVE word=peach hit=yes pattern=peach missed=- left=8"),
        (.ok(.other(verb: "WORD", fields: [Field("length", "5"), Field("pattern", "_____"), Field("missed", "-"), Field("left", "8")])),
         "OK WORD length=5 pattern=_____ missed=- left=8"),
        (.ok(.other(verb: "CHALLENGE", fields: [Field("fragment", "cq")])), "OK CHALLENGE fragment=cq"),
        (.ok(.other(verb: "CONCEDE", fields: [Field("fragment", "cq")])), "OK CONCEDE fragment=cq"),
        (.ok(.restart(status: .done)), "OK RESTART status=done"),
        (.ok(.restart(status: .offered)), "OK RESTART status=offered"),
        (.ok(.resume(id: 1)), "OK RESUME id=1"),
        (.ok(.resume(id: 1, over: true)), "OK RESUME id=1 status=over"),
        (.ok(.rematch(status: .asked)), "OK REMATCH status=asked"),
        (.ok(.rematch(status: .started)), "OK REMATCH status=started"),
        (.ok(.scores(count: 2, board: .game)), "OK SCORES count=2 board=game"),
        (.ok(.other(verb: "TOP", fields: [Field("count", "2"), Field("board", "ghost")])), "OK TOP count=2 board=ghost"),
        (.ok(.other(verb: "PROFILE", fields: [Field("name", "alice"), Field("registered", "yes"), Field("ratings", "1")])),
         "OK PROFILE name=alice registered=yes ratings=1"),
        (.ok(.other(verb: "HISTORY", fields: [Field("name", "alice"), Field("count", "2")])), "OK HISTORY name=alice count=2"),
        (.ok(.scores(count: 0, board: Board(mode: .match, bot: .hard))), "OK SCORES count=0 board=hard-match"),
        (.ok(.bestGames(count: 0, board: "hangman-evil")), "OK SCORES count=0 board=hangman-evil"),
        (.ok(.bestGames(count: 2, board: "hangman-phrase")), "OK SCORES count=2 board=hangman-phrase"),
        (.ok(.hint(fields: [F("winning", "yes"), F("letter", "u")])), "OK HINT winning=yes letter=u"),
        (.ok(.other(verb: "GUESS", fields: [F("letter", "e"), F("pattern", "_e__")])), "OK GUESS letter=e pattern=_e__"),
        (.error(.notYourTurn, "it is bob's turn"), "ERR not-your-turn it is bob's turn"),
        (.error(.lineTooLong, "too long"), "ERR line-too-long too long"),
        (.error(.badToken, "no game in progress has that token"), "ERR bad-token no game in progress has that token"),
        (.error(ErrorCode(rawValue: "a-later-code"), "from a later server"), "ERR a-later-code from a later server"),
        (.error(.busy, ""), "ERR busy"),
        (.info("Waiting for another player."), "INFO Waiting for another player."),
        (.info(""), "INFO"),
        (.game(id: 1, kind: .ghost, lang: "en", players: ["alice", "bob"], token: nil, round: 1, bot: nil, fields: []),
         "GAME id=1 game=ghost lang=en players=alice,bob round=1"),
        (.game(id: 7, kind: .ghost, lang: "nl", players: ["bob", "alice"], token: "0123456789abcdef0123456789abcdef", round: 3,
               bot: nil, fields: []),
         "GAME id=7 game=ghost lang=nl players=bob,alice token=0123456789abcdef0123456789abcdef round=3"),
        (.game(id: 1, kind: .ghost, lang: "en", players: ["bot-easy", "alice"], token: "ff", round: 2, bot: .easy,
               fields: GhostFields.game(ghost: [1, 0])),
         "GAME id=1 game=ghost lang=en players=bot-easy,alice token=ff round=2 bot=easy rounds=ghost ghost=G,"),
        (.game(id: 2, kind: GameKind(rawValue: "hangman"), lang: "en", players: ["a", "b"], token: nil, round: 1, bot: nil,
               fields: [F("length", "7")]),
         "GAME id=2 game=hangman lang=en players=a,b round=1 length=7"),
        (.game(id: 4, kind: .ghost, lang: "en", players: ["bob", "alice"], token: "ff", round: 1, bot: nil,
               fields: GhostFields.game(ghost: [0, 0]), record: HeadToHead(mine: 12, theirs: 0)),
         "GAME id=4 game=ghost lang=en players=bob,alice token=ff round=1 rounds=ghost ghost=, record=12-0"),
        (.turn(id: 1, player: "alice", fields: GhostFields.turn(fragment: "", ghost: nil)), "TURN id=1 player=alice fragment="),
        // A game on a clock: the seconds left, after the kind's fields (clock= is never a game field).
        (.turn(id: 1, player: "alice", fields: GhostFields.turn(fragment: "pe", ghost: [1, 0]), clock: 27),
         "TURN id=1 player=alice fragment=pe ghost=G, clock=27"),
        (.turn(id: 2, player: "ann", fields: [F("pattern", "_e__"), F("missed", "a"), F("left", "7")], clock: 0),
         "TURN id=2 player=ann pattern=_e__ missed=a left=7 clock=0"),
        (.game(id: 3, kind: .hangman, lang: "en", players: ["bot-hangman", "ann"], token: "ff", round: 1, bot: nil,
               fields: [F("mode", "fair"), F("length", "4"), F("misses", "8")], clock: 30),
         "GAME id=3 game=hangman lang=en players=bot-hangman,ann token=ff round=1 mode=fair length=4 misses=8 clock=30"),
        (.turn(id: 12, player: "bob", fields: GhostFields.turn(fragment: "pea", ghost: [0, 2])),
         "TURN id=12 player=bob fragment=pea ghost=,GH"),
        (.move(id: 2, player: "bob", fields: GhostFields.move(letter: "e", fragment: "pe")), "MOVE id=2 player=bob letter=e fragment=pe"),
        (.over(id: 3, winner: "a", loser: "b", reason: .word, fields: GhostFields.over(fragment: "pear", ghost: nil)),
         "OVER id=3 winner=a loser=b reason=word fragment=pear"),
        (.over(id: 4, winner: "bob", loser: "alice", reason: .left, fields: GhostFields.over(fragment: "", ghost: nil)),
         "OVER id=4 winner=bob loser=alice reason=left fragment="),
        (.over(id: 5, winner: "bob", loser: "alice", reason: .abandoned, fields: GhostFields.over(fragment: "pe", ghost: [5, 3])),
         "OVER id=5 winner=bob loser=alice reason=abandoned fragment=pe ghost=GHOST,GHO"),
        (.over(id: 6, winner: "bob", loser: "alice", reason: .dead, fields: GhostFields.over(fragment: "qz", ghost: nil)),
         "OVER id=6 winner=bob loser=alice reason=dead fragment=qz"),
        (.over(id: 6, winner: "bob", loser: "alice", reason: OverReason(rawValue: "hanged"), fields: [F("word", "ghost")]),
         "OVER id=6 winner=bob loser=alice reason=hanged word=ghost"),
        (.drawn(id: 7, players: ["alice", "bob"], reason: OverReason(rawValue: "both"), fields: [F("phase", "guessing"), F("words", "wolf,bear")]),
         "OVER id=7 draw=alice,bob reason=both phase=guessing words=wolf,bear"),
        (.match(id: 5, winner: "alice", loser: "bob", fields: GhostFields.match(ghost: [0, 5])),
         "MATCH id=5 winner=alice loser=bob ghost=,GHOST"),
        (.adjourned(id: 1, player: "alice", grace: 60), "ADJOURNED id=1 player=alice grace=60"),
        (.adjourned(id: 2, player: "bob", grace: 0), "ADJOURNED id=2 player=bob grace=0"),
        (.returned(id: 1, player: "alice"), "RETURNED id=1 player=alice"),
        (.claimable(id: 3, player: "bob"), "CLAIMABLE id=3 player=bob"),
        (.offer(id: 1, player: "alice", kind: .restart, lang: nil), "OFFER id=1 player=alice kind=restart"),
        (.offer(id: 1, player: "bob", kind: .lang, lang: "nl"), "OFFER id=1 player=bob kind=lang lang=nl"),
        (.accepted(id: 1, player: "bob", kind: .restart), "ACCEPTED id=1 player=bob kind=restart"),
        (.accepted(id: 2, player: "alice", kind: .lang), "ACCEPTED id=2 player=alice kind=lang"),
        (.declined(id: 1, player: "bob", kind: .restart), "DECLINED id=1 player=bob kind=restart"),
        (.declined(id: 4, player: "alice", kind: .lang), "DECLINED id=4 player=alice kind=lang"),
        (.rematch(id: 1, player: "alice"), "REMATCH id=1 player=alice"),
        (.aborted(id: 3, reason: .noFirstMove), "ABORTED id=3 reason=no-first-move"),
        (.aborted(id: 4, reason: .untouched, ended: 1_700_000_000), "ABORTED id=4 reason=untouched ended=1700000000"),
        (.cancelled(id: 1, player: "alice", kind: .restart), "CANCELLED id=1 player=alice kind=restart"),
        (.cancelled(id: 2, player: "bob", kind: .lang), "CANCELLED id=2 player=bob kind=lang"),
        (.cancelled(id: 3, player: "carol", kind: .rematch), "CANCELLED id=3 player=carol kind=rematch"),
        (.waiting(game: "ghost", lang: "nl", rounds: .one, count: 2, clock: nil), "WAITING game=ghost lang=nl count=2"),
        (.waiting(game: "ghost", lang: "en", rounds: .ghost, count: 1, clock: nil), "WAITING game=ghost lang=en rounds=ghost count=1"),
        (.waiting(game: "hangman", lang: "en", rounds: .one, count: 3, clock: 30), "WAITING game=hangman lang=en count=3 clock=30"),
        (.waiting(game: "ghost", lang: "en", rounds: .one, count: 1, clock: 30, variant: "super"), "WAITING game=ghost lang=en count=1 clock=30 variant=super"),
        (.rank(name: "alice", rank: 1, wins: 3), "RANK name=alice rank=1 wins=3"),
        (.rank(name: "bob", rank: 2, wins: 0), "RANK name=bob rank=2 wins=0"),
        (.nameEntry("Alice"), "NAME name=Alice"),
        (.setting(key: "hangman-mode", value: "fair", defaultValue: "evil"), "SETTING key=hangman-mode value=fair default=evil"),
        (.setting(key: "lang", value: "en", defaultValue: "en"), "SETTING key=lang value=en default=en"),
        (.score(rank: 1, name: "alice", wins: 3, played: 4), "SCORE rank=1 name=alice wins=3 played=4"),
        (.score(rank: 2, name: "bob", wins: 1, played: 4, registered: true), "SCORE rank=2 name=bob wins=1 played=4 registered=yes"),
        (.bestScore(rank: 3, name: "ann", fields: [F("word", "cat"), F("mistakes", "0")], registered: true),
         "SCORE rank=3 name=ann word=cat mistakes=0 registered=yes"),
        (.bestScore(rank: 2, name: "alice", fields: [F("word", "peach"), F("mistakes", "1"), F("misses", "8"), F("mode", "evil"),
                                                     F("lang", "en")]),
         "SCORE rank=2 name=alice word=peach mistakes=1 misses=8 mode=evil lang=en"),
        (.bestScore(rank: 1, name: "bob", fields: [F("word", "piece/of/cake"), F("mistakes", "0")]),
         "SCORE rank=1 name=bob word=piece/of/cake mistakes=0"),
        (.bestRank(board: "hangman-evil", rank: 3, fields: [F("word", "peach"), F("mistakes", "1"), F("misses", "8"),
                                                            F("mode", "evil"), F("lang", "en")]),
         "RANK board=hangman-evil rank=3 word=peach mistakes=1 misses=8 mode=evil lang=en"),
        (.bestRank(board: "x", rank: 10, fields: []), "RANK board=x rank=10"),
        (.helpEntry(usage: "NAME <name>", text: "identify yourself: 1-16 letters, digits, - or _"),
         "HELP NAME <name> - identify yourself: 1-16 letters, digits, - or _"),
        (.helpEntry(usage: "SCORES [n] [mode=game|match]", text: "a high-score list"),
         "HELP SCORES [n] [mode=game|match] - a high-score list"),
        (.bye(.quit, "goodbye"), "BYE quit goodbye"),
        // Watching.
        (.ok(.games(count: 2, more: false)), "OK GAMES count=2 more=no"),
        (.ok(.games(count: 100, more: true)), "OK GAMES count=100 more=yes"),
        (.ok(.watch(id: 12)), "OK WATCH id=12"),
        (.ok(.unwatch(id: 12)), "OK UNWATCH id=12"),
        (.live(id: 12, kind: .ghost, players: ["alice", "bob"], lang: "en", moves: 3, watchers: 0),
         "LIVE id=12 game=ghost players=alice,bob lang=en moves=3 watchers=0"),
        (.live(id: 9, kind: .hangman, players: ["bot-hangman", "ann"], lang: "nl", moves: 0, watchers: 1000,
               fields: [F("mode", "evil"), F("length", "5"), F("misses", "8"), F("clock", "30")]),
         "LIVE id=9 game=hangman players=bot-hangman,ann lang=nl moves=0 watchers=1000 mode=evil length=5 misses=8 clock=30"),
        (.watchers(id: 12, count: 3), "WATCHERS id=12 count=3"),
        (.watchers(id: 12, count: 0), "WATCHERS id=12 count=0"),
        // Ratings: a rated game's GAME and OVER, and the data lines of TOP, PROFILE and HISTORY.
        (.game(id: 5, kind: .ghost, lang: "en", players: ["alice", "bob"], token: nil, round: 1, bot: nil, fields: [],
               record: HeadToHead(mine: 1, theirs: 0), ratings: SeatRatings([ShownRating(1500, provisional: true), ShownRating(1620)])),
         "GAME id=5 game=ghost lang=en players=alice,bob round=1 record=1-0 ratings=1500?,1620"),
        (.game(id: 6, kind: .ghost, lang: "en", players: ["alice", "bot-hard"], token: nil, round: 1, bot: .hard, fields: [],
               ratings: SeatRatings([ShownRating(1662, provisional: true), ShownRating(2200)])),
         "GAME id=6 game=ghost lang=en players=alice,bot-hard round=1 bot=hard ratings=1662?,2200"),
        (.over(id: 5, winner: "alice", loser: "bob", reason: .init(rawValue: "word"), fields: [F("fragment", "pear")],
               ratings: SeatRatings([ShownRating(1512), ShownRating(1608)], changes: [12, -12])),
         "OVER id=5 winner=alice loser=bob reason=word fragment=pear ratings=1512,1608 changes=+12,-12"),
        (.over(id: 6, winner: "bot-hard", loser: "alice", reason: .init(rawValue: "left"), fields: [F("fragment", "q")],
               ratings: SeatRatings([ShownRating(1650, provisional: true), ShownRating(2200)], changes: [-12, 0])),
         "OVER id=6 winner=bot-hard loser=alice reason=left fragment=q ratings=1650?,2200 changes=-12,+0"),
        (.ratingData(.leader(rank: 1, name: "alice", rating: ShownRating(1712), deviation: 64, games: 23, wins: 15, losses: 8)),
         "LEADER rank=1 name=alice rating=1712 rd=64 games=23 wins=15 losses=8"),
        (.ratingData(.rating(board: "ghost-super", rating: ShownRating(1580, provisional: true), deviation: 200, games: 3, wins: 2,
                             losses: 1, best: RatedWin(game: 42, opponent: "bob", rating: 1610))),
         "RATING board=ghost-super rating=1580? rd=200 games=3 wins=2 losses=1 best=42 best_opponent=bob best_rating=1610"),
        (.ratingData(.rating(board: "ghost", rating: ShownRating(1400, provisional: true), deviation: 300, games: 1, wins: 0,
                             losses: 1, best: nil)),
         "RATING board=ghost rating=1400? rd=300 games=1 wins=0 losses=1"),
        (.ratingData(.versus(game: "ghost", record: HeadToHead(mine: 3, theirs: 1))), "VERSUS game=ghost record=3-1"),
        (.ratingData(.result(id: 12, game: "ghost", variant: "super", opponent: "bob", result: "win", reason: "word", change: 12,
                             ended: 1_700_000_000)),
         "RESULT id=12 game=ghost variant=super opponent=bob result=win reason=word change=+12 ended=1700000000"),
        (.ratingData(.result(id: 13, game: "hangman", variant: "evil", opponent: "bot-hangman", result: "aborted", reason: "aborted",
                             change: nil, ended: 1_700_000_100)),
         "RESULT id=13 game=hangman variant=evil opponent=bot-hangman result=aborted reason=aborted ended=1700000100"),
        // The game's language, last.
        (.ratingData(.result(id: 14, game: "ghost", variant: nil, opponent: "bob", result: "loss", reason: "dead", change: -9,
                             ended: 1_700_000_200, lang: "nl")),
         "RESULT id=14 game=ghost opponent=bob result=loss reason=dead change=-9 ended=1700000200 lang=nl"),
        // A watcher's GAME: no token; a player's shows the watchers and a private game.
        (.game(id: 12, kind: .ghost, lang: "en", players: ["alice", "bob"], token: nil, round: 1, bot: nil, fields: [],
               audience: Audience(watchers: 2, watching: true)),
         "GAME id=12 game=ghost lang=en players=alice,bob round=1 watchers=2 watching=yes"),
        (.game(id: 12, kind: .ghost, lang: "en", players: ["alice", "bob"], token: "ff", round: 1, bot: nil, fields: [],
               clock: 30, audience: Audience(watchers: 5)),
         "GAME id=12 game=ghost lang=en players=alice,bob token=ff round=1 clock=30 watchers=5"),
        (.game(id: 13, kind: .ghost, lang: "en", players: ["alice", "bob"], token: "ff", round: 1, bot: nil, fields: [],
               audience: Audience(open: false)),
         "GAME id=13 game=ghost lang=en players=alice,bob token=ff round=1 watch=no"),
        (.bye(.replaced, "your seat in game 1 was resumed from another connection"),
         "BYE replaced your seat in game 1 was resumed from another connection"),
        (.bye(.nameTimeout, ""), "BYE name-timeout"),
    ]

    @Test func everyCaseHasASample() {
        let lines = Set(ServerLineTests.cases.map { caseIndex($0.0) })
        #expect(lines == Set(0..<caseCount))
        let replies = Set(ServerLineTests.cases.compactMap { if case .ok(let r) = $0.0 { replyIndex(r) } else { nil } })
        #expect(replies == Set(0..<replyCount))
        // Every verb's reply, and every bye code.
        let verbs = Set(ServerLineTests.cases.compactMap { if case .ok(let r) = $0.0 { r.verb } else { nil } })
        #expect(verbs == Set(Verb.allCases))
    }

    @Test(arguments: ServerLineTests.cases)
    func rendering(_ line: ServerLine, _ expected: String) {
        #expect(line.rendered == expected)
        var wire: [UInt8] = []
        line.appendWire(to: &wire)
        #expect(wire == Array((expected + "\r\n").utf8))
    }

    @Test(arguments: ServerLineTests.cases)
    func decodeOfRenderIsTheLine(_ line: ServerLine, _ expected: String) {
        #expect(ServerLine(decoding: line.rendered) == line, "\(expected)")
        #expect(ServerLine.decode(expected) == line)
    }

    /// Every BYE code and every error code survives the round trip.
    @Test func everyCodeRoundTrips() {
        for code in ByeCode.allCases {
            let line = ServerLine.bye(code, "text")
            #expect(ServerLine.decode(line.rendered) == line)
        }
        for code in ErrorCode.allCases {
            let line = ServerLine.error(code, "text")
            #expect(ServerLine.decode(line.rendered) == line)
        }
    }

    @Test func unknownLinesDecodeToNil() {
        for text in ["", "   ", "HANGMAN id=1 pattern=_e__", "WHATEVER", "SETTING key=a value=b", "SETTING value=b default=c", "ok ping", "BYE later-code text",
                     "GAME id=x lang=en players=a,b round=1", "TURN player=a fragment=", "TURN id=-1 player=a",
                     "OFFER id=1 player=a kind=swap", "GAME id=1 game=ghost lang=en players=a,b round=1 bot=expert",
                     "HELLO notghostd/1 protocol=2", "RANK name=a rank=1", "ERR", "OK",
                     "TURN id=99999999999999999999999 player=a fragment="] {
            #expect(ServerLine.decode(text) == nil, "\(text)")
        }
    }

    /// SCORE and RANK lines of a best-games list are told apart from a wins
    /// board's by their fields: wins=/played= (SCORE), name=/wins= (RANK).
    @Test func bestGamesLinesAreToldApartFromWinsBoards() {
        #expect(ServerLine.decode("SCORE rank=1 name=a word=cat") == .bestScore(rank: 1, name: "a", fields: [F("word", "cat")]))
        #expect(ServerLine.decode("SCORE rank=1 name=a") == .bestScore(rank: 1, name: "a", fields: []))
        #expect(ServerLine.decode("SCORE rank=1 name=a wins=2 played=3 word=cat") == .score(rank: 1, name: "a", wins: 2, played: 3))
        // registered=yes wherever it comes, is no field of the game; any other value is a guest's.
        #expect(ServerLine.decode("SCORE rank=1 name=a registered=yes word=cat")
                == .bestScore(rank: 1, name: "a", fields: [F("word", "cat")], registered: true))
        #expect(ServerLine.decode("SCORE rank=1 name=a wins=2 played=3 registered=no") == .score(rank: 1, name: "a", wins: 2, played: 3))
        #expect(ServerLine.decode("RANK board=hangman-fair rank=4 word=cat") == .bestRank(board: "hangman-fair", rank: 4, fields: [F("word", "cat")]))
        // A wins board's line with a field missing or wrong is no line, not a best game.
        for text in ["SCORE rank=1 name=a wins=2", "SCORE rank=1 name=a played=2", "SCORE rank=1 name=a wins=x played=1",
                     "SCORE name=a word=cat", "SCORE rank=1 word=cat", "RANK board=x", "RANK board=x rank=y",
                     "RANK board=x rank=1 name=a", "RANK board=x rank=1 wins=2"] {
            #expect(ServerLine.decode(text) == nil, "\(text)")
        }
        // Any board that is not one of Ghost's is a best-games list in OK SCORES.
        #expect(ServerLine.decode("OK SCORES count=3 board=game") == .ok(.scores(count: 3, board: .game)))
        #expect(ServerLine.decode("OK SCORES count=3 board=hangman-duel") == .ok(.bestGames(count: 3, board: "hangman-duel")))
        #expect(Reply.bestGames(count: 1, board: "hangman-evil").verb == .scores)
    }

    /// Clients ignore fields they do not know; on game lines they are the game's.
    @Test func laterFieldsAreIgnoredOrGameFields() {
        #expect(ServerLine.decode("RANK name=a rank=1 wins=2 board=game") == .rank(name: "a", rank: 1, wins: 2))
        #expect(ServerLine.decode("OK SEEK lang=en queue=3") == .ok(.seek(lang: "en", rounds: .one)))
        // A reply's clock= in any place is read; one that is not a number is no clock, as on TURN.
        #expect(ServerLine.decode("OK SEEK clock=30 lang=en") == .ok(.seek(lang: "en", rounds: .one, clock: 30)))
        #expect(ServerLine.decode("OK JOIN code=ABCDE lang=en clock=x") == .ok(.join(code: "ABCDE", lang: "en", rounds: .one)))
        #expect(ServerLine.decode("TURN id=1 player=a fragment=p later=30")
                == .turn(id: 1, player: "a", fields: [F("fragment", "p"), F("later", "30")]))
        // clock= is the lobby's typed field (a game on a clock), never the game's; a bad one is no clock.
        #expect(ServerLine.decode("TURN id=1 player=a fragment=p clock=30")
                == .turn(id: 1, player: "a", fields: [F("fragment", "p")], clock: 30))
        #expect(ServerLine.decode("TURN id=1 player=a clock=-3 fragment=p")
                == .turn(id: 1, player: "a", fields: [F("fragment", "p")]))
        #expect(ServerLine.decode("MOVE id=1 player=a letter=p fragment=p clock=3")
                == .move(id: 1, player: "a", fields: [F("letter", "p"), F("fragment", "p"), F("clock", "3")]))
        // A reply whose fields this version cannot read is still a reply.
        #expect(ServerLine.decode("OK REMATCH status=pending") == .ok(.other(verb: "REMATCH", fields: [F("status", "pending")])))
        #expect(ServerLine.decode("OK NAMES") == .ok(.other(verb: "NAMES", fields: [])))
    }

    /// `record=` is the header's, not the kind's; a value that is not two numbers is left out.
    @Test func gameRecord() {
        #expect(ServerLine.decode("GAME id=1 game=ghost lang=en players=a,b round=1 record=3-1")
                == .game(id: 1, kind: .ghost, lang: "en", players: ["a", "b"], token: nil, round: 1, bot: nil, fields: [],
                         record: HeadToHead(mine: 3, theirs: 1)))
        for bad in ["3", "3-", "-1", "3-1-2", "a-b", "3--1", ""] {
            #expect(ServerLine.decode("GAME id=1 game=ghost lang=en players=a,b round=1 record=\(bad)")
                    == .game(id: 1, kind: .ghost, lang: "en", players: ["a", "b"], token: nil, round: 1, bot: nil, fields: []), "\(bad)")
        }
    }

    /// A protocol-1 GAME line (no game=, `-` for no letters) still reads:
    /// its kind nil, which the client takes as its default kind, Ghost (the
    /// protocol knows no kind; ReducerGuardTests.protocolOne).
    @Test func protocolOneGameLine() {
        #expect(ServerLine.decode("GAME id=1 lang=en players=a,b token=ff round=1 rounds=ghost ghost=-,-")
                == .game(id: 1, kind: nil, lang: "en", players: ["a", "b"], token: "ff", round: 1, bot: nil,
                         fields: [F("rounds", "ghost"), F("ghost", "-,-")]))
    }

    @Test func decodingDropsControlsAndCutsLongValues() {
        #expect(ServerLine.decode("INFO a\u{1B}[31mb\u{9B}c\u{7}") == .info("a[31mbc"))
        #expect(ServerLine.decode("TURN id=1 player=a\u{1B}b fragment=") == .turn(id: 1, player: "ab", fields: [F("fragment", "")]))
        let long = String(repeating: "x", count: 1000)
        guard case .nameEntry(let n)? = ServerLine.decode("NAME name=" + long) else {
            Issue.record("NAME did not decode")
            return
        }
        #expect(n.count == 200)
        guard case .info(let t)? = ServerLine.decode("INFO " + long) else {
            Issue.record("INFO did not decode")
            return
        }
        #expect(t.count == 500)
    }

    /// The lobby's string-built replies become typed ones when they are
    /// exactly a typed reply's fields, and stay as given otherwise.
    @Test func stringBuiltReplies() {
        #expect(ServerLine.ok("PING") == .ok(.ping))
        #expect(ServerLine.ok("NAME", ("name", "alice"), ("lang", "en")) == .ok(.name(name: "alice", lang: "en")))
        #expect(ServerLine.ok(verb: "NEW", fields: [("bot", "easy"), ("lang", "en"), ("rounds", "ghost")])
                == .ok(.new(code: nil, bot: .easy, lang: "en", rounds: .ghost)))
        #expect(ServerLine.ok("LETTER", ("letter", "a"), ("fragment", "pa"))
                == .ok(.other(verb: "LETTER", fields: [F("letter", "a"), F("fragment", "pa")])))
        // Out of order or extra: kept as given.
        let odd = ServerLine.ok("NAME", ("lang", "en"), ("name", "alice"))
        #expect(odd.rendered == "OK NAME lang=en name=alice")
        #expect(odd == .ok(.other(verb: "NAME", fields: [F("lang", "en"), F("name", "alice")])))
        #expect(ServerLine.ok("PING", ("x", "1")).rendered == "OK PING x=1")
    }

    /// Odd values in every field: the line stays one line, values stay one word.
    @Test func hostileValuesStayInTheirField() {
        let odd = ["", "a b", "x\u{1B}[2Jy", "tab\there", "\u{85}c1", "n\u{FC}n", "line\r\nbreak", "\u{7F}", "=", "a,b"]
        for s in odd {
            let lines: [ServerLine] = [
                .ok(.other(verb: s, fields: [F(s, s), F("k", s)])),
                .ok(.name(name: s, lang: s)),
                .turn(id: -5, player: s, fields: [F("fragment", s)]),
                .move(id: Int.min, player: s, fields: GhostFields.move(letter: s, fragment: s)),
                .over(id: 0, winner: s, loser: s, reason: OverReason(rawValue: s), fields: [F(s, s)]),
                .game(id: 99, kind: GameKind(rawValue: s), lang: s, players: [s, s], token: s, round: 12, bot: .hard, fields: [F(s, s)]),
                .info(s), .error(ErrorCode(rawValue: s), s), .bye(.flood, s), .rank(name: s, rank: 1_000_000, wins: -1),
            ]
            for line in lines {
                var wire: [UInt8] = []
                line.appendWire(to: &wire)
                #expect(wire.suffix(2) == [0x0D, 0x0A])
                let body = wire.dropLast(2)
                #expect(!Sanitize.containsControl(utf8: body, allowingTab: false), "\(body)")
                // Decoding never traps, whatever the values.
                _ = ServerLine.decode(String(decoding: body, as: UTF8.self))
            }
        }
    }

    @Test func controlCharactersInFreeTextBecomeSpaces() {
        #expect(ServerLine.info("a\u{1B}[31mb\nc\rd\te\u{0}f\u{7F}g\u{9B}h\u{85}i").rendered
                == "INFO a [31mb c d e f g h i")
        #expect(ServerLine.error(.badName, "bad\r\nname").rendered == "ERR bad-name bad  name")
        // Non-control non-ASCII text is kept.
        #expect(ServerLine.info("caf\u{E9} id\u{E9}e\u{EB}n").rendered == "INFO caf\u{E9} id\u{E9}e\u{EB}n")
    }

    @Test func controlCharactersAndSpacesInValuesBecomeUnderscores() {
        #expect(ServerLine.turn(id: 1, player: "a b\u{7}", fields: [F("fragment", "")]).rendered == "TURN id=1 player=a_b_ fragment=")
        #expect(ServerLine.game(id: 2, kind: .ghost, lang: "e\nn", players: ["x\u{1B}y", "z\u{9B}"], token: nil, round: 1,
                                bot: nil, fields: []).rendered
                == "GAME id=2 game=ghost lang=e_n players=x_y,z_ round=1")
        #expect(ServerLine.nameEntry("a b").rendered == "NAME name=a_b")
        #expect(ServerLine.offer(id: 1, player: "a", kind: .lang, lang: "n\tl").rendered == "OFFER id=1 player=a kind=lang lang=n_l")
        #expect(ServerLine.ok("NAME", ("name", "a\tb\u{7F}")).rendered == "OK NAME name=a_b_")
    }

    /// HELP's data lines are the command table, one per verb.
    @Test func helpLinesAreTheTable() {
        for spec in CommandTable.specs {
            let line = ServerLine.helpEntry(usage: spec.synopsis, text: spec.help)
            #expect(line.rendered.hasPrefix("HELP \(spec.verb.rawValue)"))
            #expect(ServerLine.decode(line.rendered) == line, "\(line.rendered)")
        }
        #expect(ServerLine.decode("HELP without a dash") == nil)
    }

    /// An empty value is the empty string everywhere: `fragment=`, `ghost=,G`.
    @Test func emptyGhostLettersAreEmpty() {
        #expect(GhostFields.letters([0, 0]) == ",")
        #expect(GhostFields.letters([0, 1]) == ",G")
        #expect(GhostFields.letters([5, 2]) == "GHOST,GH")
        #expect(GhostFields.letters([9, -1]) == "GHOST,")
    }

    @Test func gameTokenIsOmittedWhenNil() {
        let without = ServerLine.game(id: 1, kind: .ghost, lang: "en", players: ["a", "b"], token: nil, round: 2, bot: nil, fields: [])
        let with = ServerLine.game(id: 1, kind: .ghost, lang: "en", players: ["a", "b"], token: "abc", round: 2, bot: nil, fields: [])
        #expect(without.message.fields.map(\.key) == ["id", "game", "lang", "players", "round"])
        #expect(with.message.fields.map(\.key) == ["id", "game", "lang", "players", "token", "round"])
        #expect(with != without)
    }
}
