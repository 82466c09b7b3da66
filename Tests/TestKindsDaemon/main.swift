import GhostServer
import TestKinds
#if canImport(Glibc)
import Glibc
#endif

// ghostd with the kinds used only by tests: its catalog is ghostd's plus
// TestKinds' (a kind is one module and one catalog line, there).
exit(Daemon.main(Array(CommandLine.arguments.dropFirst()), kinds: TestKinds.all))
