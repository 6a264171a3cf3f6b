import GroveReport
#if canImport(Glibc)
import Glibc
#endif

MemoryPolicy.install()
StopSignals.install()
exit(CommandRunner.main(Array(CommandLine.arguments.dropFirst())).rawValue)
