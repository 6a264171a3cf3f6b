/// ASCII hex digits, shared by the escaper and the generator's id writer.
public enum HexDigits {
    public static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)
    public static let uppercase: [UInt8] = Array("0123456789ABCDEF".utf8)
}
