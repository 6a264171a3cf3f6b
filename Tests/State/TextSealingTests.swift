import Testing
@testable import GroveReport

/// A text's sealed form against SHA-256 of the salt and the text computed apart (Python's
/// `hashlib.sha256(b"salt-1" + text).hexdigest()`).
struct TextSealingTests {
    private let sealing = TextSealing(salt: Array("salt-1".utf8))

    private func sealed(_ text: String, always: Bool) -> String {
        sealing.seal(ByteString(text), always: always).description
    }

    @Test func anEmailSealsToTheSaltedDigestOfItsBytes() {
        #expect(sealed("ana@example.com", always: false) == "sha256:b585a0d594e3c305e5cc5fe4c89dd51c79b47932727a35d0c1c669bf48e488cd")
        #expect(sealed("x@y", always: true) == "sha256:0b07f3832b9271c622ad1009a422e44c9bbd051f47db4ac867a702389a03332e")
    }

    /// Each text goes on from the salt alone, whatever was sealed before it.
    @Test func sealingOneTextAfterAnotherGivesEachItsOwnDigest() {
        let first = sealed("ana@example.com", always: true)
        #expect(sealed("x@y", always: true) == "sha256:0b07f3832b9271c622ad1009a422e44c9bbd051f47db4ac867a702389a03332e")
        #expect(sealed("ana@example.com", always: true) == first)
    }

    @Test func aTextWithoutAnAtSignOrAlreadySealedStaysAsItIs() {
        #expect(sealed("no sign here", always: true) == "no sign here")
        let once = sealed("ana@example.com", always: true)
        #expect(sealed(once, always: true) == once)
    }

    @Test func aSealedTextsDigestBytesGiveItsTextBack() throws {
        let text = Array(sealed("ana@example.com", always: true).utf8)
        let digest = try #require(text.withUnsafeBufferPointer { TextSealing.digestBytes(ofSealed: $0) })
        #expect(digest.count == 32)
        #expect(TextSealing.sealedText(digestBytes: digest) == text)
        #expect(Array("sha256:".utf8).withUnsafeBufferPointer { TextSealing.digestBytes(ofSealed: $0) } == nil)
    }
}
