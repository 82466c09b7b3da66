extension WordList {
    /// Calls `body` with every word of the list as lowercase ASCII bytes, in
    /// alphabetical order (a word comes before the words it starts). One walk
    /// of the trie; the array handed over is reused, so copy what you keep.
    public func forEachWord(_ body: ([UInt8]) throws -> Void) rethrows {
        var word: [UInt8] = []
        try visit(WordList.root, &word, body)
    }

    /// As `forEachWord`, with each word's node (Hangman's tables look up
    /// whether it is a common word: `CommonWords.isCommon(node:)`).
    public func forEachWordAndNode(_ body: ([UInt8], Int) -> Void) {
        var word: [UInt8] = []
        visitNodes(WordList.root, &word, body)
    }

    private func visitNodes(_ node: Int, _ word: inout [UInt8], _ body: ([UInt8], Int) -> Void) {
        let n = nodes[node]
        if n.isWord { body(word, node) }
        var child = Int(n.first)
        for letter in 0..<UInt8(26) where n.bits & (1 << UInt32(letter)) != 0 {
            word.append(0x61 + letter)
            visitNodes(child, &word, body)
            word.removeLast()
            child += 1
        }
    }

    private func visit(_ node: Int, _ word: inout [UInt8], _ body: ([UInt8]) throws -> Void) rethrows {
        let n = nodes[node]
        if n.isWord { try body(word) }
        var child = Int(n.first)
        for letter in 0..<UInt8(26) where n.bits & (1 << UInt32(letter)) != 0 {
            word.append(0x61 + letter)
            try visit(child, &word, body)
            word.removeLast()
            child += 1
        }
    }
}

extension WordList {
    /// The shortest word of at least `minLength` letters that starts with
    /// `prefix`, the first in alphabetical order among those of that length;
    /// nil if there is none. A breadth-first walk from the prefix's node with
    /// the letters in order meets the words by length, then alphabetically, so
    /// it stops at the first one and visits only the nodes above its length.
    public func shortestWord(startingWith prefix: some StringProtocol, minLength: Int) -> String? {
        guard let start = node(for: prefix) else { return nil }
        let base = Array(prefix.utf8.map { $0 | 0x20 })
        // Each entry: a node and the entry it came from (its letter appended).
        var queue: [(node: Int, parent: Int, letter: UInt8)] = [(start, -1, 0)]
        var depth = base.count
        var levelStart = 0
        while levelStart < queue.count {
            let levelEnd = queue.count
            if depth >= minLength {
                for i in levelStart..<levelEnd where nodes[queue[i].node].isWord {
                    var letters: [UInt8] = []
                    var j = i
                    while queue[j].parent >= 0 {
                        letters.append(queue[j].letter)
                        j = queue[j].parent
                    }
                    return String(decoding: base + letters.reversed(), as: UTF8.self)
                }
            }
            for i in levelStart..<levelEnd {
                let n = nodes[queue[i].node]
                var child = Int(n.first)
                for letter in 0..<UInt8(26) where n.bits & (1 << UInt32(letter)) != 0 {
                    queue.append((child, i, 0x61 + letter))
                    child += 1
                }
            }
            levelStart = levelEnd
            depth += 1
        }
        return nil
    }
}

extension WordList {
    /// The list with only its words of `minLength` or more letters (Norvig's
    /// vocabulary with that limit). The list itself when none is shorter.
    public func keeping(minLength: Int) -> WordList {
        var text: [UInt8] = []
        var dropped = 0
        forEachWord { word in
            guard word.count >= minLength else { dropped += 1; return }
            text += word
            text.append(0x0A)
        }
        // forEachWord walks in alphabetical order, so the builder needs no sort.
        return dropped == 0 ? self : WordList(folding: &text)
    }

    /// How many distinct fragments begin a word of the list, the empty one
    /// and the words themselves included (Norvig's `len(vocab.fragments)`):
    /// one per node of the trie.
    public var fragmentCount: Int { nodes.count }
}
