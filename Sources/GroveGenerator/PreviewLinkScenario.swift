import GroveReport

/// One `preview_link` line as the generator plays it: which link a tester opened and what the
/// SDK did with it. Most links are well-formed and pair; some are cleared, rejected or ignored,
/// some are malformed or foreign, and a few show each SDK bug the audit looks for.
struct PreviewLinkScenario {
    enum Bug {
        /// Paired or cleared on a malformed or foreign link.
        case invalidLinkAccepted
        /// Cleared on a pairing link, or paired on a clearing one.
        case wrongOutcome
        /// Paired while consent is denied.
        case pairedWhileDenied
        /// A pin longer than 24 hours (sometimes by one nanosecond).
        case pinTooLong
    }

    private enum Plan: CaseIterable {
        case pair, pairExactlyOneDay, clear, pairRejected, pairIgnored, clearRejected, clearIgnored,
             malformedRejected, malformedIgnored, foreignRejected, foreignIgnored
        case invalidLinkAccepted, wrongOutcome, pairedWhileDenied, pinTooLong
    }
    private static let planChoice = WeightedChoice([400, 60, 70, 30, 25, 10, 10, 60, 15, 30, 30, 35, 30, 30, 35])

    /// The URL, as JSON string content (ASCII; `/` now and then written `\/`).
    var url: [UInt8]
    var outcome: PreviewLinkOutcome
    /// How long the pin lasts, for `paired`.
    var pinNanoseconds: Int64 = 0
    var reason: StaticString?
    var bug: Bug?

    static let hour: Int64 = 3_600_000_000_000
    static let day: Int64 = 24 * hour

    static func random(using rng: inout SeededRandom) -> PreviewLinkScenario {
        var scenario: PreviewLinkScenario
        switch Plan.allCases[planChoice.pick(using: &rng)] {
        case .pair:
            scenario = .init(url: pairURL(using: &rng), outcome: .paired)
            scenario.pinNanoseconds = rng.chance(0.5)
                ? [1, 4, 8, 12, 24][rng.below(5)] * hour : Int64(rng.inRange(3600...86_400)) * 1_000_000_000
        case .pairExactlyOneDay:
            scenario = .init(url: pairURL(using: &rng), outcome: .paired, pinNanoseconds: day)
        case .clear:
            scenario = .init(url: clearURL(using: &rng), outcome: .cleared)
        case .pairRejected:
            scenario = .init(url: pairURL(using: &rng), outcome: .rejected,
                             reason: rng.chance(0.5) ? "code expired" : "code already used")
        case .pairIgnored:
            scenario = .init(url: pairURL(using: &rng), outcome: .ignored, reason: "exchange in flight")
        case .clearRejected:
            scenario = .init(url: clearURL(using: &rng), outcome: .rejected, reason: "no pin to clear")
        case .clearIgnored:
            scenario = .init(url: clearURL(using: &rng), outcome: .ignored, reason: "no preview URL configured")
        case .malformedRejected:
            scenario = .init(url: malformedURL(using: &rng), outcome: .rejected, reason: "malformed link")
        case .malformedIgnored:
            scenario = .init(url: malformedURL(using: &rng), outcome: .ignored, reason: "exchange in flight")
        case .foreignRejected:
            scenario = .init(url: foreignURL(using: &rng), outcome: .rejected, reason: "not a preview link")
        case .foreignIgnored:
            scenario = .init(url: foreignURL(using: &rng), outcome: .ignored)
        case .invalidLinkAccepted:
            let url = rng.chance(0.7) ? malformedURL(using: &rng) : foreignURL(using: &rng)
            scenario = .init(url: url, outcome: rng.chance(0.7) ? .paired : .cleared, pinNanoseconds: 8 * hour)
            scenario.bug = .invalidLinkAccepted
        case .wrongOutcome:
            scenario = rng.chance(0.5)
                ? .init(url: pairURL(using: &rng), outcome: .cleared)
                : .init(url: clearURL(using: &rng), outcome: .paired, pinNanoseconds: 8 * hour)
            scenario.bug = .wrongOutcome
        case .pairedWhileDenied:
            scenario = .init(url: pairURL(using: &rng), outcome: .paired, pinNanoseconds: 12 * hour)
            scenario.bug = .pairedWhileDenied
        case .pinTooLong:
            let excess: [Int64] = [1, 1_000_000_000, day, 6 * day]
            scenario = .init(url: pairURL(using: &rng), outcome: .paired, pinNanoseconds: day + excess[rng.below(excess.count)])
            scenario.bug = .pinTooLong
        }
        if rng.chance(0.1) { scenario.url = escapingSlashes(scenario.url) }
        return scenario
    }

