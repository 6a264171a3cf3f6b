/// Lines the export delivers late (`generate --days`): each keeps its `ts` but is held back
/// and written at the start of a later day's file, as a backfilled export would. A click that
/// arrives this way resolves the opens and bindings of earlier files; an order, a decision or a
/// duplicate click line can move results computed nights before.
struct LateDeliveries {
    /// Held lines by the day whose file they go into.
    private var held: [Int: [[UInt8]]] = [:]
    private var rng: SeededRandom

    init(seed: UInt64) {
        rng = SeededRandom(seed: seed, stream: 10, index: 0)
    }

    /// The day a line written on `day` is delivered: usually `day`, for a share of lines one or
    /// two days later. Its own seeded stream, so the lines themselves do not depend on it.
    mutating func deliveryDay(forLineOf day: Int) -> Int {
        rng.chance(MultiDayJourneys.lateDeliveryShare) ? day + 1 + rng.below(2) : day
    }

    /// Holds `line` back until `day`.
    mutating func hold(_ line: [UInt8], until day: Int) {
        held[day, default: []].append(line)
    }

    /// The lines due on `day`, in the order they were held; they are forgotten.
    mutating func release(day: Int) -> [UInt8] {
        (held.removeValue(forKey: day) ?? []).flatMap { $0 }
    }

    /// Every line still held (due after the last day), in day order: the last file takes them.
    mutating func releaseAll() -> [UInt8] {
        let days = held.keys.sorted()
        return days.flatMap { release(day: $0) }
    }
}
