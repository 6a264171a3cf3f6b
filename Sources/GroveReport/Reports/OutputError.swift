/// Why reports could not be written, or may not be written now; one line naming the path and
/// the system's reason in words.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    /// Another run holds the output directory (exit 75).
    case busy(path: String, waitedSeconds: Double)

    /// The error for the last failed system call on `path`, worded by `strerror`.
    public static func cannotWrite(path: String) -> OutputError {
        .cannotWrite(path: path, reason: errnoDescription())
    }

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            "cannot create output directory '\(path)': \(reason); choose another --out"
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason)"
        case .busy(let path, let waited):
            "output directory '\(path)' is in use by another run (waited \(DecimalFormat.shortest(waited)) s); "
                + "try again later or raise --lock-wait"
        }
    }
}
