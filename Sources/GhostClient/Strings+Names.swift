extension Strings {
    /// The name list's last row when names do not fit the window (↑/↓ scroll to them).
    public func namesHidden(_ n: Int) -> String {
        code == "nl" ? "… en nog \(n) (↑/↓)" : "… and \(n) more (↑/↓)"
    }
}
