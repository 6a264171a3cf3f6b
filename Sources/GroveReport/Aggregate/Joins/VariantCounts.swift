/// The counts of one (campaign, variant) row of `exposure.csv`, summed over join stages.
struct VariantCounts: MergeableRecord, Equatable {
    /// Units with a control decision: a count, so that a state can take a unit's contribution
    /// back out (docs/EXPOSURE.md: the variant is the control when any of its remaining decisions says so).
    var controlUnits = 0
    var units = 0
    var convertedUnits = 0
    var orders = 0
    /// Summed in 128 bits: 2^53 − 1 per order times many orders must not overflow.
    var revenueMinor: Int128 = 0
    /// Σr² over the variant's units, r a unit's revenue: for the revenue interval (docs/EXPOSURE.md).
    var revenueSquares = SquareSum()
    var impressions = 0
    /// By the day of the instant: (units first exposed, converted units whose first matching
    /// order was, 0), for `exposure_daily.csv`.
    var days = DailyTallies()

    mutating func merge(_ other: VariantCounts, symbols: SymbolTable) {
        controlUnits += other.controlUnits
        units += other.units
        convertedUnits += other.convertedUnits
        orders += other.orders
        revenueMinor += other.revenueMinor
        revenueSquares += other.revenueSquares
        impressions += other.impressions
        days.add(other.days)
    }

    func translated(_ translation: SymbolTranslation) -> VariantCounts { self }

    var control: Bool { controlUnits > 0 }
}

/// Per-campaign exclusion counts found by the join stages.
struct CampaignStats: MergeableRecord, Equatable {
    /// Distinct preview installs of the campaign.
    var previewInstalls = 0
    /// Clean events excluded by the unit-scope preview rule.
    var contaminated = 0
    var multiVariantUnits = 0

    mutating func merge(_ other: CampaignStats, symbols: SymbolTable) {
        previewInstalls += other.previewInstalls
        contaminated += other.contaminated
        multiVariantUnits += other.multiVariantUnits
    }

    func translated(_ translation: SymbolTranslation) -> CampaignStats { self }
}

/// Grona totals of the preview audit: preview and consent-denied events by type, and the leak check.
struct AuditTotals: MergeableRecord, Equatable {
    /// Accepted preview events by Grona type (orders included), consent regardless.
    var preview = [Int](repeating: 0, count: EventType.grona.count)
    /// Accepted consent-denied events that are not preview, by Grona type.
    var consentDenied = [Int](repeating: 0, count: EventType.grona.count)
    /// Preview or consent-denied events that reached the analysis, counted where it consumes them.
    var leaked = 0
    /// Every accepted `preview_link` by kind and outcome.
    var previewLinks = PreviewLinkCounts()
    /// The link violations of every `preview_link`, paired or not.
    var linkViolations = LinkViolations()

    mutating func merge(_ other: AuditTotals, symbols: SymbolTable) {
        for index in preview.indices {
            preview[index] += other.preview[index]
            consentDenied[index] += other.consentDenied[index]
        }
        leaked += other.leaked
        previewLinks.add(other.previewLinks)
        linkViolations.add(other.linkViolations)
    }

    func translated(_ translation: SymbolTranslation) -> AuditTotals { self }
}
