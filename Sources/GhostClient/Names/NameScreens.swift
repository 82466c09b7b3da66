import GhostProtocol

/// The name screen: the field, and the picker of names used before.
public enum NameScreens {
    public static func name(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let field = t.nameLabel + s.namePicker.nameField + "_"
        var body = [""] + Screens.paragraph(t.namePrompt, width) + [""]
        body.append(Screens.margin + (s.namePicker.nameCursor == nil ? Screens.marker + " " + style.highlight(field) : "  " + field))
        body.append("")
        // The picker: this client's names, then the server's, each under its
        // heading; an entry's index is its place in `filteredNames`.
        let lists = s.pickerNames
        func entry(_ name: String, _ i: Int) -> (text: String, entry: Int?) {
            (i == s.namePicker.nameCursor ? Screens.marker + " " + style.highlight(name) : "  " + name, i)
        }
        var rows: [(text: String, entry: Int?)] = []
        if !lists.here.isEmpty {
            rows.append((t.namesHere, nil))
            rows += lists.here.enumerated().map { entry($0.element, $0.offset) }
        }
        rows.append((s.namePicker.nameField.isEmpty ? t.usedNames : t.namesStarting(s.namePicker.nameField), nil))
        if lists.server.isEmpty {
            let none = s.namePicker.namesSearching ? t.searchingNames : s.namePicker.nameField.isEmpty ? t.noUsedNames : t.noMatchingNames
            rows.append(("  " + style.dim(none), nil))
        } else {
            rows += lists.server.enumerated().map { entry($0.element, lists.here.count + $0.offset) }
            if s.namePicker.moreNames { rows.append(("  " + style.dim(t.moreNames), nil)) }
        }
        // A window of the rows that keeps the cursor visible, between the
        // title (2 rows) and the bottom lines (3 or more: they may wrap).
        // Esc goes back only once a name is held (at first start there is nowhere to go back to).
        let help = s.named ? t.nameHelp : t.nameHelp.split(separator: " · ").filter { !$0.hasPrefix("Esc") }.joined(separator: " · ")
        let bottom = Screens.bottomLines(s, width, t, banner: "", help: help).count
        let room = max(1, height - 2 - bottom - body.count)
        let cursorRow = s.namePicker.nameCursor.flatMap { c in rows.firstIndex { $0.entry == c } } ?? 0
        // Names that do not fit are counted on the window's last row, never hidden silently.
        let window = rows.count > room ? max(1, room - 1) : room
        let start = min(max(0, cursorRow - window + 1), max(0, rows.count - window))
        let shown = rows.dropFirst(start).prefix(window)
        body += shown.map { Screens.margin + $0.text }
        let hidden = rows.filter { $0.entry != nil }.count - shown.filter { $0.entry != nil }.count
        if hidden > 0 && room > 1 { body.append(Screens.margin + "  " + style.dim(t.namesHidden(hidden))) }
        return Screens.frame(s, width, height, t, title: t.nameTitle, body: body, help: help)
    }
}
