/// What one worker thread fills from its files (`FileProcessor`): the table its events are
/// interned into, the accounting, the rejects a run without a spool keeps, and the partial state
/// of the analyses. `run` fills a `ShardedPartialState`, which its merge moves into partitions
/// whole; the stage commands and `run --state` fill a `PartialState`, which they store.
protocol WorkerState: Sendable {
    init()
    var symbols: SymbolTable { get set }
    var accounting: Accounting { get set }
    var rejects: [RejectRecord] { get set }
    /// Adds an accepted event, interned into `symbols`.
    mutating func add(_ event: Event)
    /// Starts reading the index entry `add(event)` will look up (`EventLookahead`).
    mutating func prefetch(_ event: Event)
}
