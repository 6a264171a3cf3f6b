import CISAL
#if canImport(Glibc)
import Glibc
#endif

/// ISA-L's inflate entry points and its gzip CRC-32, opened with `dlopen` the first time they are
/// asked for.
///
/// ISA-L is optional: the build needs neither the library nor its headers (`CISAL` only mirrors
/// the ABI), and without it grove-report inflates with zlib.
public struct ISALLibrary: @unchecked Sendable {
    /// The shared object of ISA-L 2.x, as Debian's `libisal2` installs it.
    static let fileName = "libisal.so.2"

    let inflateInit: grove_isal_inflate_init_fn
    let inflateReset: grove_isal_inflate_reset_fn
    let inflate: grove_isal_inflate_fn
    let crc32: grove_isal_crc32_gzip_fn

    /// The library of this process, or why it could not be loaded.
    static let shared: Result<ISALLibrary, ISALLoadError> = load(fileName)

    /// Opens `fileName` and looks up the three functions inflating needs, and the CRC-32.
    static func load(_ fileName: String) -> Result<ISALLibrary, ISALLoadError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(ISALLoadError(message: dlerror().map { String(cString: $0) } ?? "\(fileName) not found"))
        }
        guard let initSymbol = dlsym(handle, "isal_inflate_init"),
              let resetSymbol = dlsym(handle, "isal_inflate_reset"),
              let inflateSymbol = dlsym(handle, "isal_inflate"),
              let crcSymbol = dlsym(handle, "crc32_gzip_refl")
        else {
            dlclose(handle)
            return .failure(ISALLoadError(message: "\(fileName) lacks isal_inflate or crc32_gzip_refl"))
        }
        return .success(ISALLibrary(
            inflateInit: unsafeBitCast(initSymbol, to: grove_isal_inflate_init_fn.self),
            inflateReset: unsafeBitCast(resetSymbol, to: grove_isal_inflate_reset_fn.self),
            inflate: unsafeBitCast(inflateSymbol, to: grove_isal_inflate_fn.self),
            crc32: unsafeBitCast(crcSymbol, to: grove_isal_crc32_gzip_fn.self)))
    }

    /// Why `--inflate isal` cannot be honoured, or nil when ISA-L is there.
    public static var loadError: String? {
        if case .failure(let error) = shared { return error.message }
        return nil
    }
}

/// `dlopen`'s reason for not loading ISA-L.
struct ISALLoadError: Error, Sendable {
    var message: String
}
