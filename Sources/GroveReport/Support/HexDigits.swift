/// ASCII hex digits, shared by the escaper and the generator's id writer.
package enum HexDigits {
    package static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)
    package static let uppercase: [UInt8] = Array("0123456789ABCDEF".utf8)
}
