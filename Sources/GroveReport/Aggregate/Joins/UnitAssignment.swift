/// A unit's decisions for one variant: the earliest of them and whether any marks the control.
struct VariantExposure: Sendable, Equatable {
    var variant: Symbol
    var firstExposure: Instant
    var control: Bool

    /// Folds in more decisions of the same unit and variant.
    mutating func absorb(_ other: VariantExposure) {
        firstExposure = min(firstExposure, other.firstExposure)
        control = control || other.control
    }
}

/// The variants one unit was assigned in one campaign, by its remaining decisions (join stage 1,
/// keyed by campaign and unit): rule 3 and first exposure are decided from it in stage 2.
struct UnitAssignment: MergeableRecord {
    /// By variant.
    private(set) var byVariant = SmallMap<Symbol, VariantExposure>()

    var variants: some RandomAccessCollection<VariantExposure> { byVariant.values }

    mutating func add(_ variant: VariantExposure) {
        byVariant.upsert(variant.variant, { variant }) { $0.absorb(variant) }
    }

    mutating func merge(_ other: UnitAssignment, symbols: SymbolTable) {
        for variant in other.variants { add(variant) }
    }

    func translated(_ translation: SymbolTranslation) -> UnitAssignment {
        var copy = UnitAssignment()
        for variant in variants {
            copy.add(VariantExposure(variant: translation[variant.variant], firstExposure: variant.firstExposure, control: variant.control))
        }
        return copy
    }
}

/// The exposures of one unit key and the used orders that name it (keyed by unit): orders arrive
/// in join stage 1, exposures in stage 2, and stage 3 matches them.
struct UnitConversion: MergeableRecord {
    struct Exposure: Sendable, Equatable {
        var campaign: Symbol
        var variant: Symbol
        var firstExposure: Instant
    }

    struct OrderMatch: Sendable, Equatable {
        var ts: Instant
        var amountMinor: Int64
    }

    /// A unit usually has one exposure and at most one order: both stay inline until a second.
    var exposures = SmallArray<Exposure>()
    var orders = SmallArray<OrderMatch>()

    mutating func merge(_ other: UnitConversion, symbols: SymbolTable) {
        exposures.append(contentsOf: other.exposures)
        orders.append(contentsOf: other.orders)
    }

    func translated(_ translation: SymbolTranslation) -> UnitConversion {
        var copy = self
        copy.exposures = SmallArray(exposures.lazy.map {
            Exposure(campaign: translation[$0.campaign], variant: translation[$0.variant], firstExposure: $0.firstExposure)
        })
        return copy
    }
}
