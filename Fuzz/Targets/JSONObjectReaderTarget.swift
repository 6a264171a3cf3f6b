@testable import GroveReport

/// libFuzzer target: one line through the JSON object reader and the event validator (the whole
/// line classification of `run`), and the email mask over the same bytes.
///
/// Checks besides "no crash": classifying is deterministic, and masking is idempotent (a masked
/// text holds no email-like token).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONObjectReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = UnsafeBufferPointer(start: data, count: size)
    var classifier = LineClassifier()
    var symbols = SymbolTable()
    let first = classifier.classify(line, &symbols)
    let second = classifier.classify(line, &symbols)
    precondition(first == second, "classification is not deterministic")
    if let masked = EmailMask.masked(line) {
        precondition(masked.withUnsafeBufferPointer { EmailMask.masked($0) } == nil, "masking is not idempotent")
    }
    return 0
}
