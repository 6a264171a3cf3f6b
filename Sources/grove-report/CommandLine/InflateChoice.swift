import GroveReport

/// What `--inflate` asks for; `resolve` turns it into the library's `InflateBackend`.
enum InflateChoice: String, Sendable, CaseIterable {
    case zlib, isal, auto

    /// The backend to use, given whether ISA-L could be loaded: `auto` takes ISA-L when it is
    /// there and zlib otherwise; `isal` without the library is a usage error.
    func resolve(isalLoadError: String?) throws(UsageError) -> InflateBackend {
        switch self {
        case .zlib:
            return .zlib
        case .auto:
            return isalLoadError == nil ? .isal : .zlib
        case .isal:
            if let isalLoadError {
                // The file name `ISALLibrary` opens, as the help of `--inflate` also names it.
                throw UsageError(
                    "--inflate isal needs ISA-L (libisal.so.2, Debian package libisal2), which could "
                        + "not be loaded (\(isalLoadError)): install it, or use --inflate zlib or auto")
            }
            return .isal
        }
    }
}
