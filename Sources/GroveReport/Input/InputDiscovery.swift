#if canImport(Glibc)
import Glibc
#endif

/// Expands command-line inputs into the files to read (docs/INPUTS.md).
///
/// A named file is read whatever its name; a directory is walked recursively for regular files
/// (or links to them) ending in `.ndjson`, `.jsonl`, `.ndjson.gz`, `.jsonl.gz` or `.gz`, skipping
/// hidden entries and never following links to directories, in byte-wise sorted path order.
enum InputDiscovery {
    /// `.ndjson.gz` and `.jsonl.gz` end in `.gz` too.
    static let logSuffixes = [".ndjson", ".jsonl", ".gz"]

    /// The files the arguments name, and the arguments that could not be read at all.
    static func expand(_ arguments: [String]) -> (files: [InputFile], errors: [InputError]) {
        var files: [InputFile] = []
        var errors: [InputError] = []
        for argument in arguments {
            if argument == "-" {
                files.append(.standardInput)
                continue
            }
            var info = stat()
            guard stat(argument, &info) == 0 else {
                errors.append(InputError(file: argument, error: "cannot open: \(errnoDescription())", offset: 0))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                let root = trimmingTrailingSlashes(argument)
                var relativePaths: [[UInt8]] = []
                walk(directory: argument, relative: "", into: &relativePaths, errors: &errors, displayRoot: root)
                relativePaths.sort { $0.lexicographicallyPrecedes($1) }
                for relative in relativePaths {
                    let suffix = String(decoding: relative, as: UTF8.self)
                    files.append(InputFile(displayName: root + "/" + suffix, path: argument + "/" + suffix))
                }
            } else {
                files.append(InputFile(displayName: argument, path: argument))
            }
        }
        return (files, errors)
    }

    private static func walk(
        directory: String, relative: String, into paths: inout [[UInt8]], errors: inout [InputError],
        displayRoot: String
    ) {
        let fullPath = relative.isEmpty ? directory : directory + "/" + relative
        guard let handle = opendir(fullPath) else {
            let shown = relative.isEmpty ? displayRoot : displayRoot + "/" + relative
            errors.append(InputError(file: shown, error: "cannot read directory: \(errnoDescription())", offset: 0))
            return
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            let childPath = directory + "/" + childRelative
            var linkInfo = stat()
            guard lstat(childPath, &linkInfo) == 0 else { continue }
            switch linkInfo.st_mode & S_IFMT {
            case S_IFDIR:
                walk(directory: directory, relative: childRelative, into: &paths, errors: &errors,
                     displayRoot: displayRoot)
            case S_IFREG:
                if hasLogSuffix(name) { paths.append(Array(childRelative.utf8)) }
            case S_IFLNK:
                var targetInfo = stat()
                if stat(childPath, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFREG, hasLogSuffix(name) {
                    paths.append(Array(childRelative.utf8))
                }
            default:
                continue
            }
        }
    }

    static func hasLogSuffix(_ name: String) -> Bool {
        logSuffixes.contains { name.hasSuffix($0) }
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed == "/" ? "" : String(trimmed)
    }
}
