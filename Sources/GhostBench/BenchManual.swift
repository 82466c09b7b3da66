import OptionKit

/// ghost-bench(1) and its shell completion, made from the option table and
/// the modes (BenchCommand.swift): `ghost-bench --generate-manual`,
/// `ghost-bench --generate-completion bash|zsh` (scripts/generate-docs.sh).
public enum BenchManual {
    public static var page: ManualPage {
        ManualPage(
            program: "ghost-bench", section: 1, source: "ghostd", manual: "User Commands",
            summary: "benchmarks for ghostd: solver, computer players, load, attacks",
            synopsis: ["ghost-bench MODE [options]", "ghost-bench --help"],
            sections: [
                .init("Description", [
                    .paragraph(ManualPage.about(ofHelp: BenchCommand.usage)),
                    .paragraph("Some modes work on the word lists alone; the others drive a running ghostd (--host, --port) over many connections. Nothing asserts on time: these are measurements, not tests (BENCHMARKS.md in the source has the results and how they were made). Options take `--name value` or `--name=value`; a mode refuses the options it does not use, and a bad value is refused with exit status 2."),
                ]),
                .init("Modes", BenchCommand.Mode.allCases.map { mode in
                    .entry(head: mode.rawValue, text: mode.summary + " Options: "
                        + listed(mode.table.options.filter { !$0.isAction }.map(\.name), or: "and") + ".")
                }),
                .init("Options", BenchCommand.Settings.table.manualEntries(defaults: BenchCommand.Settings())),
                .init("Exit status", [
                    .entry(head: "0", text: "the measurement ran to its end, or --help."),
                    .entry(head: "1", text: "it could not run: a word list or the server could not be reached, or the server failed it."),
                    .entry(head: "2", text: "a bad command line, with one line on standard error."),
                ]),
                .init("See also", [.paragraph("ghostd(8), ghost-client(1); BENCHMARKS.md in the source.")]),
            ],
            generatedBy: "ghost-bench --generate-manual")
    }

    /// Each mode is a subcommand with the options it takes.
    public static var completion: CompletionSpec {
        CompletionSpec(BenchCommand.Settings.table.only([]), subcommands: BenchCommand.Mode.allCases.map { mode in
            .init(mode.rawValue, CompletionSpec.short(mode.summary), CompletionSpec(mode.table))
        })
    }

    /// The text `ghost-bench --generate-…` prints, or nil for any other command line.
    public static func generated(_ arguments: [String]) -> String? {
        GeneratedDocs.request(arguments).map {
            GeneratedDocs.text($0, program: "ghost-bench", manual: { page }, completion: { completion })
        }
    }
}
