/// Typed access to the current record's VALUE members, each failure naming the line.
extension RecordDecoder {
    func value(_ name: String) throws(RecordError) -> JSONValue {
        guard let member = value[name] else { throw failure("missing \"\(name)\"") }
        return member
    }

    func integer(_ name: String) throws(RecordError) -> Int { try integer(try value(name)) }

    /// A count: a value that merges add up, so it is charged to the sum of all counts.
    func integer(_ value: JSONValue) throws(RecordError) -> Int {
        let count = try self.value(number: value)
        try limits.addCount(count, line: lineNumber)
        return count
    }

    func value(number name: String) throws(RecordError) -> Int { try value(number: try value(name)) }

    /// Counts by day as `RecordEncoder.days` writes them.
    func days(_ name: String, width: Int) throws(RecordError) -> DailyTallies {
        guard case .array(let entries) = try value(name) else { throw failure("\"\(name)\" must be an array") }
        var tallies = DailyTallies()
        for entry in entries {
            guard case .array(let parts) = entry, parts.count == width + 1 else {
                throw failure("\"\(name)\" holds [day, \(width) counts]")
            }
            // Days of instants in the years 0000-10000.
            let day = try value(number: parts[0])
            guard day <= 3_660_000 else { throw failure("day \(day) is out of range") }
            var counts = SIMD3<Int>()
            for index in 0..<width { counts[index] = try integer(parts[index + 1]) }
            tallies.add(day: day - DailyTallies.recordOffset, counts)
        }
        return tallies
    }

    /// An integer in 0...2^53−1 (the largest a JSON number holds exactly).
    func value(number value: JSONValue) throws(RecordError) -> Int {
        guard case .number(let number) = value, let integer = Int(exactly: number) else { throw failure("expected an integer") }
        guard (0...RecordLimits.maximumValue).contains(integer) else { throw failure("\(integer) is out of range 0...2^53-1") }
        return integer
    }

    func integers(_ name: String, count: Int) throws(RecordError) -> [Int] {
        guard case .array(let values) = try value(name), values.count == count else { throw failure("\"\(name)\" must hold \(count) integers") }
        var result: [Int] = []
        for element in values { result.append(try integer(element)) }
        return result
    }

    func bool(_ name: String) throws(RecordError) -> Bool { try bool(try value(name)) }

    func bool(_ value: JSONValue) throws(RecordError) -> Bool {
        guard case .bool(let flag) = value else { throw failure("expected true or false") }
        return flag
    }

    func string(_ name: String) throws(RecordError) -> String { try string(try value(name)) }

    func string(_ value: JSONValue) throws(RecordError) -> String {
        guard case .string(let text) = value else { throw failure("expected a string") }
        return text
    }

    func optionalString(_ name: String) throws(RecordError) -> String? { try optionalString(value[name] ?? .null) }

    func optionalString(_ value: JSONValue) throws(RecordError) -> String? {
        if value == .null { return nil }
        return try string(value)
    }

    func array(_ name: String) throws(RecordError) -> [JSONValue] {
        guard case .array(let values) = try value(name) else { throw failure("\"\(name)\" must be an array") }
        return values
    }

    func object(_ name: String) throws(RecordError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = try value(name) else { throw failure("\"\(name)\" must be an object") }
        return members
    }

    func instant(_ name: String) throws(RecordError) -> Instant { try instant(try value(name)) }

    func instant(_ value: JSONValue) throws(RecordError) -> Instant {
        guard case .array(let parts) = value, parts.count == 2 else { throw failure("an instant is [seconds, nanoseconds]") }
        guard case .number(let secondsNumber) = parts[0], let seconds = Int64(exactly: secondsNumber),
              RecordLimits.instantSeconds.contains(seconds)
        else { throw failure("seconds out of the years 0001-9999") }
        let nanoseconds = try self.value(number: parts[1])
        guard (0..<1_000_000_000).contains(nanoseconds) else { throw failure("nanoseconds out of range") }
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    func route(_ name: String) throws(RecordError) -> Route { try route(try value(name)) }

    func route(_ value: JSONValue) throws(RecordError) -> Route {
        guard let route = Route(word: try string(value)) else { throw failure("a route is app or store") }
        return route
    }
}

/// Values read into the state's symbol table.
extension RecordDecoder {
    /// A string member, interned.
    mutating func symbol(member name: String) throws(RecordError) -> Symbol { symbol(try string(name)) }

    /// A string or null, interned.
    mutating func optionalSymbol(_ value: JSONValue) throws(RecordError) -> Symbol? {
        try optionalString(value).map { symbol($0) }
    }

    /// `[install|customer, id]`.
    mutating func unit(_ kind: JSONValue, _ id: JSONValue) throws(RecordError) -> UnitKey {
        guard let unitKind = DecisionUnit(word: try string(kind)) else { throw failure("a unit is install or customer") }
        return UnitKey(kind: unitKind, id: symbol(try string(id)))
    }

    /// `[variant, firstExposure, control]`.
    mutating func exposure(_ parts: ArraySlice<JSONValue>) throws(RecordError) -> VariantExposure {
        let start = parts.startIndex
        return VariantExposure(
            variant: symbol(try string(parts[start])), firstExposure: try instant(parts[start + 1]),
            control: try bool(parts[start + 2]))
    }

    mutating func utm(_ name: String) throws(RecordError) -> UTMParameters { try utm(try value(name)) }

    /// Campaign, source, medium, content, term: five strings or nulls.
    mutating func utm(_ value: JSONValue) throws(RecordError) -> UTMParameters {
        guard case .array(let parts) = value, parts.count == 5 else { throw failure("utm is five strings or nulls") }
        var interned: [Symbol?] = []
        for part in parts { interned.append(try optionalSymbol(part)) }
        return UTMParameters(campaign: interned[0], source: interned[1], medium: interned[2], content: interned[3], term: interned[4])
    }
}
