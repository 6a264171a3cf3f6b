/// What a `preview_link`'s URL is by the Grona rules (docs/EVENTS.md, `preview_link`), from the URL alone.
///
/// The audit compares this with what the SDK did (the link's `outcome`): an SDK that pairs on a
/// malformed link, or clears on a pairing link, is a bug the CI gate must catch. Only the kind is
/// kept of a link: its URL may hold a pairing code, a one-time credential.
enum PreviewLinkKind: Int, CaseIterable, Sendable {
    /// A well-formed `…?code=<code>` link: trade the code for a pin.
    case pair
    /// A well-formed `…?clear=1` link: remove the pins.
    case clear
    /// A Grona preview link that breaks a rule (a port, a fragment, a short code, an extra parameter…).
    case malformed
    /// Not a Grona preview link at all.
    case foreign

    /// The kind as written in `preview_audit.json`.
    var name: String {
        switch self {
        case .pair: "pair"
        case .clear: "clear"
        case .malformed: "malformed"
        case .foreign: "foreign"
        }
    }

    /// The longest query a well-formed link may carry.
    static let maximumQueryBytes = 256
    /// The length range of a pairing code, in characters of `A–Z a–z 0–9 -`.
    static let codeLengths = 8...64

    private static let previewHost = Array("grona-preview".utf8)
    private static let previewPath = Array("/grona-preview".utf8)
    private static let https = Array("https".utf8)
    private static let codePrefix = Array("code=".utf8)
    private static let clearQuery = Array("clear=1".utf8)

    /// Classifies a URL, compared as bytes and never percent-decoded.
    static func classify(_ url: some Collection<UInt8>) -> PreviewLinkKind {
        let bytes = Array(url)
        guard let parts = URIParts(bytes) else { return .foreign }
        let isHTTPS = equalIgnoringASCIICase(parts.scheme, https)
        let hasPreviewHost = parts.host.map { equalIgnoringASCIICase($0, previewHost) } ?? false
        guard hasPreviewHost || (isHTTPS && parts.path.elementsEqual(previewPath)) else { return .foreign }

        let placeIsRight = isHTTPS
            ? !(parts.host?.isEmpty ?? true) && parts.path.elementsEqual(previewPath)
            : hasPreviewHost && (parts.path.isEmpty || parts.path.elementsEqual([UInt8(ascii: "/")]))
        guard placeIsRight, !parts.hasUserInfo, !parts.hasPort, !bytes.contains(UInt8(ascii: "#")),
              let query = parts.query, query.count <= maximumQueryBytes
        else { return .malformed }
        if query.elementsEqual(clearQuery) { return .clear }
        guard query.starts(with: codePrefix) else { return .malformed }
        let code = query.dropFirst(codePrefix.count)
        return codeLengths.contains(code.count) && code.allSatisfy(isCodeCharacter) ? .pair : .malformed
    }

    private static func isCodeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func equalIgnoringASCIICase(_ lhs: ArraySlice<UInt8>, _ rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

/// A URI split per RFC 3986 (appendix B): `scheme ":" ["//" authority] path ["?" query]
/// ["#" fragment]`, the authority as `[userinfo "@"] host [":" port]`.
private struct URIParts {
    var scheme: ArraySlice<UInt8>
    /// Nil when there is no authority (no `//` after the scheme).
    var host: ArraySlice<UInt8>?
    var hasUserInfo = false
    /// A `:` after the host, even with an empty port.
    var hasPort = false
    var path: ArraySlice<UInt8>
    /// Nil when there is no `?`.
    var query: ArraySlice<UInt8>?

    /// Nil when the URL has no scheme matching `[A-Za-z][A-Za-z0-9+.-]*` before its first `:`.
    init?(_ bytes: [UInt8]) {
        guard let colon = bytes.firstIndex(where: { Self.ends(scheme: $0) }), bytes[colon] == UInt8(ascii: ":"),
              Self.isScheme(bytes[..<colon])
        else { return nil }
        scheme = bytes[..<colon]
        var rest = bytes[(colon + 1)...]
        // The fragment goes first: `?` and `/` after a `#` belong to it.
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[(question + 1)...]
            rest = rest[..<question]
        }
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authorityStart = rest.startIndex + 2
            let authorityEnd = rest[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            path = rest[authorityEnd...]
            var authority = rest[authorityStart..<authorityEnd]
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
                hasUserInfo = true
                authority = authority[(at + 1)...]
            }
            let hostEnd: Int
            if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
                hostEnd = close + 1  // an IP literal: its colons are not a port
            } else {
                hostEnd = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
            }
            host = authority[..<hostEnd]
            hasPort = hostEnd < authority.endIndex
        } else {
            path = rest
        }
    }

    /// The first of `:/?#` ends the scheme; only `:` makes one.
    private static func ends(scheme byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func isScheme(_ scheme: ArraySlice<UInt8>) -> Bool {
        guard let first = scheme.first, isLetter(first) else { return false }
        return scheme.dropFirst().allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
