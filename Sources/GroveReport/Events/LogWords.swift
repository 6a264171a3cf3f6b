/// An enum that the logs and the stage records write as one word: its words are listed once,
/// and the validator, the record codec and the state all read them from there.
protocol LogWords: Equatable {
    static var words: KeyValuePairs<StaticString, Self> { get }
}

extension LogWords {
    /// The word written for this value.
    var word: String {
        Self.words.first { $0.value == self }.map { $0.key.description } ?? ""
    }

    /// The value a word names; nil for any other text.
    init?(word: String) {
        guard let match = Self.words.first(where: { $0.key.description == word }) else { return nil }
        self = match.value
    }
}
