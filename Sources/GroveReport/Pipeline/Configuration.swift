import Foundation

/// A Grona configuration export (docs/INPUTS.md, The configuration): which campaigns exist, whether they are
/// enabled, and their variants' traffic weights.
public struct Configuration: Sendable, Equatable {
    struct Variant: Sendable, Equatable {
        var id: ByteString
        var weight: Double
    }

    struct Campaign: Sendable, Equatable {
        var id: ByteString
        var enabled: Bool
        var variants: [Variant]
    }

    var campaigns: [ByteString: Campaign]

    init(campaigns: [Campaign] = []) {
        self.campaigns = Dictionary(campaigns.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        return try parse([UInt8](data), path: path)
    }

    /// Checks the shape: `{"campaigns": [{"id", "enabled"?, "variants"?: [{"id", "weight"}]}]}`.
    static func parse(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> Configuration {
        guard let document = JSONValue.parse(bytes) else { throw .invalidJSON(path: path) }
        guard case .object = document, case .array(let campaignValues)? = document["campaigns"] else {
            throw .malformed(path: path, problem: "the top level must be an object with a \"campaigns\" array")
        }
        var campaigns: [Campaign] = []
        var seen = Set<ByteString>()
        for (index, value) in campaignValues.enumerated() {
            let campaign = try parseCampaign(value, index: index, path: path)
            guard seen.insert(campaign.id).inserted else {
                throw .malformed(path: path, problem: "campaign id \"\(campaign.id)\" appears twice\(maskedNote(campaign.id))")
            }
            campaigns.append(campaign)
        }
        return Configuration(campaigns: campaigns)
    }

    private static func parseCampaign(_ value: JSONValue, index: Int, path: String) throws(ConfigurationError) -> Campaign {
        let place = "campaigns[\(index)]"
        guard case .object = value, case .string(let id)? = value["id"] else {
            throw .malformed(path: path, problem: "\(place) needs a string \"id\"")
        }
        var enabled = true
        switch value["enabled"] {
        case nil, .null?: break
        case .bool(let flag)?: enabled = flag
        default: throw .malformed(path: path, problem: "\(place).enabled must be true or false")
        }
        var variantValues: [JSONValue] = []
        switch value["variants"] {
        case nil, .null?: break
        case .array(let values)?: variantValues = values
        default: throw .malformed(path: path, problem: "\(place).variants must be an array")
        }
        var variants: [Variant] = []
        var seen = Set<ByteString>()
        for (variantIndex, variantValue) in variantValues.enumerated() {
            let variantPlace = "\(place).variants[\(variantIndex)]"
            guard case .object = variantValue, case .string(let variantId)? = variantValue["id"] else {
                throw .malformed(path: path, problem: "\(variantPlace) needs a string \"id\"")
            }
            guard case .number(let weight)? = variantValue["weight"], weight.isFinite, weight >= 0 else {
                throw .malformed(path: path, problem: "\(variantPlace) needs a \"weight\": a finite number ≥ 0")
            }
            // Ids are names that reach the reports: masked like the logs' (docs/EVENTS.md, Names in outputs).
            let variant = Variant(id: EmailMask.apply(ByteString(variantId)), weight: weight)
            guard seen.insert(variant.id).inserted else {
                throw .malformed(
                    path: path,
                    problem: "variant id \"\(variant.id)\" appears twice in campaign \"\(EmailMask.apply(id))\"\(maskedNote(variant.id))")
            }
            variants.append(variant)
        }
        return Campaign(id: EmailMask.apply(ByteString(id)), enabled: enabled, variants: variants)
    }

    /// Explains a duplicate that only masking made: two different addresses are both `[email]`.
    private static func maskedNote(_ id: ByteString) -> String {
        id.description.contains("[email]") ? " (email-like tokens in ids read as [email])" : ""
    }
}

/// Why a configuration file cannot be used; each message names the file and what to fix.
public enum ConfigurationError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String)
    case invalidJSON(path: String)
    case malformed(path: String, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read configuration file '\(path)': check the path given to --config"
        case .invalidJSON(let path):
            "configuration file '\(path)' is not valid JSON"
        case .malformed(let path, let problem):
            "configuration file '\(path)': \(problem)"
        }
    }
}
