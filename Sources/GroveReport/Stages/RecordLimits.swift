/// The bounds a stage input must keep, and what it has used of them so far.
final class RecordLimits {
    /// 2^53 − 1: the largest integer a record's JSON number holds exactly.
    static let maximumValue = 9_007_199_254_740_991
    /// The sum of every count of a stage input: far above any real run, far below `Int.max`.
    static let maximumCountTotal = 1 << 62
    /// Input errors a stage input may list (each is held in memory).
    static let maximumInputErrors = 1 << 20
    /// Revenue sums are Int128: the same reasoning, with room for 2^53 orders of 2^53.
    static let maximumRevenueTotal: Int128 = 1 << 120
    /// 0001-01-01T00:00:00+23:59 to 9999-12-31T23:59:59-23:59, in seconds from 1970.
    static let instantSeconds: ClosedRange<Int64> = -62_135_596_800 - 86_400 ... 253_402_300_799 + 86_400

    private var countTotal = 0
    private var inputErrors = 0
    private var revenueTotal: Int128 = 0

    func addCount(_ count: Int, line: Int) throws(RecordError) {
        countTotal += count
        guard countTotal <= Self.maximumCountTotal else {
            throw RecordError(line: line, problem: "the counts of the input add up to more than 2^62")
        }
    }

    func addInputErrors(_ count: Int, line: Int) throws(RecordError) {
        inputErrors += count
        guard inputErrors <= Self.maximumInputErrors else {
            throw RecordError(line: line, problem: "more than \(Self.maximumInputErrors) input errors")
        }
    }

    func addRevenue(_ revenue: Int128, line: Int) throws(RecordError) {
        guard revenue <= Self.maximumRevenueTotal - revenueTotal else {
            throw RecordError(line: line, problem: "the revenues of the input add up to more than 2^120")
        }
        revenueTotal += revenue
    }
}
