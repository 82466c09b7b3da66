import OptionKit

/// ghost-client(1) and its shell completion, made from the option table
/// (Options.swift): `ghost-client --generate-manual`,
/// `ghost-client --generate-completion bash|zsh` (scripts/generate-docs.sh).
public enum ClientManual {
    public static var page: ManualPage {
        ManualPage(
            program: "ghost-client", section: 1, source: "ghost-client \(ClientApp.version)", manual: "User Commands",
            summary: "terminal client for ghostd, the Ghost and Hangman server",
            synopsis: ["ghost-client [host[:port]] [options]", "ghost-client --help | --version"],
            sections: [
                .init("Description", [
                    .paragraph(ManualPage.about(ofHelp: ClientOptions.usage)),
                    .paragraph("On a terminal it shows full screens: pick a name, then play Ghost or Hangman against a person or the computer, watch games, and see scores. Letters play, Esc opens the game menu, and Ctrl-C quits once you say yes (a second Ctrl-C, y or Enter): a game in progress waits and resumes when the client starts again. In Hangman, = types a whole answer, Enter starts a new game and Tab flips to the settings. A game kind the client has no code for, which the server announces in HELP, is offered on the main screen after Ghost and Hangman (←/→) and played or watched on a generic screen drawn from the server's VIEW: ↑/↓ choose a move, letters type its word, Enter sends it. As in a shell, on every screen Ctrl-L redraws the whole screen, and in any text field (a name, a join code, a password, a word) Ctrl-U clears it and Ctrl-W erases its last word; none of them is ever sent to the server or played."),
                    .paragraph("When standard input or output is not a terminal it works line by line: it prints what the server sends and sends each line it reads (a line holding one letter is a move). It plays nothing by itself, so --game and --clock are refused there; send the game's commands yourself (Protocol.md):"),
                    .example(["printf 'NAME x\\nSEEK\\n' | ghost-client 127.0.0.1:7777"]),
                    .paragraph("A password (logging in to a registered name, or registering one) is sent only over TLS or to this computer, unless --insecure is given. Options take `--name value` or `--name=value`; a bad option or value is refused with exit status 2."),
                ]),
                .init("Arguments", ClientOptions.table.manualArguments()),
                .init("Options", ClientOptions.table.manualEntries(defaults: ClientOptions())),
                .init("Environment", [
                    .entry(head: "NO_COLOR", text: "set to anything non-empty: no colour or attributes (as TERM=dumb)."),
                    .entry(head: "XDG_CONFIG_HOME, HOME", text: "where the settings file is (Files), unless --config names it."),
                    .entry(head: "GHOST_CLIENT_RECORD", text: "a file to which the full-screen client appends every event of the session, one line each (the keys, the server's lines, the window's sizes, the clock): for replaying real sessions in tests (docs/testing.md). No password is written (what is typed on a password screen is written as x), and resume tokens are replaced by a dummy."),
                ]),
                .init("Files", [
                    .entry(head: "$XDG_CONFIG_HOME/ghost/config, ~/.config/ghost/config", text: "the settings (--config): the language, the last server, names used, the game and its settings, TLS, and a token to resume the game in progress. Written by the client; lines of `key=value`."),
                ]),
                .init("Exit status", [
                    .entry(head: "0", text: "quit, or --help or --version."),
                    .entry(head: "1", text: "in line mode: the server could not be reached, refused the connection, or closed it before QUIT. On a terminal: the terminal could not be set up (a server that cannot be reached is shown on the screen instead)."),
                    .entry(head: "2", text: "a bad command line, with one line on standard error."),
                    .entry(head: "128+N", text: "stopped by signal N (SIGINT, SIGTERM; on a terminal also SIGHUP), after putting the terminal back."),
                ]),
                .init("See also", [.paragraph("ghostd(8), ghost-bench(1), nc(1); Protocol.md, README.md and docs/ in the source.")]),
            ],
            generatedBy: "ghost-client --generate-manual")
    }

    public static var completion: CompletionSpec { CompletionSpec(ClientOptions.table) }

    /// The text `ghost-client --generate-…` prints, or nil for any other command line.
    public static func generated(_ arguments: [String]) -> String? {
        GeneratedDocs.request(arguments).map {
            GeneratedDocs.text($0, program: "ghost-client", manual: { page }, completion: { completion })
        }
    }
}
