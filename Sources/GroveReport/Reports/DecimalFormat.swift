/// Decimal formatting shared by the CSV and JSON writers.
package enum DecimalFormat {
    /// The shortest text that reads back as the same `Double` (Swift's own algorithm), e.g.
    /// `0.5`, `1.0`, `1e-05`.
    package static func shortest(_ value: Double) -> String {
        value.description
    }
}
