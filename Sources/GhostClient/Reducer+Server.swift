import GhostProtocol

/// Server lines: replies (OK/ERR, matched to the oldest command awaiting one),
/// data lines (NAME, SCORE) and events. Unknown lines and fields are ignored;
/// a line that lacks a field the client needs is ignored too, never trusted.
extension ClientState {
    mutating func server(_ raw: Message, _ fx: inout [ClientEffect]) {
        let m = ClientState.sanitized(raw)
        switch m.keyword {
        case "HELLO": hello(m, &fx)
        case "OK": ok(m, &fx)
        case "ERR": error(m, &fx)
        case "NAME":
            if let n = m["name"], !n.isEmpty, incomingNames.count < 10_000 { incomingNames.append(n) }
        case "SCORE":
            if let r = m.int("rank"), let n = m["name"], let w = m.int("wins"), incomingScores.count < 1_000 {
                incomingScores.append(ScoreEntry(rank: r, name: n, wins: w, played: m.int("played") ?? 0))
            }
        case "GAME": gameStarted(m, &fx)
        case "TURN":
            guard var g = currentGame(m), let player = m["player"] else { return }
            g.toMove = player
            g.fragment = m["fragment"] ?? g.fragment
            if let ghost = ClientState.ghostLetters(m["ghost"]) { g.ghost = ghost }
            game = g
        case "MOVE":
            guard var g = currentGame(m), let player = m["player"], let letter = m["letter"] else { return }
            g.fragment = m["fragment"] ?? (g.fragment + letter)
            g.lastMove = (player, letter)
            g.flash = letter.lowercased().first
            g.flashUntil = now + ClientState.flashSeconds
            // A letter cancels a pending offer.
            g.offer = nil
            game = g
        case "OVER": over(m, &fx)
        case "MATCH": matchOver(m, &fx)
        case "INFO":
            // The INFO right after OVER says why, in words.
            if var g = game, var end = g.roundEnd, end.info == nil {
                end.info = m.text ?? ""
                g.roundEnd = end
                game = g
            } else if screen == .over, result != nil, result?.info == nil, result?.ranks.isEmpty == true {
                result?.info = m.text ?? ""
            }
            // The server is about to close this connection because another one
            // resumed the seat (a second client on the same settings file).
            // Free text is not a protocol, so this is only a guard against two
            // clients taking the seat from each other forever.
            if game != nil, m.text?.contains("resumed from another connection") == true {
                seatTaken = true
            }
        case "RANK":
            guard let name = m["name"], let rank = m.int("rank"), let wins = m.int("wins"),
                  (result?.ranks.count ?? 2) < 2 else { return }
            result?.ranks.append(RankEntry(name: name, rank: rank, wins: wins))
        case "ADJOURNED":
            guard var g = currentGame(m), let player = m["player"], !isMe(player) else { return }
            g.away = player
            g.grace = m.int("grace")
            g.claimable = false
            game = g
        case "RETURNED":
            guard var g = currentGame(m), let player = m["player"] else { return }
            g.away = nil
            g.claimable = false
            game = g
            show(.returned(player))
        case "CLAIMABLE":
            guard var g = currentGame(m), m["player"] != nil else { return }
            g.claimable = true
            game = g
        case "OFFER":
            guard var g = currentGame(m), let player = m["player"], let kind = m["kind"] else { return }
            g.offer = Offer(player: player, kind: kind, lang: m["lang"])
            game = g
        case "ACCEPTED", "DECLINED":
            guard var g = currentGame(m), let player = m["player"] else { return }
            g.offer = nil
            game = g
            if !isMe(player) { show(m.keyword == "ACCEPTED" ? .accepted(player) : .declined(player)) }
        case "REMATCH":
            guard let id = m.int("id"), result?.id == id, let player = m["player"] else { return }
            result?.rematchOfferedBy = player
        default:
            break  // a later protocol's event
        }
    }

    /// The game an event is about, if it is the one on screen.
    func currentGame(_ m: Message) -> GameInfo? {
        guard let id = m.int("id"), let g = game, g.id == id else { return nil }
        return g
    }

