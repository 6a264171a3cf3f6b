@testable import GroveReport

/// libFuzzer target: one `url` value through the preview-link classifier.
///
/// Checks besides "no crash": classifying is deterministic, and a link with a fragment is never
/// `pair` or `clear` (docs/EVENTS.md, `preview_link`: no `#` anywhere in a well-formed link).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreviewLinkKind(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let url = UnsafeBufferPointer(start: data, count: size)
    let kind = PreviewLinkKind.classify(url)
    precondition(PreviewLinkKind.classify(url) == kind, "classification is not deterministic")
    let withFragment = PreviewLinkKind.classify(Array(url) + Array("#x".utf8))
    precondition(withFragment != .pair && withFragment != .clear, "a link with a fragment was well-formed")
    return 0
}
