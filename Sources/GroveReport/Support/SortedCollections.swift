/// Searches and edits of sorted collections that the state's indexes share.
extension RandomAccessCollection {
    /// The index of the first element past those for which `before` holds (the collection must
    /// hold them first): a binary search.
    func firstIndex(past before: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if before(self[middle]) {
                low = index(after: middle)
                count -= half + 1
            } else {
                count = half
            }
        }
        return low
    }
}

extension Array where Element: Equatable {
    /// Drops each element equal to the one before it (all repeats, when sorted).
    mutating func removeDuplicates() {
        guard !isEmpty else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension Array where Element: Comparable {
    /// The elements of this sorted, distinct array that `other` (sorted, distinct) lacks, and
    /// the two merged, in one pass over both.
    func partitioned(against other: [Element]) -> (new: [Element], union: [Element]) {
        var new: [Element] = []
        var union: [Element] = []
        union.reserveCapacity(count + other.count)
        var mine = startIndex
        var theirs = other.startIndex
        while mine < endIndex || theirs < other.endIndex {
            if theirs == other.endIndex || (mine < endIndex && self[mine] < other[theirs]) {
                new.append(self[mine])
                union.append(self[mine])
                mine += 1
            } else if mine == endIndex || other[theirs] < self[mine] {
                union.append(other[theirs])
                theirs += 1
            } else {
                union.append(self[mine])
                mine += 1
                theirs += 1
            }
        }
        return (new, union)
    }
}
