/// A map for the few entries a record usually holds (an open's payloads, an install's decisions):
/// a linear scan while it is small, and a hash index once it passes `indexThreshold` entries, so
/// that hostile input with thousands of values under one key stays linear instead of quadratic.
///
/// The first entry is stored inline and everything else (the later entries and the index) behind
/// one optional reference, made when a second entry comes: a map of one entry allocates nothing,
/// and it takes its first entry and one word (an empty map is a value that reference never
/// takes), which at millions of records is memory that counts: an `Optional` entry, an array and
/// an optional index took up to 16 bytes more. Copies share that storage until one of them is changed, as
/// an array's do.
struct SmallMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    static var indexThreshold: Int { 16 }

    struct Entry: Sendable {
        var key: Key
        var value: Value
    }

    private enum Storage: Sendable {
        case empty
        case some(head: Entry, overflow: Overflow?)
    }

    /// The entries after the first, and the index once there are more than `indexThreshold`.
    /// Never changed while shared (`upsert` copies it first), hence sendable.
    private final class Overflow: @unchecked Sendable {
        var tail: [Entry]
        var index: [Key: Int]?

        init(tail: [Entry], index: [Key: Int]?) {
            (self.tail, self.index) = (tail, index)
        }
    }

    private var storage = Storage.empty

    init() {}

    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// In insertion order, which stage records keep; iterating them allocates nothing.
    var entries: Entries {
        switch storage {
        case .empty: Entries(head: nil, tail: [])
        case .some(let head, let overflow): Entries(head: head, tail: overflow?.tail ?? [])
        }
    }

    /// The values in insertion order, as a view rather than a new array.
    var values: some RandomAccessCollection<Value> { entries.lazy.map { $0.value } }

    subscript(_ key: Key) -> Value? {
        position(of: key).map { entries[$0].value }
    }

    private func position(of key: Key) -> Int? {
        switch storage {
        case .empty:
            return nil
        case .some(let head, let overflow):
            if head.key == key { return 0 }
            guard let overflow else { return nil }
            if let index = overflow.index { return index[key] }
            return overflow.tail.firstIndex { $0.key == key }.map { $0 + 1 }
        }
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
        let position = position(of: key)
        switch storage {
        case .empty:
            storage = .some(head: Entry(key: key, value: make()), overflow: nil)
        case .some(var head, nil):
            if position == 0 {
                update(&head.value)
                storage = .some(head: head, overflow: nil)
            } else {
                storage = .some(head: head, overflow: Overflow(tail: [Entry(key: key, value: make())], index: nil))
            }
        case .some(var head, var overflow?):
            // Emptied first: the overflow is then referenced here alone unless a copy shares it.
            storage = .empty
            if !isKnownUniquelyReferenced(&overflow) { overflow = Overflow(tail: overflow.tail, index: overflow.index) }
            if position == 0 {
                update(&head.value)
            } else if let position {
                update(&overflow.tail[position - 1].value)
            } else {
                overflow.tail.append(Entry(key: key, value: make()))
                let count = overflow.tail.count + 1
                if overflow.index != nil {
                    overflow.index![key] = count - 1
                } else if count > Self.indexThreshold {
                    overflow.index = Dictionary(
                        uniqueKeysWithValues: [(head.key, 0)] + overflow.tail.enumerated().map { ($1.key, $0 + 1) })
                }
            }
            storage = .some(head: head, overflow: overflow)
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

    /// The entries in insertion order: the inline first one, then the others.
    struct Entries: RandomAccessCollection {
        fileprivate let head: Entry?
        fileprivate let tail: [Entry]

        var startIndex: Int { 0 }
        var endIndex: Int { head == nil ? 0 : 1 + tail.count }

        subscript(position: Int) -> Entry {
            position == 0 ? head! : tail[position - 1]
        }
    }
}
