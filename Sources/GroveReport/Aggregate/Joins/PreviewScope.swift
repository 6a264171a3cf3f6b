/// How far preview exclusion reaches (docs/EXPOSURE.md, Exclusions, rule 2).
public enum PreviewScope: String, Sendable, CaseIterable {
    /// Every event of a campaign from a preview install of that campaign is excluded.
    case unit
    /// Only the flagged events are excluded.
    case event
}
