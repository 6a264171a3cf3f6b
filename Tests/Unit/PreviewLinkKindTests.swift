import Testing
@testable import GroveReport

/// The link classifier of docs/EVENTS.md, `preview_link`: every example there, each rule on both sides of
/// its border, case, percent-encoding, IP literals, empty queries and fragments.
struct PreviewLinkKindTests {
    static let code = "AB12-cd34"
    static let query256 = "code=" + String(repeating: "A", count: 251)
    static let query257 = "code=" + String(repeating: "A", count: 252)

    static let table: [(url: String, kind: PreviewLinkKind, why: String)] = [
        // The examples of docs/EVENTS.md, `preview_link`.
        ("acmemarket://grona-preview?code=AB12-cd34", .pair, "spec: app scheme"),
        ("https://shop.example.com/grona-preview?code=AB12-cd34", .pair, "spec: web domain"),
        ("acmemarket://grona-preview/?clear=1", .clear, "spec: clear with path /"),
        ("acmemarket://grona-preview?code=AB12-cd34#x", .malformed, "spec: fragment"),
        ("acmemarket://grona-preview:8080?code=AB12-cd34", .malformed, "spec: port"),
        ("acmemarket://grona-preview?code=short", .malformed, "spec: short code"),
        ("https://shop.example.com/grona-preview?code=AB12-cd34&code=AB12-cd34", .malformed, "spec: repeated parameter"),
        ("https://shop.example.com/preview?code=AB12-cd34", .foreign, "spec: other path"),

        // Code length: 7 | 8 … 64 | 65, and its alphabet.
        ("acmemarket://grona-preview?code=ABCDEFG", .malformed, "7 characters"),
        ("acmemarket://grona-preview?code=ABCDEFGH", .pair, "8 characters"),
        ("acmemarket://grona-preview?code=" + String(repeating: "a1-Z", count: 16), .pair, "64 characters"),
        ("acmemarket://grona-preview?code=" + String(repeating: "a1-Z", count: 16) + "x", .malformed, "65 characters"),
        ("acmemarket://grona-preview?code=--------", .pair, "hyphens only"),
        ("acmemarket://grona-preview?code=AB12_cd34", .malformed, "underscore"),
        ("acmemarket://grona-preview?code=ÄB12-cd34", .malformed, "non-ASCII letter"),
        ("acmemarket://grona-preview?code=AB12%2Dcd34", .malformed, "percent-encoding is not decoded"),
        ("acmemarket://grona-preview?code=", .malformed, "empty code"),

        // The query: exactly one parameter, at most 256 bytes.
        ("acmemarket://grona-preview?", .malformed, "empty query"),
        ("acmemarket://grona-preview", .malformed, "no query"),
        ("acmemarket://grona-preview?clear=1", .clear, "clear without path"),
        ("https://shop.example.com/grona-preview?clear=1", .clear, "clear on the web domain"),
        ("acmemarket://grona-preview?clear=0", .malformed, "clear=0"),
        ("acmemarket://grona-preview?clear=1&code=AB12-cd34", .malformed, "extra parameter"),
        ("acmemarket://grona-preview?code=AB12-cd34&", .malformed, "trailing &"),
        ("acmemarket://grona-preview?code=AB12-cd34?x", .malformed, "? inside the query"),
        ("acmemarket://grona-preview?CODE=AB12-cd34", .malformed, "parameter names compare exactly"),
        ("acmemarket://grona-preview?" + query256, .malformed, "256-byte query, code too long"),
        ("acmemarket://grona-preview?" + query257, .malformed, "257-byte query"),

        // Fragment: no # anywhere, even empty or inside the code.
        ("acmemarket://grona-preview?code=AB12#cd34", .malformed, "# in the code"),
        ("acmemarket://grona-preview?code=AB12-cd34#", .malformed, "empty fragment"),
        ("https://shop.example.com?code=AB12-cd34#/grona-preview", .foreign, "the path is in the fragment"),

        // Authority: no user info, no port, even empty.
        ("acmemarket://grona-preview:?code=AB12-cd34", .malformed, "empty port"),
        ("acmemarket://tester@grona-preview?code=AB12-cd34", .malformed, "user info"),
        ("acmemarket://@grona-preview?code=AB12-cd34", .malformed, "empty user info"),
        ("acmemarket://grona-preview@evil.example?code=AB12-cd34", .foreign, "grona-preview as user info"),
        ("https://shop.example.com:443/grona-preview?code=AB12-cd34", .malformed, "port on the web domain"),

        // IPv6 literal hosts: their colons are not a port.
        ("https://[2001:db8::1]/grona-preview?code=AB12-cd34", .pair, "IPv6 host"),
        ("https://[2001:db8::1]:443/grona-preview?code=AB12-cd34", .malformed, "IPv6 host with port"),
        ("acmemarket://[::1]?code=AB12-cd34", .foreign, "IPv6 host is not grona-preview"),

        // Case: scheme and host ASCII-case-insensitive, path exact.
        ("ACMEMARKET://grona-preview?code=AB12-cd34", .pair, "scheme upper case"),
        ("acmemarket://GRONA-Preview?code=AB12-cd34", .pair, "host mixed case"),
        ("HTTPS://SHOP.EXAMPLE.COM/grona-preview?code=AB12-cd34", .pair, "https upper case"),
        ("https://shop.example.com/GRONA-PREVIEW?code=AB12-cd34", .foreign, "path compares exactly"),

        // Host and path of the app scheme: host grona-preview, path empty or /.
        ("acmemarket://grona-preview//?code=AB12-cd34", .malformed, "path //"),
        ("acmemarket://grona-preview/pair?code=AB12-cd34", .malformed, "other path"),
        ("acmemarket://grona-preview.example.com?code=AB12-cd34", .foreign, "longer host"),
        ("acmemarket://grona%2Dpreview?code=AB12-cd34", .foreign, "percent-encoded host"),
        ("acmemarket://preview?code=AB12-cd34", .foreign, "other host"),
        ("acmemarket:grona-preview?code=AB12-cd34", .foreign, "no authority"),
        ("http://grona-preview?code=AB12-cd34", .pair, "any scheme but https with host grona-preview"),

        // https: a non-empty host and the path /grona-preview exactly.
        ("https://grona-preview/grona-preview?code=AB12-cd34", .pair, "https with host grona-preview and the path"),
        ("https://grona-preview/?code=AB12-cd34", .malformed, "https with host grona-preview but path /"),
        ("https:///grona-preview?code=AB12-cd34", .malformed, "https with an empty host"),
        ("https:/grona-preview?code=AB12-cd34", .malformed, "https without authority"),
        ("https://shop.example.com/grona-preview/?code=AB12-cd34", .foreign, "path with a trailing /"),
        ("https://shop.example.com/grona%2Dpreview?code=AB12-cd34", .foreign, "percent-encoded path"),
        ("http://shop.example.com/grona-preview?code=AB12-cd34", .foreign, "http is not https"),

        // The scheme: [A-Za-z][A-Za-z0-9+.-]* before the first of : / ? #.
        ("a+b.c-9://grona-preview?code=AB12-cd34", .pair, "scheme with + . - and a digit"),
        ("1acme://grona-preview?code=AB12-cd34", .foreign, "scheme starts with a digit"),
        ("acme_market://grona-preview?code=AB12-cd34", .foreign, "scheme with _"),
        ("://grona-preview?code=AB12-cd34", .foreign, "empty scheme"),
        ("//grona-preview?code=AB12-cd34", .foreign, "no scheme"),
        ("grona-preview?code=AB12-cd34", .foreign, "no colon"),
        ("", .foreign, "empty"),
    ]

    @Test func theTableHasAtLeastFortyURLsAndEveryKind() {
        #expect(Self.table.count >= 40)
        #expect(Self.query256.utf8.count == 256 && Self.query257.utf8.count == 257)
        for kind in PreviewLinkKind.allCases { #expect(Self.table.contains { $0.kind == kind }) }
    }

    @Test(arguments: table.indices)
    func classifiesByTheGronaRules(index: Int) {
        let (url, kind, why) = Self.table[index]
        #expect(PreviewLinkKind.classify(Array(url.utf8)) == kind, "\(why): \(url)")
    }
}
