/// The implementation that inflates gzip input. Both give the same bytes, faults and offsets.
public enum InflateBackend: Sendable, Equatable {
    /// zlib: always available, the default.
    case zlib
    /// ISA-L's inflate, about twice as fast as zlib, loaded at run time (`ISALLibrary`).
    case isal
}
