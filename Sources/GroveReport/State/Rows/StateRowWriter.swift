/// Writes one binary row of the state (schema 3, docs/STATE.md): counts as LEB128 varints,
/// instants as a zigzag varint of seconds and a varint of nanoseconds, names (campaigns,
/// variants, app keys, slugs, utm values) as small integers of the state's `names` table, ids in
/// a `StateTextForm` (hex digits and UUIDs packed), a sealed text (`TextSealing`) as its 32
/// digest bytes.
struct StateRowWriter {
    let symbols: SymbolTable
    let names: StateNames
    private(set) var bytes: [UInt8] = []
    /// The numbers of the names written so far, by symbol: a name is looked up once a table.
    private var nameNumbers = IntegerMap<Int64>()

    /// Whether a name the state has no number for is numbered (a new row of `names`), or only
    /// noted (`metNewName`, written as absent): what a writer on another thread does, which
    /// must not write to SQLite.
    private let numbersNewNames: Bool
    /// Whether a name went unnumbered (the row written is then not the row to store).
    private(set) var metNewName = false

    init(symbols: SymbolTable, names: StateNames, numbersNewNames: Bool = true) {
        self.symbols = symbols
        self.names = names
        self.numbersNewNames = numbersNewNames
    }

    /// Starts the next row.
    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Makes the row written a key of another kind keyed alike (its first byte is the kind's).
    mutating func replaceKind(with kind: UInt8) { bytes[0] = kind }

    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// A non-negative integer as a varint.
    mutating func count(_ value: Int) { varint(UInt64(value)) }

    /// An instant as the zigzag varint of its seconds from `epochSeconds`, then its fraction:
    /// whole milliseconds (what apps log) as `ms << 1`, else `ns << 1 | 1`. Four bytes and two
    /// for a 2026 instant of whole milliseconds, where Unix seconds and nanoseconds took five and
    /// five.
    mutating func instant(_ instant: Instant) {
        varint(Varint.zigzag(instant.seconds &- Self.epochSeconds))
        let nanoseconds = UInt64(instant.nanoseconds)
        varint(nanoseconds % 1_000_000 == 0 ? (nanoseconds / 1_000_000) << 1 : nanoseconds << 1 | 1)
    }

    /// 2026-01-01T00:00:00Z, the origin of stored instants (schema 6 on).
    static let epochSeconds: Int64 = 1_767_225_600

    /// A name: 0 when absent, else its number in `names`.
    mutating func name(_ symbol: Symbol?) throws(StateError) {
        guard let symbol else { return varint(0) }
        if let known = nameNumbers[Int64(symbol.raw)] { return varint(UInt64(known)) }
        let text = symbols.bytes(symbol)
        let number: Int64
        if numbersNewNames {
            number = try names.number(of: text)
        } else if let held = names.heldNumber(of: text) {
            number = held
        } else {
            metNewName = true
            return varint(0)
        }
        nameNumbers.insert(Int64(symbol.raw), number)
        varint(UInt64(number))
    }

    /// A text that is not a name: 0 when absent, 1 and 32 bytes for a sealed text, else in its
    /// `StateTextForm`.
    mutating func text(_ symbol: Symbol?) {
        guard let symbol else { return varint(0) }
        let text = symbols.bytes(symbol)
        if text.withContiguousStorageIfAvailable({ append(text: $0) }) == nil {
            Array(text).withUnsafeBufferPointer { append(text: $0) }
        }
    }

    private mutating func append(text: UnsafeBufferPointer<UInt8>) {
        if let digest = TextSealing.digestBytes(ofSealed: text) {
            varint(1)
            bytes += digest
            return
        }
        StateTextForm.append(text, to: &bytes)
    }

    private mutating func varint(_ value: UInt64) { Varint.append(value, to: &bytes) }
}
