extension JoinedState {
    /// Attribution rows (byte-wise by campaign, at most `maxCampaigns` named) and totals.
    func attributionResult(maxCampaigns: Int = CampaignFold.defaultMaximum) -> AttributionResult {
        var result = AttributionResult(campaigns: [], totals: AttributionCounts())
        // Decided on symbols, so a run of many campaigns makes names only for those it keeps.
        let (keys, records) = (joins.campaignAttribution.keys, joins.campaignAttribution.records)
        let fold = CampaignFold(
            count: keys.count, maximum: maxCampaigns, weight: { records[$0].clicks },
            precedes: { symbols.precedes(keys[$0], keys[$1]) },
            isNamedLikeTheFold: { symbols.bytes(keys[$0]).elementsEqual(CampaignFold.name.bytes) })
        var others = AttributionCounts()
        for (position, (key, counts)) in zip(keys, records).enumerated() {
            result.totals.add(counts)
            if fold.folds(position) { others.add(counts) } else { result.campaigns.append((symbols.string(key), counts)) }
        }
        result.campaigns.sort { $0.campaign < $1.campaign }
        if fold.isFolding { CampaignFold.insert((CampaignFold.name, others), into: &result.campaigns) { $0.campaign } }
        result.foldedCampaigns = fold.foldedCount
        let extras = joins.attributionExtras
        result.duplicateClicks = extras.duplicateClicks
        result.orphanOpens = extras.orphanOpens
        result.unresolvedOpens = extras.unresolvedOpens
        result.orphanBinds = extras.orphanBinds
        result.bindsOutsideWindow = extras.bindsOutsideWindow
        return result
    }
}
