import Testing
@testable import GroveReport

/// How a row keeps a text that is not a name (`StateTextForm`, docs/STATE.md): the bytes of each
/// form worked out by hand, so the stored format cannot drift, and each read back exactly.
@Suite(.serialized)
struct StateTextFormTests {
    private static func written(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { StateTextForm.append($0, to: &bytes) }
        return bytes
    }

    private static let uuidBytes: [UInt8] = [0x32, 0xD0, 0xF2, 0x43, 0xD4, 0x8D, 0x4F, 0x4C, 0x9A, 0x4E, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB]

    /// Text, then its stored bytes: the header is 2 + (prefix length << 2 | form).
    private static let cases: [(String, [UInt8])] = [
        // A prefix and 16 lower-case hex digits: header 2 + (4 << 2 | 1) = 19, 8 packed bytes.
        ("clk_8e3ae4d4e6efdcfd", [19] + Array("clk_".utf8) + [8, 0x8E, 0x3A, 0xE4, 0xD4, 0xE6, 0xEF, 0xDC, 0xFD]),
        ("A-0123456789abcdef", [11] + Array("A-".utf8) + [8, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]),
        // An odd tail loses its first digit to the prefix; under 8 digits the text is kept whole.
        ("x1234567", [2 + (8 << 2)] + Array("x1234567".utf8)),
        ("ord_abc", [2 + (7 << 2)] + Array("ord_abc".utf8)),
        ("x123456789", [2 + (2 << 2 | 1)] + Array("x1".utf8) + [4, 0x23, 0x45, 0x67, 0x89]),
        // Upper-case hex is no tail (it would read back lower-case).
        ("ID0123456789ABCDEF", [2 + (18 << 2)] + Array("ID0123456789ABCDEF".utf8)),
        // UUIDs: 16 bytes under the header of their case; digits alone count as upper-case.
        ("32D0F243-D48D-4F4C-9A4E-0123456789AB", [4] + uuidBytes),
        ("32d0f243-d48d-4f4c-9a4e-0123456789ab", [5] + uuidBytes),
        ("12345678-1234-1234-1234-123456789012", [4, 0x12, 0x34, 0x56, 0x78, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12]),
        // Mixed case is no UUID: its lower-case tail is packed after the dash.
        ("32D0f243-d48d-4f4c-9a4e-0123456789ab",
         [2 + (24 << 2 | 1)] + Array("32D0f243-d48d-4f4c-9a4e-".utf8) + [6, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB]),
        // A byte that is no hex digit, or a dash out of place: whole (header 146, a two-byte varint).
        ("32D0F243-D48D-4F4C-9A4E-0123456789AG", [0x92, 0x01] + Array("32D0F243-D48D-4F4C-9A4E-0123456789AG".utf8)),
        ("32D0F243-D48D-4F4C-9A4E0-123456789AB", [0x92, 0x01] + Array("32D0F243-D48D-4F4C-9A4E0-123456789AB".utf8)),
        ("", [2]),
    ]

    @Test func eachFormIsStoredAsWorkedOut() {
        for (text, bytes) in Self.cases { #expect(Self.written(text) == bytes, "\(text)") }
    }

    @Test func eachFormReadsBackExactly() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        var reader = StateRowReader(symbols: SymbolTable(), names: StateNames(store: store))
        for (text, _) in Self.cases {
            var symbols = SymbolTable()
            let symbol = symbols.intern(Array(text.utf8))
            var writer = StateRowWriter(symbols: symbols, names: StateNames(store: store))
            writer.text(symbol)
            reader.load(writer.bytes)
            let read = try #require(try reader.text())
            #expect(reader.isAtEnd && reader.symbols.string(read) == ByteString(Array(text.utf8)), "\(text)")
        }
    }
}
