#if canImport(Glibc)
import Glibc
#endif

/// A read-only view of the top-level members of the object a `JSONObjectReader` parsed last.
///
/// Valid only inside `JSONObjectReader.withObject`: it points into the line and the reader's buffers.
struct ParsedObject {
    let line: UnsafeBufferPointer<UInt8>
    let scratch: UnsafeBufferPointer<UInt8>
    let fields: UnsafeBufferPointer<JSONField>
    let fieldIndexByName: UnsafeBufferPointer<Int32>
    let firstRepeatIndex: Int

    var count: Int { fields.count }

    static func bytes(
        _ span: ByteSpan, line: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8> {
        let base = span.inScratch ? scratch : line
        return UnsafeBufferPointer(rebasing: base[span.start..<(span.start + span.count)])
    }

    func bytes(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
        Self.bytes(span, line: line, scratch: scratch)
    }

    func key(at index: Int) -> UnsafeBufferPointer<UInt8> {
        bytes(fields[index].key)
    }

    /// The member with a known name, or nil when there is none.
    func field(_ name: FieldName) -> JSONField? {
        let index = Int(fieldIndexByName[Int(name.rawValue)])
        return index < 0 ? nil : fields[index]
    }

    /// The first key, reading left to right, that repeats an earlier key (compared after unescaping).
    func firstRepeatedKey() -> ByteString? {
        firstRepeatIndex < 0 ? nil : ByteString(key(at: firstRepeatIndex))
    }

    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        lhs.count == rhs.count && (lhs.count == 0 || equal(lhs, rhs.baseAddress!, rhs.count))
    }

    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard lhs.count == count else { return false }
        guard count > 0 else { return true }
        return memcmp(lhs.baseAddress!, rhs, count) == 0
    }
}
