@testable import GroveReport

/// libFuzzer target: stage records (as `merge` and `render` read them) through the record decoder,
/// the three join stages and every report, and back through the encoder.
///
/// Checks besides "no crash" (no trap on hostile numbers): records the decoder accepts encode
/// to records it accepts again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var decoder = RecordDecoder()
    for line in UnsafeBufferPointer(start: data, count: size).split(separator: 0x0A) {
        do throws(RecordError) {
            try decoder.read(ArraySlice(line))
        } catch {
            return 0
        }
    }
    var state = decoder.state
    var again = RecordDecoder()
    for line in RecordEncoder.encode(state).split(separator: 0x0A) {
        do throws(RecordError) {
            try again.read(line)
        } catch {
            preconditionFailure("the encoder wrote a record the decoder refuses: \(error)")
        }
    }
    state.joinStage1(scope: .unit)
    state.joinStage2()
    state.joinStage3()
    let joined = JoinedState(afterJoins: state)
    let attribution = joined.attributionResult()
    let exposure = joined.exposureResult(configuration: nil)
    _ = AttributionReport.csv(attribution) + AttributionReport.json(attribution)
    _ = ExposureReport.csv(exposure.campaigns) + ExposureReport.json(exposure.campaigns) + PreviewAuditReport.json(exposure.audit)
    _ = SummaryReport.json(joined.accounting, wallSeconds: 0)
    return 0
}
