/// The unit a decision assigns: `install:<installId>` or `customer:<customerId>`.
public struct UnitKey: Hashable, Sendable {
    public var kind: DecisionUnit
    public var id: ByteString
}

/// A campaign and one install's id: the key preview-install exclusion works on.
public struct CampaignInstall: Hashable, Sendable {
    public var campaign: ByteString
    public var installId: ByteString
}

/// A campaign and a unit: the key multi-variant exclusion and first exposure work on.
struct CampaignUnit: Hashable {
    var campaign: ByteString
    var unit: UnitKey
}

/// A campaign and one of its variants: the key of an `exposure.csv` row.
struct CampaignVariant: Hashable {
    var campaign: ByteString
    var variant: ByteString
}
