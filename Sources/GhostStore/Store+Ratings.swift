/// A rated game's row, the game store's (the rest of the ratings: `ratingStore`).
extension Store {
    /// The game is rated; each seat's rating before it (whole points; nil
    /// for a seat that has none, which never happens in a rated game).
    public func markRated(game: Int, ratings: [Int?]) throws {
        try gameStore.markRated(game: game, ratings: ratings)
    }

    /// Whether a game is rated (one primary-key look-up).
    public func isRated(game: Int) throws -> Bool {
        try gameStore.isRated(game: game)
    }

    /// Each seat's rating change at the end of a rated game (nil: the computer's seat).
    public func setRatingChanges(game: Int, changes: [Int?]) throws {
        try gameStore.setRatingChanges(game: game, changes: changes)
    }
}
