#if canImport(Glibc)
import Glibc
#endif

/// Replaces every email-like token of log text that reaches an output (campaign and variant names,
/// the key of a `duplicate_key:` or `disallowed_field:` reason) with `[email]` (docs/EVENTS.md, Names in outputs).
///
/// A token is a maximal match of `[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`, found left to
/// right as a regular-expression replace-all would: at each `@`, the local part is the run of
/// local characters before it (not reaching into an earlier token), the domain is one label and
/// then every following `.label`; a text without `@` is returned untouched without a copy, which
/// keeps the cost on the hot path to one `memchr`.
enum EmailMask {
    static let replacement: [UInt8] = Array("[email]".utf8)

    /// The masked bytes, or nil when `text` holds no email-like token.
    static func masked(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = text.baseAddress, !text.isEmpty, memchr(base, 0x40, text.count) != nil else { return nil }
        var output: [UInt8]?
        // Bytes before `copied` are already in `output` (or were left untouched when it is nil).
        var copied = 0
        var index = 0
        while index < text.count {
            guard text[index] == 0x40 else {
                index += 1
                continue
            }
            var start = index
            while start > copied, isLocal(text[start - 1]) { start -= 1 }
            guard start < index, let end = domainEnd(text, after: index) else {
                index += 1
                continue
            }
            if output == nil { output = [] }
            output!.append(contentsOf: text[copied..<start])
            output!.append(contentsOf: replacement)
            copied = end
            index = end
        }
        guard var result = output else { return nil }
        result.append(contentsOf: text[copied...])
        return result
    }

    /// `text` with every token masked (itself when it holds none).
    static func apply(_ text: [UInt8]) -> [UInt8] {
        text.withUnsafeBufferPointer { masked($0) } ?? text
    }

    static func apply(_ text: ByteString) -> ByteString {
        text.bytes.withUnsafeBufferPointer { masked($0) }.map(ByteString.init) ?? text
    }

    static func apply(_ text: String) -> String {
        guard let masked = Array(text.utf8).withUnsafeBufferPointer({ masked($0) }) else { return text }
        return String(decoding: masked, as: UTF8.self)
    }

    /// The end of `label(.label)+` starting right after the `@` at `at`, or nil when there is none.
    private static func domainEnd(_ text: UnsafeBufferPointer<UInt8>, after at: Int) -> Int? {
        var index = at + 1
        while index < text.count, isLabel(text[index]) { index += 1 }
        guard index > at + 1 else { return nil }
        var labels = 0
        while index + 1 < text.count, text[index] == 0x2E, isLabel(text[index + 1]) {
            index += 2
            while index < text.count, isLabel(text[index]) { index += 1 }
            labels += 1
        }
        return labels > 0 ? index : nil
    }

    /// `[A-Za-z0-9-]`.
    private static func isLabel(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D: true
        default: false
        }
    }

    /// `[A-Za-z0-9._%+-]`.
    private static func isLocal(_ byte: UInt8) -> Bool {
        isLabel(byte) || byte == 0x2E || byte == 0x5F || byte == 0x25 || byte == 0x2B
    }
}
