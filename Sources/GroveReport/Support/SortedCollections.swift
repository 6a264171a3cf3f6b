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