    // MARK: URLs

    private static let appSchemes = ["acmemarket", "acmemarket", "acmemarket", "AcmeMarket"]
    private static let webOrigins = ["https://shop.acmemarket.example", "https://shop.acmemarket.example",
                                     "HTTPS://Shop.AcmeMarket.example", "https://[2001:db8::7]"]
    private static let codeAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-".utf8)

    /// A pairing code of `length` characters of `A–Z a–z 0–9 -`.
    static func code(length: Int, using rng: inout SeededRandom) -> String {
        String(decoding: (0..<length).map { _ in codeAlphabet[rng.below(codeAlphabet.count)] }, as: UTF8.self)
    }

    /// The two places a preview link lives: the app's scheme with host `grona-preview`, or the
    /// app's web domain under `/grona-preview`.
    private static func place(using rng: inout SeededRandom) -> String {
        if rng.chance(0.6) {
            let host = rng.chance(0.9) ? "grona-preview" : "Grona-Preview"
            return appSchemes[rng.below(appSchemes.count)] + "://" + host + (rng.chance(0.2) ? "/" : "")
        }
        return webOrigins[rng.below(webOrigins.count)] + "/grona-preview"
    }

    private static func pairURL(using rng: inout SeededRandom) -> [UInt8] {
        let length = rng.chance(0.8) ? 12 : rng.inRange(8...64)
        return Array((place(using: &rng) + "?code=" + code(length: length, using: &rng)).utf8)
    }

    private static func clearURL(using rng: inout SeededRandom) -> [UInt8] {
        Array((place(using: &rng) + "?clear=1").utf8)
    }

    private static func malformedURL(using rng: inout SeededRandom) -> [UInt8] {
        let code = code(length: 12, using: &rng)
        let url: String
        switch rng.below(12) {
        case 0: url = "acmemarket://grona-preview?code=\(code)#debug"
        case 1: url = "acmemarket://grona-preview:8080?code=\(code)"
        case 2: url = "acmemarket://grona-preview?code=\(Self.code(length: rng.inRange(1...7), using: &rng))"
        case 3: url = "acmemarket://grona-preview?code=\(Self.code(length: rng.inRange(65...80), using: &rng))"
        case 4: url = "https://shop.acmemarket.example/grona-preview?code=\(code)&code=\(code)"
        case 5: url = "https://shop.acmemarket.example/grona-preview?code=\(code)&utm_source=qr"
        case 6: url = "acmemarket://grona-preview?"
        case 7: url = "acmemarket://tester@grona-preview?code=\(code)"
        case 8: url = "acmemarket://grona-preview?clear=0"
        case 9: url = "acmemarket://grona-preview?code=\(code.prefix(4))%2D\(code.dropFirst(4))"
        case 10: url = "https:///grona-preview?code=\(code)"
        default: url = "acmemarket://grona-preview/pair?code=\(code)"
        }
        return Array(url.utf8)
    }

    private static func foreignURL(using rng: inout SeededRandom) -> [UInt8] {
        let code = code(length: 12, using: &rng)
        let urls = [
            "https://shop.acmemarket.example/preview?code=\(code)", "acmemarket://product/sku-1234",
            "https://go.funnelsgrove.com/grv8k2Qa/spring", "grona-preview?code=\(code)",
            "https://shop.acmemarket.example/grona-preview/?code=\(code)", "acmemarket:grona-preview?code=\(code)",
        ]
        return Array(urls[rng.below(urls.count)].utf8)
    }

    /// JSON allows `\/` for `/`; some SDK versions write it.
    private static func escapingSlashes(_ url: [UInt8]) -> [UInt8] {
        url.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
    }
}
