/// Accepted `preview_link`s by the kind of their URL and the SDK's outcome: the
/// `totals.preview_links` table of the audit, every cell written, also when 0.
struct PreviewLinkCounts: Sendable, Equatable {
    /// Row-major: kind, then outcome, in their declaration order.
    private(set) var cells = [Int](repeating: 0, count: Self.cellCount)

    static let cellCount = PreviewLinkKind.allCases.count * PreviewLinkOutcome.allCases.count

    init() {}

    /// From the cells in row-major order (stage records); nil for the wrong number of cells.
    init?(cells: [Int]) {
        guard cells.count == Self.cellCount else { return nil }
        self.cells = cells
    }

    subscript(kind: PreviewLinkKind, outcome: PreviewLinkOutcome) -> Int {
        cells[Self.index(kind, outcome)]
    }

    var total: Int { cells.reduce(0, +) }

    mutating func count(_ kind: PreviewLinkKind, _ outcome: PreviewLinkOutcome) {
        cells[Self.index(kind, outcome)] += 1
    }

    mutating func add(_ other: PreviewLinkCounts) {
        for index in cells.indices { cells[index] += other.cells[index] }
    }

    private static func index(_ kind: PreviewLinkKind, _ outcome: PreviewLinkOutcome) -> Int {
        kind.rawValue * PreviewLinkOutcome.allCases.count + outcome.rawValue
    }
}
