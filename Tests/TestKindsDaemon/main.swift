import GhostServer
import WordChainKind
#if canImport(Glibc)
import Glibc
#endif

// ghostd with the kinds used only by tests: its catalog is ghostd's plus the
// one line below (issue #25: a kind is one module and one catalog line).
exit(Daemon.main(Array(CommandLine.arguments.dropFirst()), kinds: [WordChainKind()]))
