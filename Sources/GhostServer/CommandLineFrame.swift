#if canImport(Glibc)
import Glibc
#endif
import GhostStore
import OptionKit

/// What every offline `ghostd <command>` shares: `--help` prints its usage
/// (exit 0), a bad command line is one line on stderr (exit 2), and a run
/// exits 0, or 1 with its error on stderr; and the data folder whose
/// database it reads, which must exist (a mistyped `--data` must not make a
/// new, empty folder and database).
enum CommandLineFrame {
    /// `ghostd <command>`: `parsed` is nil for `--help`.
    static func main<Settings>(_ command: String, _ parsed: Result<Settings?, OptionError>, usage: String,
                               out: (String) -> Void, err: (String) -> Void,
                               run: (Settings) throws -> Int32) -> Int32 {
        switch parsed {
        case .success(nil):
            out(usage)
            return 0
        case .failure(let e):
            err("ghostd \(command): \(e) (see ghostd \(command) --help)")
            return 2
        case .success(let settings?):
            do {
                return try run(settings)
            } catch {
                err("ghostd \(command): \(error)")
                return 1
            }
        }
    }

    /// The folder `--data` names (`.` for none), once its database is there.
    static func existingFolder(_ data: String) throws -> String {
        let folder = data.isEmpty ? "." : data
        let file = (folder.hasSuffix("/") ? folder : folder + "/") + Store.fileName
        guard access(file, F_OK) == 0 else { throw AccountsCommand.Failure.noDatabase(file) }
        return folder
    }
}
