/// An array for the one element a record nearly always holds (a unit's exposure, an install's
/// decision): the first element is stored inline and only the others in a heap array, so that the
/// common case allocates, retains and frees nothing. Elements keep their insertion order.
struct SmallArray<Element: Sendable>: Sendable {
    private var head: Element?
    /// The elements after `head`; empty while `head` is nil.
    private var tail: [Element] = []

    init() {}

    init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    mutating func append(contentsOf other: SmallArray) {
        for element in other { append(element) }
    }

    /// Lets `update` change the element at `position` in place.
    mutating func modify(at position: Int, _ update: (inout Element) -> Void) {
        if position == 0 { update(&head!) } else { update(&tail[position - 1]) }
    }
}

extension SmallArray: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    subscript(position: Int) -> Element {
        position == 0 ? head! : tail[position - 1]
    }
}
