extension WordList {
    /// Calls `body` with every word of the list as lowercase ASCII bytes, in
    /// alphabetical order (a word comes before the words it starts). One walk
    /// of the trie; the array handed over is reused, so copy what you keep.
    public func forEachWord(_ body: ([UInt8]) throws -> Void) rethrows {
        var word: [UInt8] = []
        try visit(WordList.root, &word, body)
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
