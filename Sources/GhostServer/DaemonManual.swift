import GhostStore
import OptionKit

/// ghostd(8) and ghostd's shell completion, made from the option tables
/// (Options.swift, AccountsCommand.swift, ReportsCommand.swift, JournalCommand.swift): `ghostd --generate-manual`,
/// `ghostd --generate-completion bash|zsh` (scripts/generate-docs.sh).
public enum DaemonManual {
    /// What `--data` defaults to, in words (the value depends on `$HOME`).
    static let dataDefault = "$XDG_STATE_HOME/ghostd, else ~/.local/state/ghostd, else ./ghostd-data"

    public static var page: ManualPage {
        let accountsUsage = AccountsCommand.usageLine
        let reportsUsage = ReportsCommand.usageLine
        let journalUsage = "ghostd journal check|salvage [--data DIR]"
        let copyUsage = CopyStoreCommand.usageLine
        return ManualPage(
            program: "ghostd", section: 8, source: "ghostd \(Lobby.version)", manual: "System Manager's Manual",
            summary: "server for the word games Ghost and Hangman",
            synopsis: ["ghostd [options]", accountsUsage, reportsUsage, journalUsage, copyUsage, "ghostd --help | --version"],
            sections: [
                .init("Description", [
                    .paragraph(ManualPage.about(ofHelp: DaemonOptions.usage)),
                    .paragraph("ghostd serves Ghost (with its variant Superghost) and Hangman to people across the network: two players against each other, or one against the computer, with others watching. Clients are ghost-client(1), any line-based client such as nc(1), or a web browser: the web port (--web-port, 7780 by default) serves a web client at / and the same protocol over a WebSocket at /ws, one line per text message. The protocol, its commands, error codes and limits are described in Protocol.md, which comes with the source."),
                    .paragraph("Names, settings, games in progress and scores are kept in an SQLite database in the data folder (--data); a reply that confirms a change is sent only after the change is committed, so a game survives a restart or a crash and its players RESUME it. The word lists come from the dictionaries folder (--dictionaries). ghostd logs to standard error: the database and the listening address at start, then one line per connection opened and closed, and per game started, adjourned, resumed and ended."),
                    .paragraph("ghostd is ready once it logs `listening on`: by then every port it serves listens (the plain port last). Under a service manager that sets NOTIFY_SOCKET (systemd's Type=notify), it then sends READY=1, and STOPPING=1 when it stops. A game in progress is aborted as untouched only after ghostd itself has run --abandon-after seconds without anyone touching it: time ghostd was stopped or down never counts."),
                    .paragraph("Every limit below is a setting. Options take `--name value` or `--name=value`; a value that starts with `--` needs the `=` form. A repeated option is allowed and the last one wins (--web-origin and --trusted-proxy add to their lists). A bad option or value is refused with one line on standard error and exit status 2, before anything starts."),
                ]),
                .init("Options", DaemonOptions.table.manualEntries(defaults: ServerConfig(), defaultTexts: ["--data": dataDefault])),
                .init("Accounts", [
                    .paragraph("`\(accountsUsage)`"),
                    .paragraph(ManualPage.about(ofHelp: AccountsCommand.usage)),
                ] + AccountsCommand.commands.map { .entry(head: $0.head, text: $0.text + ".") }
                  + AccountsCommand.table.manualEntries(defaults: AccountsCommand.Settings(), defaultTexts: ["--data": dataDefault])),
                .init("Reports", [
                    .paragraph("`\(reportsUsage)`"),
                    .paragraph(ManualPage.about(ofHelp: ReportsCommand.usage)),
                ] + ReportsCommand.table.manualEntries(defaults: ReportsCommand.Settings(), defaultTexts: ["--data": dataDefault])),
                .init("Journal", [
                    .paragraph("`\(journalUsage)`"),
                    .paragraph(ManualPage.about(ofHelp: JournalCommand.usage)),
                ] + JournalCommand.commands.map { .entry(head: $0.head, text: $0.text + ".") }
                  + JournalCommand.table.manualEntries(defaults: JournalCommand.Settings(), defaultTexts: ["--data": dataDefault])),
                .init("Copying a state", [
                    .paragraph("`\(copyUsage)`"),
                    .paragraph(ManualPage.about(ofHelp: CopyStoreCommand.usage)),
                ] + CopyStoreCommand.table.manualEntries(defaults: CopyStoreCommand.Settings(), defaultTexts: [:])),
                .init("Signals", [
                    .entry(head: "SIGTERM, SIGINT", text: "stop cleanly: every client gets `BYE shutdown` after what was queued for it, everything acknowledged is committed, and games in progress are kept for their players to RESUME when ghostd is back. Exit status 0."),
                    .entry(head: "SIGHUP", text: "read --tls-cert and --tls-key again: new TLS handshakes use the new pair and nobody is dropped. A pair that does not load is logged and the old one kept. Nothing else is reloaded or stopped."),
                    .entry(head: "SIGUSR1", text: "take the operator's requests in DIR/\(OperatorRequest.folderName)/ (ghostd accounts mute, ban and unban send it): each is applied at once and answered in a reply file once it is committed. Nothing else is done."),
                ]),
                .init("Files", [
                    .entry(head: "DIR/\(Store.fileName)", text: "the SQLite database in the data folder (--data): names, registrations (password hashes), settings, games and scores. Back it up while ghostd runs by copying DIR/\(Store.fileName)-moves first, then sqlite3's .backup (docs/operating.md)."),
                    .entry(head: "DIR/\(Store.fileName)-moves", text: "the move journal: the latest moves of games in progress and the starts of the newest games, appended by turns of moves and starts alone and taken into the database by the next transaction; ghostd inserts what it holds when it starts, and leaves it holding only its header line (the journal the database expects) when it stops. A journal damaged before its last line, missing or emptied after a crash, or another database's refuses the start, untouched: see Journal."),
                    .entry(head: "DIR/\(DataFolderLock.fileName)", text: "the data folder's lock, holding the PID of the ghostd (or ghostd accounts) using the folder: a second one on the same folder is refused with exit status 1."),
                    .entry(head: "DIR/node-id", text: "with --store, this data folder's id in the cluster's lease, made at the first start: a ghostd restarted on the folder takes back the lease its dead predecessor held without waiting for it to lapse."),
                    .entry(head: "DIR/\(OperatorRequest.folderName)/", text: "the operator's requests to the running ghostd and its replies (0700), written by ghostd accounts mute, ban and unban, each removed once answered; `ready` holds the PID of the ghostd that takes them."),
                    .entry(head: "./Dictionaries, PREFIX/share/ghostd/Dictionaries", text: "the word lists, when --dictionaries is not given: ./Dictionaries, else the one installed beside PREFIX/bin/ghostd. Each xx.txt offers language xx; phrases/xx.txt holds Hangman's phrases."),
                ]),
                .init("Exit status", [
                    .entry(head: "0", text: "stopped by SIGTERM or SIGINT; --help or --version."),
                    .entry(head: "1", text: "could not start: the data folder is in use by another ghostd, the database is empty, damaged or from a newer ghostd, its move journal would lose acknowledged moves (see Journal), the word lists cannot be read, or the port cannot be bound. For ghostd accounts: refused or failed, nothing changed (or a running ghostd did not answer in time). For ghostd reports: the database could not be read. For ghostd journal check: ghostd would refuse the journal. For ghostd copy-store: refused or failed, the target left as it was."),
                    .entry(head: "2", text: "a bad command line (an unknown option, a bad value, TLS options that do not go together or a certificate that does not load), with one line on standard error."),
                    .entry(head: "3", text: "the database could not even be read while serving: ghostd stopped after `BYE shutdown` and only confirmed lines."),
                    .entry(head: "4", text: "with --store, another node on the same store took this node's lease (it was frozen or cut off from PostgreSQL longer than --lease-seconds): its writes were refused from that moment, and it stopped after `BYE shutdown` and only confirmed lines; start it again to stand by (docs/cluster.md)."),
                ]),
                .init("See also", [.paragraph("ghost-client(1), ghost-bench(1), nc(1), sqlite3(1), openssl(1); Protocol.md, README.md and docs/ in the source.")]),
            ],
            generatedBy: "ghostd --generate-manual")
    }

    /// Options, and `accounts` with its own.
    public static var completion: CompletionSpec {
        CompletionSpec(DaemonOptions.table, subcommands: [
            .init("accounts", "manage registered names, mute and ban", CompletionSpec(AccountsCommand.table)),
            .init("reports", "list the players' reports", CompletionSpec(ReportsCommand.table)),
            .init("journal", "check or salvage the move journal offline", CompletionSpec(JournalCommand.table)),
            .init("copy-store", "copy a whole state between a data folder and PostgreSQL", CompletionSpec(CopyStoreCommand.table)),
        ])
    }

    /// The text `ghostd --generate-…` prints, or nil for any other command line.
    public static func generated(_ arguments: [String]) -> String? {
        GeneratedDocs.request(arguments).map {
            GeneratedDocs.text($0, program: "ghostd", manual: { page }, completion: { completion })
        }
    }
}
