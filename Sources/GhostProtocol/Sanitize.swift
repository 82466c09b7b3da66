/// Control characters, in one place. A control character is C0 (U+0000–
/// U+001F), DEL (U+007F) or C1 (U+0080–U+009F): none may reach a terminal
/// from the network, in either direction.
///
/// - the server refuses client lines holding one (tab aside) — `firstControl`;
/// - the server writes values with spaces and controls as `_`, free text with
///   controls as spaces — `appendValue`, `appendText`;
/// - clients drop them from what they read — `strippingControls`.
public enum Sanitize {
    /// Whether a Unicode scalar value is a control character.
    @inline(__always)
    public static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v)
    }

    /// Whether valid UTF-8 bytes hold a control character (tab allowed if
    /// `allowingTab`), checked on the bytes: a C1 control is 0xC2 0x80–0x9F.
    public static func containsControl(utf8 bytes: some Collection<UInt8>, allowingTab: Bool) -> Bool {
        var afterC2 = false
        for b in bytes {
            if b < 0x20 { if !(allowingTab && b == 0x09) { return true } }
            else if b == 0x7F { return true }
            else if afterC2 && b <= 0x9F && b >= 0x80 { return true }
            afterC2 = b == 0xC2
        }
        return false
    }

    /// Whether a string holds a control character.
    public static func containsControl(_ s: some StringProtocol) -> Bool {
        s.unicodeScalars.contains { isControl($0.value) }
    }

    /// The string without its control characters (tabs kept if `keepingTabs`).
    public static func strippingControls(_ s: some StringProtocol, keepingTabs: Bool = false) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0.value) && !(keepingTabs && $0.value == 0x09) }) else {
            return String(s)
        }
        return String(String.UnicodeScalarView(s.unicodeScalars.filter { !isControl($0.value) || (keepingTabs && $0.value == 0x09) }))
    }

    /// A value made safe for the wire: spaces and control characters become `_`.
    @inline(__always)
    public static func appendValue(_ s: String, to out: inout [UInt8]) {
        append(s, to: &out, replacement: 0x5F, replacingSpace: true)
    }

    /// Free text made safe for a terminal: control characters become spaces.
    public static func appendText(_ s: String, to out: inout [UInt8]) {
        append(s, to: &out, replacement: 0x20, replacingSpace: false)
    }

    /// The fast path is inlined where a line is written (not a call and its
    /// frame for every value of every line); `appendReplacing`, the
    /// rest, is not.
    @inline(__always)
    static func append<S: WireSink>(_ s: String, to out: inout S, replacement: UInt8, replacingSpace: Bool) {
        // Fast path, nearly every value (names, letters, numbers, codes): the
        // string's own bytes, checked in one pass and copied in one append
        // when none needs replacing (printable ASCII, and spaces where kept).
        // Kept as they are: 0x21...0x7E, and 0x20 where spaces are kept.
        let lo: UInt8 = replacingSpace ? 0x21 : 0x20
        let span: UInt8 = 0x7F &- lo
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            out.putIfWithin(bytes, lo: lo, span: span)
        }
        if copied == true { return }
        appendReplacing(s, to: &out, replacement: replacement, replacingSpace: replacingSpace)
    }

    /// `append` for a string that has a byte to replace (or no contiguous UTF-8).
    @inline(never)
    static func appendReplacing<S: WireSink>(_ s: String, to out: inout S, replacement: UInt8, replacingSpace: Bool) {
        var ascii = true
        for b in s.utf8 {
            if b >= 0x80 { ascii = false; break }
            out.put(b < 0x20 || b == 0x7F || (replacingSpace && b == 0x20) ? replacement : b)
        }
        guard !ascii else { return }
        // Slow path, rare: the rest of the string scalar by scalar, to catch C1 controls.
        var count = 0
        for b in s.utf8 { if b >= 0x80 { break }; count += 1 }
        for scalar in s.unicodeScalars.dropFirst(count) {
            let v = scalar.value
            if isControl(v) || (replacingSpace && v == 0x20) {
                out.put(replacement)
            } else {
                var one = String(scalar)
                one.withUTF8 { out.put($0) }
            }
        }
    }
}
