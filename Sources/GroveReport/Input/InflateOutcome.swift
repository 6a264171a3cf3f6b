/// How a read that leaves every fault to validating zlib ended (`inflateAllWithISAL`,
/// `inflateAllCheckedHere`).
enum InflateOutcome {
    /// Every member was inflated and only zero bytes, if anything, follow the last one.
    case finished
    /// Something is not plainly well-formed: read the file again with zlib, which names the
    /// fault and its offset, handing on only what comes after the `forwarded` bytes.
    case fallBack(forwarded: Int)
}