    /// The server's strings with control characters removed and lengths
    /// capped, so nothing it sends can move the cursor or flood a line.
    static func sanitized(_ m: Message) -> Message {
        func clean(_ s: String, _ limit: Int) -> String {
            var out = String.UnicodeScalarView()
            var n = 0
            for u in s.unicodeScalars where !(u.value < 0x20 || (0x7F...0x9F).contains(u.value)) {
                out.append(u)
                n += 1
                if n >= limit { break }
            }
            return String(out)
        }
        var c = m
        c.keyword = clean(m.keyword, 32)
        c.words = m.words.map { clean($0, 200) }
        c.fields = m.fields.map { (key: clean($0.key, 32), value: clean($0.value, 200)) }
        c.text = m.text.map { clean($0, 500) }
        return c
    }

    // MARK: Replies

    mutating func ok(_ m: Message, _ fx: inout [ClientEffect]) {
        let verb = m.words.first ?? ""
        if !pending.isEmpty { pending.removeFirst() }
        switch verb {
        case "NAME":
            guard let name = m["name"] else { return }
            myName = name
            named = true
            if config.lastName != name {
                config.lastName = name
                fx.append(.saveConfig)
            }
            if screen == .name { goToMain() }
        case "NAMES":
            knownNames = incomingNames
            incomingNames = []
            if screen == .name, nameField.isEmpty, nameCursor == nil, let last = config.lastName {
                nameCursor = knownNames.firstIndex(where: { $0.lowercased() == last.lowercased() })
            }
            if let c = nameCursor, c >= filteredNames.count { nameCursor = filteredNames.isEmpty ? nil : filteredNames.count - 1 }
        case "SCORES":
            scores = incomingScores
            incomingScores = []
        case "SEEK":
            if game == nil, let lang = m["lang"] {
                lobby = .seeking(lang: lang, match: m["rounds"] == "ghost")
                go(.waiting)
            }
        case "NEW":
            // Against the computer there is no code: the GAME follows at once.
            if let code = m["code"], game == nil {
                lobby = .hosting(code: code, lang: m["lang"] ?? "", match: m["rounds"] == "ghost")
                go(.waiting)
            }
        case "JOIN":
            codeField = ""
        case "LEAVE":
            if screen == .waiting { goToMain() }
            lobby = nil
        case "REMATCH":
            if m["status"] == "asked" { result?.rematchAsked = true }
        case "RESTART", "LANG":
            if m["status"] == "offered" { show(.offerSent) }
        case "HINT":
            if let letter = m["letter"], letter.count == 1 { show(.hint(winning: m["winning"] == "yes", letter: letter)) }
        default:
            break
        }
    }

    mutating func error(_ m: Message, _ fx: inout [ClientEffect]) {
        let code = m.words.first ?? ""
        let text = m.text ?? ""
        let verb = pending.isEmpty ? "" : pending.removeFirst()
        switch (verb, code) {
        case ("RESUME", _):
            if code == "bad-token" {
                setToken(nil, &fx)
                show(.gameEnded)
            } else {
                show(.serverError(code: code, text: text))
            }
            if screen == .resuming || screen == .game {
                game = nil
                if !named, let name = myName ?? config.lastName {
                    // Take the name back and carry on from the main screen.
                    myName = name
                    send("NAME \(name)", &fx)
                    goToMain()
                } else {
                    goHome(&fx)
                }
            }
        case ("NAME", _):
            show(.serverError(code: code, text: text))
            if screen != .name { goToNameScreen(&fx) }
        case ("LETTER", "not-your-turn"):
            show(.notYourTurn)
        case ("LETTER", "not-a-letter"):
            show(.lettersOnly)
        case (_, "no-name"):
            show(.serverError(code: code, text: text))
            named = false
            goToNameScreen(&fx)
        case ("SCORES", _):
            scores = []
            show(.serverError(code: code, text: text))
        case ("NAMES", _):
            incomingNames = []
            show(.serverError(code: code, text: text))
        default:
            show(.serverError(code: code, text: text))
        }
    }

    // MARK: Games

