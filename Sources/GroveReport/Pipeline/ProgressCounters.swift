import Synchronization

/// Counters the workers bump and a progress line reads, without locks.
public final class ProgressCounters: Sendable {
    /// What a run is doing, named on the progress line so that it never looks frozen.
    public enum Phase: Int, Sendable {
        case reading, merging, joining, writing

        public var name: String { "\(self)" }
    }

    private let phaseNumber = Atomic<Int>(Phase.reading.rawValue)
    private let files = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let events = Atomic<Int>(0)

    public init() {}

    /// Records one decompressed chunk and the events accepted from it.
    func addChunk(bytes count: Int, events accepted: Int) {
        bytes.add(count, ordering: .relaxed)
        events.add(accepted, ordering: .relaxed)
    }

    /// The phase the run is in now.
    public internal(set) var phase: Phase {
        get { Phase(rawValue: phaseNumber.load(ordering: .relaxed)) ?? .reading }
        set { phaseNumber.store(newValue.rawValue, ordering: .relaxed) }
    }

    func finishFile() {
        files.add(1, ordering: .relaxed)
    }

    /// Files finished, decompressed bytes and accepted events so far.
    public var snapshot: (files: Int, bytes: Int, events: Int) {
        (files.load(ordering: .relaxed), bytes.load(ordering: .relaxed), events.load(ordering: .relaxed))
    }
}
