/// One input to read: a file path, or standard input (`-`).
struct InputFile: Sendable, Hashable {
    /// How every output names the input: the argument as given, or `directory/relative/path`.
    var displayName: String
    /// The path to open; nil for standard input.
    var path: String?

    init(displayName: String, path: String?) {
        self.displayName = displayName
        self.path = path
    }

    static let standardInput = InputFile(displayName: "-", path: nil)
}

/// An input that could not be read whole: the file, what went wrong, and the compressed byte
/// offset where it was detected.
public struct InputError: Sendable, Hashable {
    public var file: String
    public var error: String
    public var offset: Int

    init(file: String, error: String, offset: Int) {
        self.file = file
        self.error = error
        self.offset = offset
    }
}
