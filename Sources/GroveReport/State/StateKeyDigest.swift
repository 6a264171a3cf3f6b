import CCrypto

/// The keyed digest that the state indexes record keys and links by: SipHash-2-4 (OpenSSL's
/// libcrypto) under a key only the state knows, cut to 48 bits.
///
/// Ids come from client apps, so whoever sends them chooses them. With a bare checksum (the
/// CRC-32 of schema 2) a sender could make a million ids share one digest, and every later
/// night that touched one of them read them all; under a secret key no sender can aim at a
/// digest, so the stored keys that share a digest with a night's key are only the rare chance
/// ones. A reader by digest still gets every record under it, and an extra record is harmless to
/// a merge (it is the same, unchanged, on both sides). 48 bits keep SQLite's integers at six
/// bytes while chance collisions stay rare (about 0.004 pairs among 1.5 million keys).
final class StateKeyDigest {
    /// The SipHash context, keyed once; each digest re-initializes it with that key.
    private let context: OpaquePointer

    /// A digest keyed by 16 bytes derived from the state's salt (`meta.email_salt`), so a state
    /// keeps one secret and every digest of one state agrees across runs.
    convenience init(salt: [UInt8]) {
        var derivation = SHA256Digest()
        derivation.update(Array("grove-report state key digest\u{0}".utf8))
        derivation.update(salt)
        self.init(key: Array(derivation.bytes().prefix(16)))
    }

    /// SipHash under a 16-byte key.
    init(key: [UInt8]) {
        precondition(key.count == 16, "SipHash takes a 16-byte key")
        guard let mac = EVP_MAC_fetch(nil, "SIPHASH", nil), let context = EVP_MAC_CTX_new(mac) else {
            fatalError("OpenSSL's libcrypto offers no SipHash")
        }
        EVP_MAC_free(mac)
        self.context = context
        var size = 8
        let status = OSSL_MAC_PARAM_SIZE.withCString { name in
            withUnsafeMutablePointer(to: &size) { sizePointer in
                var parameters = [OSSL_PARAM_construct_size_t(name, sizePointer), OSSL_PARAM_construct_end()]
                return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, 16, &parameters) }
            }
        }
        precondition(status == 1, "SipHash rejected its key")
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// The digest of `bytes`, a signed 48-bit integer.
    func of(_ bytes: some Collection<UInt8>) -> Int64 {
        let full = bytes.withContiguousStorageIfAvailable(sipHash) ?? Array(bytes).withUnsafeBufferPointer(sipHash)
        return Int64(bitPattern: full) >> 16
    }

    /// SipHash-2-4 of `bytes`, read little-endian.
    func sipHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var output = [UInt8](repeating: 0, count: 8)
        var length = 0
        // A null key re-initializes the context with the key it was given.
        // An empty message adds nothing to the state the key set.
        guard EVP_MAC_init(context, nil, 0, nil) == 1,
              bytes.baseAddress.map({ EVP_MAC_update(context, $0, bytes.count) }) ?? 1 == 1,
              EVP_MAC_final(context, &output, &length, 8) == 1, length == 8
        else { fatalError("SipHash failed") }
        return output.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The link from a click to the opens whose original names it.
    func click(_ clickID: some Collection<UInt8>) -> Int64 {
        of([UInt8]("click\u{0}".utf8) + clickID)
    }

    /// The link from a unit (`install:<id>` or `customer:<id>`) to the install records and
    /// orders that name it.
    func unit(_ unit: ByteString) -> Int64 {
        of([UInt8]("unit\u{0}".utf8) + unit.bytes)
    }

    /// A record (by its key's digest) that belongs to what a link names (by its digest).
    struct Link: Hashable, Comparable {
        var name: Int64
        var record: Int64

        static func < (lhs: Link, rhs: Link) -> Bool { (lhs.name, lhs.record) < (rhs.name, rhs.record) }
    }
}
