#if canImport(Glibc)
import Glibc
#endif

/// A read-only view of the top-level members of the object a `JSONObjectReader` parsed last.
///
/// Valid only inside `JSONObjectReader.withObject`: it points into the line and the reader's buffers.
public struct ParsedObject {
    let line: UnsafeBufferPointer<UInt8>
    let scratch: UnsafeBufferPointer<UInt8>
    let fields: UnsafeBufferPointer<JSONField>

    var count: Int { fields.count }

    func bytes(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
        let base = span.inScratch ? scratch : line
        return UnsafeBufferPointer(rebasing: base[span.start..<(span.start + span.count)])
    }

    func key(at index: Int) -> UnsafeBufferPointer<UInt8> {
        bytes(fields[index].key)
    }

    /// The member named `name`, or nil when there is none.
    func field(_ name: StaticString) -> JSONField? {
        let length = name.utf8CodeUnitCount
        for field in fields where field.key.count == length {
            if Self.equal(bytes(field.key), name.utf8Start, length) { return field }
        }
        return nil
    }

    /// The first key, reading left to right, that repeats an earlier key (compared after unescaping).
    func firstRepeatedKey() -> ByteString? {
        if fields.count <= 16 {
            for later in 1..<max(fields.count, 1) {
                let candidate = key(at: later)
                for earlier in 0..<later where Self.equal(key(at: earlier), candidate) {
                    return ByteString(candidate)
                }
            }
            return nil
        }
        var seen = Set<ByteString>()
        for index in 0..<fields.count {
            let key = ByteString(key(at: index))
            if !seen.insert(key).inserted { return key }
        }
        return nil
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
