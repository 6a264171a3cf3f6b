/// The unit components a night asks the state for, and which of the records their links name
/// it needs (`IncrementalMerge`).
///
/// A unit component belongs to one campaign: the install records of campaign C that name unit
/// U, and the orders that name U. A touched install record of C asks for (C, U) for each unit
/// it names; a touched order asks for U's component in every campaign. A unit's link names its
/// install records in every campaign, and an install sees many campaigns, so the linked install
/// records of a campaign nobody asked for are dropped before they are decoded: that component
/// is the same on both sides of the night, and would cancel between them. A unit's orders have
/// a link of their own (`StateKeyDigest.orders`), asked for in every campaign.
struct UnitComponentRequest {
    /// A unit's link digest (or, once resolved, a record's digest) and the campaign wanted, as
    /// a name number of the state; `anyCampaign` when every campaign's is.
    private struct Want: Comparable {
        var digest: Int64
        var campaign: Int64

        static func < (lhs: Want, rhs: Want) -> Bool { (lhs.digest, lhs.campaign) < (rhs.digest, rhs.campaign) }
    }

    /// Sorts before every name number (they start at 1).
    private static let anyCampaign: Int64 = -1

    private var units: [Want] = []
    /// The records the links name, by digest, each with the campaigns wanted of it; sorted.
    private var records: [Want] = []

    /// Asks for the component of the unit with link digest `unit` in `campaign` (a name number
    /// of the state), or in every campaign when nil.
    mutating func ask(unit: Int64, campaign: Int64?) {
        units.append(Want(digest: unit, campaign: campaign ?? Self.anyCampaign))
    }

    /// Which of a unit's links an ask follows.
    enum Link: UInt64 {
        /// To the install records that name the unit (`StateKeyDigest.unit`).
        case installRecords = 0
        /// To the orders that name it (`StateKeyDigest.orders`).
        case orders = 1
    }

    /// The asks of one side of a night (one symbol table), each packed in a word so that
    /// repeats are dropped by a sort before any digest is taken: an install seen in a dozen
    /// campaigns asks for its orders a dozen times, and a digest costs a hash of the id.
    struct Asks {
        /// The unit's symbol (bits 32–63), its kind (bit 31), the link (bit 30), and the
        /// campaign's number plus one, 0 for every campaign (bits 0–29): sorted, a unit's asks
        /// are neighbours.
        private var packed: [UInt64] = []

        private static let campaignBits: UInt64 = 30

        mutating func ask(_ link: Link, of unit: UnitKey, campaign: Int64?) {
            // A number too large to pack asks for every campaign: more rows, never fewer.
            let field = campaign.map { $0 >= 0 && $0 < (1 << Self.campaignBits) - 1 ? UInt64($0) + 1 : 0 } ?? 0
            packed.append(UInt64(unit.id.raw) << 32 | UInt64(unit.kind.rawValue) << 31 | link.rawValue << Self.campaignBits | field)
        }

        /// Adds the asks to `request`, each unit's link digest taken once.
        consuming func add(to request: inout UnitComponentRequest, symbols: SymbolTable, digest: StateKeyDigest) {
            packed.radixSort()
            packed.removeDuplicates()
            var previous: (link: UInt64, digest: Int64)?
            for ask in packed {
                let link = ask >> Self.campaignBits
                if previous?.link != link {
                    let id = symbols.bytes(Symbol(raw: UInt32(truncatingIfNeeded: ask >> 32)))
                    let kind: DecisionUnit = ask >> 31 & 1 == 0 ? .install : .customer
                    previous = (link, link & 1 == Link.orders.rawValue ? digest.orders(kind, id) : digest.unit(kind, id))
                }
                let field = ask & ((1 << Self.campaignBits) - 1)
                request.ask(unit: previous.unsafelyUnwrapped.digest, campaign: field == 0 ? nil : Int64(field - 1))
            }
        }
    }

    /// The link digests asked for, for the link index.
    var unitDigests: [Int64] { units.map(\.digest) }

    /// Takes the links found for `unitDigests` and returns the digests of the records they name.
    mutating func resolve(_ links: [StateIndexEntry]) -> [Int64] {
        units.sort()
        units.removeDuplicates()
        var byUnit = links
        byUnit.radixSort()
        var next = 0
        for link in byUnit {
            while next < units.count, units[next].digest < link.hash { next += 1 }
            var asked = next
            while asked < units.count, units[asked].digest == link.hash {
                records.append(Want(digest: link.target, campaign: units[asked].campaign))
                asked += 1
            }
        }
        units = []
        records.sort()
        records.removeDuplicates()
        var digests = records.map(\.digest)
        digests.removeDuplicates()
        return digests
    }

    /// Whether a row read for the resolved records is needed: every row but an install record's
    /// of a campaign that was not asked for with a unit that names it.
    func needs(_ row: StateStore.RecordRow) -> Bool {
        guard let campaign = InstallRecord.campaignNumber(ofKey: row.key) else { return true }
        let first = records.firstIndex(past: { $0.digest < row.digest })
        guard first < records.endIndex, records[first].digest == row.digest else { return true }
        return records[first].campaign == Self.anyCampaign
            || records[first...].prefix(while: { $0.digest == row.digest }).contains { $0.campaign == campaign }
    }
}
