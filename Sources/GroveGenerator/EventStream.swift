/// The generator's endless sequence of lines: it draws each line's time and kind, lets the
/// FunnelsGrove or Grona simulator (half the traffic each) or the defect writer fill it in, and
/// collects the bytes in one reusable buffer for the compressor.
struct EventStream {
    /// Which accounting bucket a line is meant for.
    enum LineKind {
        case event
        case rejected
        case ignored
    }

    private var rng: SeededRandom
    private var clock: SimulatedClock
    private var funnelsGrove: FunnelsGroveSimulator
    private var exposure: GronaSimulator
    private let defectShare: Double
    private let funnelsGroveShare: Double
    /// Production-shaped logs only: the SDK metadata added to every Grona line.
    private var metadata: SDKMetadata?
    /// Lines written since the buffer was last emptied.
    private(set) var buffer: JSONLineBuilder

    /// `shape` picks friendly or production-shaped lines; `journeys` (with `--days`) stretches the
    /// clock over those days and lets journeys cross midnight.
    init(
        seed: UInt64, lines: Int, defectShare: Double, shape: LogShape = .friendly, bufferCapacity: Int,
        journeys: MultiDayJourneys? = nil
    ) {
        rng = SeededRandom(seed: seed)
        clock = SimulatedClock(lines: lines, span: journeys?.span ?? SimulatedClock.span)
        funnelsGrove = FunnelsGroveSimulator(seed: seed, journeys: journeys, distinctIDs: shape.distinctIDs)
        exposure = GronaSimulator(
            seed: seed, newInstallShare: shape.newInstallShare, journeys: journeys, distinctIDs: shape.distinctIDs)
        self.defectShare = defectShare
        funnelsGroveShare = shape.funnelsGroveShare
        metadata = shape.hasSDKMetadata ? SDKMetadata(seed: seed) : nil
        buffer = JSONLineBuilder(capacity: bufferCapacity)
    }

    /// The simulated time of the last line drawn (before its jitter).
    var now: EpochNanoseconds {
        clock.now
    }

    /// Appends one line, `\n`-terminated (now and then `\r\n`), to `buffer`.
    mutating func appendLine() -> LineKind {
        let instant = clock.nextLineInstant(using: &rng)
        let style = TimestampStyle.random(using: &rng)
        var kind = LineKind.event
        if rng.chance(defectShare) {
            switch DefectiveLines.emit(at: instant, style: style, into: &buffer, using: &rng) {
            case .rejected: kind = .rejected
            case .ignored: kind = .ignored
            }
        } else if rng.chance(funnelsGroveShare) {
            funnelsGrove.emit(at: instant, style: style, into: &buffer, using: &rng)
        } else {
            exposure.emit(at: instant, style: style, into: &buffer, using: &rng)
            metadata?.decorate(&buffer)
        }
        buffer.endLine(crlf: rng.chance(0.001))
        return kind
    }

    /// Removes and returns the buffer's bytes from `offset` on: a line bound for another file.
    mutating func cutBuffer(from offset: Int) -> [UInt8] {
        buffer.cut(from: offset)
    }

    /// Empties the buffer once its bytes have been handed on.
    mutating func clearBuffer() {
        buffer.removeAll()
    }
}
