import GhostBench
#if canImport(Glibc)
import Glibc
#endif

exit(BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
