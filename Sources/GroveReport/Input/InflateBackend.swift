/// The implementation that inflates gzip input. Both give the same bytes, faults and offsets.
public enum InflateBackend: Sendable, Equatable {
    /// zlib: always available, the default.
    case zlib
    /// ISA-L's inflate, about twice as fast as zlib, loaded at run time (`ISALLibrary`).
    case isal
}

/// What `--inflate` asks for.
public enum InflateChoice: String, Sendable, CaseIterable {
    case zlib, isal, auto

    /// The backend to use, given whether ISA-L could be loaded: `auto` takes ISA-L when it is
    /// there and zlib otherwise; `isal` without the library is a usage error.
    public func resolve(isalLoadError: String?) throws(UsageError) -> InflateBackend {
        switch self {
        case .zlib:
            return .zlib
        case .auto:
            return isalLoadError == nil ? .isal : .zlib
        case .isal:
            if let isalLoadError {
                throw UsageError(
                    "--inflate isal needs ISA-L (\(ISALLibrary.fileName), Debian package libisal2), which could "
                        + "not be loaded (\(isalLoadError)): install it, or use --inflate zlib or auto")
            }
            return .isal
        }
    }
}
