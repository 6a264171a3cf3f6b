/// A map from integers the process can trust to be spread or dense (symbol numbers, keyed
/// digests) to values, on the engine's `SlotTable`. Swift's `Dictionary` and `Set` hash every key
/// again with SipHash; on a state night's hottest maps (the names a row writes, the digests
/// already loaded) that was a few percent of the night's instructions.
///
/// Not for keys a sender chooses: the slots start from the key's bits, so keys made to share them
/// would share a probe walk.
struct IntegerMap<Value> {
    private var table = SlotTable()
    private var keys: [Int64] = []
    private var values: [Value] = []

    init() {}

    var count: Int { keys.count }

    private static func tag(_ key: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: key ^ key >> 32)
    }

    subscript(key: Int64) -> Value? {
        table.position(Self.tag(key)) { keys[$0] == key }.map { values[$0] }
    }

    /// Adds `key` with `value` unless it is there; whether it was added.
    @discardableResult
    mutating func insert(_ key: Int64, _ value: Value) -> Bool {
        let tag = Self.tag(key)
        let probe = table.probe(tag) { keys[$0] == key }
        guard probe.position == nil else { return false }
        table.insert(tag, at: keys.count, after: probe)
        keys.append(key)
        values.append(value)
        return true
    }
}
