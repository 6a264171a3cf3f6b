import CCrypto
import Foundation
import Testing
@testable import GroveReport

/// The state's keyed digests (SPEC section 9, "cost follows the night, whatever the ids"): no
/// sender can aim ids at one digest, so a night reads only the stored rows of its own keys.
@Suite(.serialized)
struct StateKeyDigestTests {
    /// SipHash-2-4's reference vector (key 00…0f, message 00…0e).
    @Test func sipHashIsTheReferenceFunction() {
        let digest = StateKeyDigest(key: Array(0..<16))
        let message = [UInt8](0..<15)
        #expect(message.withUnsafeBufferPointer(digest.sipHash) == 0xA129_CA61_49BE_45E5)
    }

    /// The written-out SipHash-2-4 agrees with OpenSSL's on every length up to 64 bytes, under
    /// random keys and messages.
    @Test func sipHashAgreesWithOpenSSL() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            for _ in 0..<8 {
                let key = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(message.withUnsafeBufferPointer(StateKeyDigest(key: key).sipHash) == OpenSSLSipHash.hash(message, key: key))
            }
        }
    }

    @Test func digestsDependOnTheStateSalt() {
        let key = Array("[\"click\",\"clk_1\"]".utf8)
        let first = StateKeyDigest(salt: Array("one salt".utf8))
        #expect(first.of(key) == StateKeyDigest(salt: Array("one salt".utf8)).of(key))
        #expect(first.of(key) != StateKeyDigest(salt: Array("another salt".utf8)).of(key))
        #expect(abs(first.of(key)) < 1 << 47)
    }

    /// The attack of issue 31: click ids that share one CRC-32 (the digest of schema 2), then a
    /// night with one more such id. That night reads none of the stored rows.
    @Test func idsSharingACRC32CostANightNothing() throws {
        let ids = CRC32Collisions.ids(count: 3_000)
        #expect(Set(ids.map(CRC32Collisions.crc32)).count == 1)
        let directory = try temporaryDirectory()
        let lines = { (ids: ArraySlice<String>) in
            ids.map { #"{"type":"link_click","ts":"2026-03-02T00:00:00Z","clickId":"\#($0)","appKey":"k","slug":"s","route":"app"}"# }
                .joined(separator: "\n") + "\n"
        }
        try writeFile(directory + "/night-1.ndjson", Array(lines(ids.dropLast()).utf8))
        try writeFile(directory + "/night-2.ndjson", Array(lines(ids.suffix(1)).utf8))
        let state = directory + "/state.db"
        for night in ["night-1", "night-2"] {
            let result = try execute(["run", "--state", state, "--out", directory + "/out", directory + "/\(night).ndjson"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // Night 2 reads no stored row: none of the 2,999 clicks whose ids share its click's CRC-32.
        let read = try commandOutput(["sqlite3", state, "SELECT records_read FROM runs ORDER BY id"])
        #expect(String(decoding: read, as: UTF8.self) == "0\n0\n")
        let clicks = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/out/attribution.json"))) as? [String: Any]
        #expect((clicks?["totals"] as? [String: Any])?["clicks"] as? Int == ids.count)
    }
}

/// Ids that share one CRC-32: CRC-32 is affine over GF(2), so flipping chosen characters between
/// `a` and `b` changes it by the XOR of their single effects, and a combination of positions
/// whose effects cancel leaves it unchanged (linear algebra on 64 positions).
enum CRC32Collisions {
    static func crc32(_ text: String) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in text.utf8 {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func ids(count: Int) -> [String] {
        let positions = 64
        let base = [Character](repeating: "a", count: positions)
        let text = { (flips: UInt64) in
            "clk_" + String(base.indices.map { flips >> UInt64($0) & 1 == 1 ? "b" : base[$0] })
        }
        let baseCRC = crc32(text(0))
        // Row-reduce each position's effect; a position whose effect reduces to zero, with the
        // positions it reduced by, is a set of flips that keeps the CRC.
        var pivots: [Int: (effect: UInt32, flips: UInt64)] = [:]
        var kernel: [UInt64] = []
        for position in 0..<positions {
            var effect = crc32(text(1 << UInt64(position))) ^ baseCRC
            var flips: UInt64 = 1 << UInt64(position)
            // Each pivot owns its lowest bit, so every step clears the lowest bit left.
            while effect != 0, let pivot = pivots[effect.trailingZeroBitCount] {
                effect ^= pivot.effect
                flips ^= pivot.flips
            }
            if effect == 0 { kernel.append(flips) } else { pivots[effect.trailingZeroBitCount] = (effect, flips) }
        }
        return (0..<count).map { index in
            var flips: UInt64 = 0
            for (bit, vector) in kernel.enumerated() where index >> bit & 1 == 1 { flips ^= vector }
            return text(flips)
        }
    }
}

/// An index run's filter may answer "maybe" for a digest never added, but never "no" for
/// one that was: a miss would lose a stored record from a night's merge.
struct StateKeyFilterTests {
    @Test func everyAddedDigestIsFoundAndFewOthersPass() throws {
        var generator = SystemRandomNumberGenerator()
        var filter = StateKeyFilter(capacity: 100_000)
        let added = (0..<100_000).map { _ in Int64.random(in: -(1 << 47)..<(1 << 47), using: &generator) }
        for digest in added { filter.add(digest) }
        #expect(added.allSatisfy(filter.mightContain))
        let others = (0..<100_000).map { _ in Int64.random(in: -(1 << 47)..<(1 << 47), using: &generator) }
        let passed = others.filter(filter.mightContain).count
        #expect(passed < 2_000, "\(passed) of 100,000 absent digests passed")
        // Stored and read back, the same filter; a byte short, or under another capacity, refused.
        let stored = try #require(StateKeyFilter(capacity: filter.capacity, bytes: filter.bytes))
        #expect(stored.bytes == filter.bytes && others.filter(stored.mightContain).count == passed)
        #expect(StateKeyFilter(capacity: filter.capacity, bytes: filter.bytes.dropLast()) == nil)
        #expect(StateKeyFilter(capacity: 4 * filter.capacity, bytes: filter.bytes) == nil)
    }
}

/// SipHash-2-4 through OpenSSL's `EVP_MAC`, the reference the state's digest is held to.
enum OpenSSLSipHash {
    static func hash(_ message: [UInt8], key: [UInt8]) -> UInt64 {
        guard let mac = EVP_MAC_fetch(nil, "SIPHASH", nil), let context = EVP_MAC_CTX_new(mac) else { return 0 }
        defer {
            EVP_MAC_CTX_free(context)
            EVP_MAC_free(mac)
        }
        var size = 8
        let keyed = OSSL_MAC_PARAM_SIZE.withCString { name in
            withUnsafeMutablePointer(to: &size) { sizePointer in
                var parameters = [OSSL_PARAM_construct_size_t(name, sizePointer), OSSL_PARAM_construct_end()]
                return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, 16, &parameters) }
            }
        }
        var output = [UInt8](repeating: 0, count: 8)
        var length = 0
        guard keyed == 1, message.withUnsafeBufferPointer({ EVP_MAC_update(context, $0.baseAddress, $0.count) }) == 1,
              EVP_MAC_final(context, &output, &length, 8) == 1, length == 8
        else { return 0 }
        return output.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
