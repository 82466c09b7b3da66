/// How one value is read from the command line, checked, and shown in help.
public struct Value<T> {
    /// What is accepted, for error messages: `a whole number from 0 to 65535`.
    public let allowed: String
    /// Reads and checks a value.
    public let read: (String) -> Result<T, OptionError.Problem>
    /// How a value (a default, say) is written in help.
    public let show: (T) -> String
    /// What shell completion offers for it (the choices of a `choice`).
    public var completion: Completion = .none

    public init(allowed: String, show: @escaping (T) -> String, completion: Completion = .none,
                read: @escaping (String) -> Result<T, OptionError.Problem>) {
        self.allowed = allowed
        self.show = show
        self.completion = completion
        self.read = read
    }
}

extension Value where T: FixedWidthInteger {
    /// A whole number in `range`, in decimal: `80`, `+80`; not `80.0`, `0x50`, `1e3` or ` 80`.
    public static func integer(_ range: ClosedRange<T>) -> Value<T> {
        Value(allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)", show: { String($0) }) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return .failure(.notAWholeNumber)
            }
            // All digits but too large for T: out of range, not malformed.
            guard let v = T(text), range.contains(v) else { return .failure(.outOfRange) }
            return .success(v)
        }
    }
}

extension Value where T == Double {
    /// A finite decimal number in `range`: `2`, `2.5`, `.5`, `1e3`; not `nan`,
    /// `inf`, `0x10` or `1s`.
    public static func number(_ range: ClosedRange<Double>) -> Value<Double> {
        Value(allowed: "a number from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))",
              show: formatNumber) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            guard text.contains(where: { $0.isASCII && $0.isNumber }),
                  text.allSatisfy({ "0123456789.eE+-".contains($0) }),
                  let v = Double(text) else { return .failure(.notANumber) }
            guard v.isFinite, range.contains(v) else { return .failure(.outOfRange) }
            return .success(v)
        }
    }
}

extension Value where T == String {
    /// Any text but the empty one; `what` says what it stands for in errors.
    public static func text(_ what: String = "any text but the empty one") -> Value<String> {
        Value(allowed: what, show: { $0 }) { text in
            text.isEmpty ? .failure(.empty) : .success(text)
        }
    }

    /// One of `choices`, exactly as written.
    public static func choice(_ choices: [String]) -> Value<String> {
        Value(allowed: listed(choices), show: { $0 }, completion: .choices(choices)) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            return choices.contains(text) ? .success(text) : .failure(.notAChoice)
        }
    }
}

extension Value where T: RawRepresentable & CaseIterable, T.RawValue == String {
    /// One of an enumeration's raw values: `full` or `normal`.
    public static var choice: Value<T> {
        let names = T.allCases.map(\.rawValue)
        return Value(allowed: listed(names), show: { $0.rawValue }, completion: .choices(names)) { text in
            guard !text.isEmpty else { return .failure(.empty) }
            return T(rawValue: text).map { .success($0) } ?? .failure(.notAChoice)
        }
    }
}

/// `2`, `0.25`, `1e+20`: whole numbers without `.0`.
public func formatNumber(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}

/// `a`, `a or b`, `a, b or c`.
public func listed(_ words: [String], or conjunction: String = "or") -> String {
    guard let last = words.last else { return "" }
    let head = words.dropLast()
    return head.isEmpty ? last : head.joined(separator: ", ") + " \(conjunction) " + last
}
