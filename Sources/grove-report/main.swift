import GroveReport
#if canImport(Glibc)
import Glibc
#endif

StopSignals.install()
exit(CommandRunner.main(Array(CommandLine.arguments.dropFirst())).rawValue)