    mutating func gameStarted(_ m: Message, _ fx: inout [ClientEffect]) {
        guard let id = m.int("id"), let playersText = m["players"] else { return }
        let players = playersText.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard players.count == 2 else { return }
        var info = GameInfo(id: id, lang: m["lang"] ?? "", players: players, round: m.int("round") ?? 1)
        info.bot = m["bot"].flatMap { $0.isEmpty ? nil : $0 }
        info.match = m["rounds"] == "ghost"
        if let ghost = ClientState.ghostLetters(m["ghost"]) {
            info.match = true
            info.ghost = ghost
        }
        if let old = game, old.id == id {
            if old.round == info.round {
                // The same round again (a RESUME): keep what the screen showed.
                info.fragment = old.fragment
                info.lastMove = old.lastMove
                info.toMove = old.toMove
                info.previousRound = old.previousRound
            } else {
                // The next round of a match: say how the last one ended.
                info.previousRound = old.roundEnd
            }
        }
        game = info
        seatTaken = false
        if let token = m["token"], ClientConfig.isToken(token) { setToken(token, &fx) }
        // Which seat is mine: my name, or the name this client last used.
        if let me = myName ?? config.lastName, let mine = players.first(where: { $0.lowercased() == me.lowercased() }) {
            myName = mine
            named = true
            if config.lastName != mine {
                config.lastName = mine
                fx.append(.saveConfig)
            }
        }
        lobby = nil
        result = nil
        if screen != .game { go(.game) }
        gameMenuOpen = false
        confirmLeave = false
    }

    mutating func over(_ m: Message, _ fx: inout [ClientEffect]) {
        guard let id = m.int("id"), let winner = m["winner"], let loser = m["loser"] else { return }
        guard game == nil || game?.id == id else { return }
        let ghost = ClientState.ghostLetters(m["ghost"])
        let end = RoundEnd(winner: winner, loser: loser, reason: m["reason"] ?? "",
                           fragment: m["fragment"] ?? game?.fragment ?? "", ghost: ghost ?? game?.ghost ?? [])
        if var g = game, g.match || ghost != nil {
            // A round of a match: the next round's GAME follows, or MATCH.
            g.match = true
            g.roundEnd = end
            if let ghost { g.ghost = ghost }
            g.toMove = nil
            g.fragment = end.fragment
            game = g
            gameMenuOpen = false
            confirmLeave = false
            return
        }
        result = GameResult(id: id, winner: winner, loser: loser, reason: end.reason, fragment: end.fragment,
                            players: game?.players ?? [winner, loser], bot: game?.bot)
        game = nil
        setToken(nil, &fx)
        go(.over)
    }

    /// The end of a whole match: the last round's OVER came just before.
    mutating func matchOver(_ m: Message, _ fx: inout [ClientEffect]) {
        guard let id = m.int("id"), let winner = m["winner"], let loser = m["loser"], let g = game, g.id == id else { return }
        let last = g.roundEnd
        var r = GameResult(id: id, winner: winner, loser: loser, reason: last?.reason ?? "", fragment: last?.fragment ?? g.fragment,
                           players: g.players, info: last?.info, bot: g.bot)
        r.match = true
        r.ghost = ClientState.ghostLetters(m["ghost"]) ?? last?.ghost ?? g.ghost
        result = r
        game = nil
        setToken(nil, &fx)
        go(.over)
    }

    /// `ghost=GH,-` → ["GH", ""]; nil unless it is two parts of G-H-O-S-T.
    static func ghostLetters(_ field: String?) -> [String]? {
        guard let field else { return nil }
        let parts = field.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        var out: [String] = []
        for p in parts {
            if p == "-" || p.isEmpty { out.append(""); continue }
            guard p.count <= 5, "GHOST".hasPrefix(p.uppercased()) else { return nil }
            out.append(p.uppercased())
        }
        return out
    }
}

extension Message {
    /// A field as a non-negative integer of sane size.
    func int(_ key: String) -> Int? {
        guard let v = self[key], v.utf8.count <= 18, let n = Int(v), n >= 0 else { return nil }
        return n
    }
}
