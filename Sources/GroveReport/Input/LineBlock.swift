/// Whole lines of one input, cut from its stream (`LineSplitter.cutBlock`) so that another
/// worker can split and classify them (`LineBlockExchange`) exactly as the stream's own splitter
/// would have: numbered on from `linesBefore`, at `streamOffset` in the stream.
struct LineBlock: Sendable {
    /// The input's index among the run's files.
    let file: Int
    /// The lines, each ending in `\n`.
    let bytes: [UInt8]
    /// The lines of the stream before the block's first.
    let linesBefore: Int
    /// The stream offset of the block's first byte.
    let streamOffset: Int
    /// The offset reported for the block's first line: its first byte's, but 0 for the first
    /// line of a stream that starts with a BOM (docs/INPUTS.md, Lines).
    let firstLineOffset: Int
    /// Where the block's rejects go in the file's rejects: after the segments before it.
    var segment = 0
}
