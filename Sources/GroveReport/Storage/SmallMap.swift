/// A map for the few entries a record usually holds (an open's payloads, an install's decisions):
/// a linear scan while it is small, and a hash index once it passes `indexThreshold` entries, so
/// that hostile input with thousands of values under one key stays linear instead of quadratic.
/// The entries live in a `SmallArray`, so a map of one entry allocates nothing.
struct SmallMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    static var indexThreshold: Int { 16 }

    struct Entry: Sendable {
        var key: Key
        var value: Value
    }

    /// In insertion order, which stage records keep; iterating them allocates nothing.
    private(set) var entries = SmallArray<Entry>()
    private var index: [Key: Int]?

    init() {}

    var isEmpty: Bool { entries.isEmpty }

    /// The values in insertion order, as a view rather than a new array.
    var values: some RandomAccessCollection<Value> { entries.lazy.map { $0.value } }

    subscript(_ key: Key) -> Value? {
        position(of: key).map { entries[$0].value }
    }

    private func position(of key: Key) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    /// Applies `update` to the value of `key`, starting from `empty` for a new key.
    mutating func update(_ key: Key, default empty: @autoclosure () -> Value, _ update: (inout Value) -> Void) {
        upsert(key, {
            var value = empty()
            update(&value)
            return value
        }, update)
    }

    /// Inserts `make()` under a new key, or lets `update` change the value already there.
    mutating func upsert(_ key: Key, _ make: () -> Value, _ update: (inout Value) -> Void) {
        if let position = position(of: key) {
            entries.modify(at: position) { update(&$0.value) }
            return
        }
        entries.append(Entry(key: key, value: make()))
        if index != nil {
            index![key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.key, $0) })
        }
    }

    /// The same entries with keys and values mapped, as when symbols move to another table; the
    /// mapping must keep distinct keys distinct.
    func map<OtherKey, OtherValue>(
        _ transform: (Entry) -> SmallMap<OtherKey, OtherValue>.Entry
    ) -> SmallMap<OtherKey, OtherValue> {
        var mapped = SmallMap<OtherKey, OtherValue>()
        for entry in entries {
            let moved = transform(entry)
            mapped.update(moved.key, default: moved.value) { _ in }
        }
        return mapped
    }
}
