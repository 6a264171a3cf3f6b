/// The state's table of names (campaigns, variants, app keys, slugs, utm values): each text once,
/// numbered, so a row holds a small integer for it. A night looks up only the names its own rows
/// write or read, one query each, and remembers them, so its cost follows the night however
/// many names the state holds.
final class StateNames {
    private let store: StateStore
    private var numbers: [[UInt8]: Int64] = [:]
    private var texts: [Int64: [UInt8]] = [:]

    /// Whether every name of the state is in memory: a reader then never asks SQLite, so rows
    /// can be decoded on another thread while SQLite reads more (`IncrementalMerge`).
    private(set) var isComplete = false

    init(store: StateStore) {
        self.store = store
    }

    /// Reads every name into memory when the state holds at most `limit` (a state holds a few
    /// hundred: campaigns, variants, app keys, slugs, utm values); otherwise names are looked up
    /// one by one as rows need them, so a state of many names costs a night no more.
    func loadAll(upTo limit: Int) throws(StateError) {
        guard let all = try store.allNames(upTo: limit) else { return }
        for (number, text) in all {
            numbers[text] = number
            texts[number] = text
        }
        isComplete = true
    }

    var path: String { store.path }

    /// The number of `text`, given a new one when the state has none.
    func number(of text: some Collection<UInt8>) throws(StateError) -> Int64 {
        if let stored = try storedNumber(of: text) { return stored }
        let key = Array(text)
        let number = try store.addName(key)
        numbers[key] = number
        texts[number] = key
        return number
    }

    /// The number of `text` when the state has one; never numbers a new name.
    func storedNumber(of text: some Collection<UInt8>) throws(StateError) -> Int64? {
        let key = Array(text)
        if let known = numbers[key] { return known }
        guard !isComplete, let stored = try store.nameNumber(key) else { return nil }
        numbers[key] = stored
        texts[stored] = key
        return stored
    }

    /// The number of `text` when it is in memory; only reads (a writer on another thread).
    func heldNumber(of text: some Collection<UInt8>) -> Int64? {
        numbers[Array(text)]
    }

    /// The text of a number, nil when the state has no such name.
    func name(number: Int64) throws(StateError) -> [UInt8]? {
        if let known = texts[number] { return known }
        guard !isComplete else { return nil }
        guard let text = try store.name(number: number) else { return nil }
        texts[number] = text
        numbers[text] = number
        return text
    }
}
