/// One value per seat, held in place (`Lobby.Room`'s occupants, whether
/// each person has moved, the head-to-head record): a room's per-seat facts
/// without an array's heap buffer. Each such array cost an allocation when
/// the room was made or first changed it, and its release with the room
/// (scripts/callgrind-letters.py). Indexed by seat, 0 and 1.
struct SeatPair<Element>: RandomAccessCollection, MutableCollection {
    private var seat0: Element
    private var seat1: Element

    init(_ seat0: Element, _ seat1: Element) {
        self.seat0 = seat0
        self.seat1 = seat1
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 2 }

    subscript(seat: Int) -> Element {
        get {
            precondition(seat == 0 || seat == 1, "a seat is 0 or 1")
            return seat == 0 ? seat0 : seat1
        }
        set {
            precondition(seat == 0 || seat == 1, "a seat is 0 or 1")
            if seat == 0 { seat0 = newValue } else { seat1 = newValue }
        }
    }
}

extension SeatPair: Equatable where Element: Equatable {}
