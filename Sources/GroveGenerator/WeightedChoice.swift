/// Picks an index with a probability proportional to fixed integer weights, which is how the
/// generator keeps every kind of line in a realistic proportion.
struct WeightedChoice: Sendable {
    private let cumulative: [Int]

    init(_ weights: [Int]) {
        precondition(weights.allSatisfy { $0 >= 0 } && weights.reduce(0, +) > 0,
                     "weights must be non-negative with a positive sum")
        var running = 0
        cumulative = weights.map { weight in
            running += weight
            return running
        }
    }

    func pick(using rng: inout SeededRandom) -> Int {
        let target = rng.below(cumulative[cumulative.count - 1])
        // Tables hold a dozen entries at most: a linear scan beats a binary search.
        var index = 0
        while cumulative[index] <= target {
            index += 1
        }
        return index
    }
}
