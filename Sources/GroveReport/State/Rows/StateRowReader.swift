/// Reads what `StateRowWriter` wrote, interning texts into the symbol table it holds. A row may
/// be damaged (a disk, a hand edit): every read is bounded and checked, and a bad row is a
/// `StateError`, never a trap.
struct StateRowReader {
    var symbols: SymbolTable
    let names: StateNames
    /// The symbols of the names read so far, by number: a name is interned once a table.
    private var nameSymbols = IntegerMap<Symbol>()
    private var bytes: [UInt8] = []
    private var position = 0

    /// How the rows of a schema store texts and instants; the migrations read the older ones.
    enum Format {
        /// Texts whole after their length; instants as Unix seconds and nanoseconds.
        case version3
        /// Texts in a `StateTextForm`; instants as Unix seconds and nanoseconds (also version 5).
        case version4
        /// Texts in a `StateTextForm`; instants as seconds from `StateRowWriter.epochSeconds` and
        /// milliseconds when they are whole (`StateRowWriter.instant`).
        case current
    }

    private let format: Format

    init(symbols: consuming SymbolTable, names: StateNames, format: Format = .current) {
        self.symbols = symbols
        self.names = names
        self.format = format
    }

    /// Starts reading `row`.
    mutating func load(_ row: [UInt8]) {
        bytes = row
        position = 0
    }

    var isAtEnd: Bool { position == bytes.count }

    func damaged(_ problem: String) -> StateError {
        .notAState(path: names.path, reason: "a stored record is damaged: \(problem)")
    }

    mutating func byte() throws(StateError) -> UInt8 {
        guard position < bytes.count else { throw damaged("a row ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func flag() throws(StateError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw damaged("a flag is neither 0 nor 1")
        }
    }

    /// A count, at most 2^53 − 1 like every count of a stage record (`RecordLimits`).
    mutating func count() throws(StateError) -> Int {
        let value = try varint()
        guard value <= UInt64(RecordLimits.maximumValue) else { throw damaged("a count is out of range") }
        return Int(value)
    }

    mutating func instant() throws(StateError) -> Instant {
        let stored = Varint.unzigzag(try varint())
        let fraction = try varint()
        let (seconds, nanoseconds) = switch format {
        case .version3, .version4: (stored, fraction)
        case .current: (
            stored &+ StateRowWriter.epochSeconds,
            fraction & 1 == 1 ? fraction >> 1 : (fraction >> 1).multipliedReportingOverflow(by: 1_000_000).partialValue
        )
        }
        guard RecordLimits.instantSeconds.contains(seconds), nanoseconds < 1_000_000_000, fraction >> 1 < 1_000_000_000 else {
            throw damaged("an instant is out of range")
        }
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    mutating func name() throws(StateError) -> Symbol? {
        let number = Int64(truncatingIfNeeded: try varint())
        guard number != 0 else { return nil }
        if let known = nameSymbols[number] { return known }
        guard let name = try names.name(number: number) else { throw damaged("an unknown name") }
        let symbol = symbols.intern(name)
        nameSymbols.insert(number, symbol)
        return symbol
    }

    mutating func requiredName() throws(StateError) -> Symbol {
        guard let name = try name() else { throw damaged("a required name is absent") }
        return name
    }

    mutating func text() throws(StateError) -> Symbol? {
        let header = try varint()
        switch header {
        case 0:
            return nil
        case 1:
            return symbols.intern(TextSealing.sealedText(digestBytes: try take(32)))
        case _ where format == .version3:
            let whole = try span(try length(header - 2))
            return whole.withUnsafeBufferPointer { symbols.intern($0) }
        default:
            guard let form = StateTextForm(rawValue: (header - 2) & 3) else { throw damaged("an unknown text form") }
            let count = try length((header - 2) >> 2)
            switch form {
            case .whole:
                let whole = try span(count)
                return whole.withUnsafeBufferPointer { symbols.intern($0) }
            case .hexTail:
                let prefix = try span(count)
                return intern(prefix: prefix, packed: try span(try length(try varint())), form: form)
            case .upperUUID, .lowerUUID:
                guard count == 0 else { throw damaged("a UUID has a prefix") }
                return intern(prefix: [], packed: try span(16), form: form)
            }
        }
    }

    /// Interns a text kept packed: `prefix` as it is, then the hex digits of `packed` (a UUID's
    /// with their dashes), unpacked into a buffer on the stack.
    private mutating func intern(prefix: ArraySlice<UInt8>, packed: ArraySlice<UInt8>, form: StateTextForm) -> Symbol {
        let uuid = form == .upperUUID || form == .lowerUUID
        let count = prefix.count + 2 * packed.count + (uuid ? 4 : 0)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
            let start = prefix.withUnsafeBufferPointer { UnsafeMutableBufferPointer(rebasing: text[...]).initialize(fromContentsOf: $0) }
            let end = StateTextForm.unpack(packed, upper: form == .upperUUID, dashes: uuid, into: text, at: start)
            return symbols.intern(UnsafeBufferPointer(rebasing: text[..<end]))
        }
    }

    /// A length read from the row, checked against what is left of it.
    private func length(_ value: UInt64) throws(StateError) -> Int {
        guard value <= UInt64(bytes.count - position) else { throw damaged("a text runs past its row") }
        return Int(value)
    }

    mutating func requiredText() throws(StateError) -> Symbol {
        guard let text = try text() else { throw damaged("a required text is absent") }
        return text
    }

    private mutating func take(_ count: Int) throws(StateError) -> [UInt8] {
        Array(try span(count))
    }

    /// The next `count` bytes of the row, in place.
    private mutating func span(_ count: Int) throws(StateError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - position else { throw damaged("a row ends early") }
        defer { position += count }
        return bytes[position..<position + count]
    }

    private mutating func varint() throws(StateError) -> UInt64 {
        var end = position
        guard let value = bytes.withUnsafeBufferPointer({ Varint.read($0, at: &end) }) else {
            throw damaged("a number is too long or cut")
        }
        position = end
        return value
    }
}
