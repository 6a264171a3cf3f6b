/// Adds accepted events to a partial state one event late, having prefetched the index entry each
/// will look up, so that the cache miss of that lookup overlaps with reading the next line
/// instead of stalling the add. Events are added in arrival order, so results are unchanged;
/// `flush` adds the last one, and must run before the state is read.
struct EventLookahead {
    private var waiting: Event?

    mutating func add<State: WorkerState>(_ event: Event, to state: inout State) {
        state.prefetch(event)
        if let previous = waiting { state.add(previous) }
        waiting = event
    }

    mutating func flush<State: WorkerState>(into state: inout State) {
        if let previous = waiting { state.add(previous) }
        waiting = nil
    }
}
