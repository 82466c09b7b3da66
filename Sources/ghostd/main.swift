import GhostServer
#if canImport(Glibc)
import Glibc
#endif

exit(Daemon.main(Array(CommandLine.arguments.dropFirst())))
