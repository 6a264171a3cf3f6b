import GroveReport
#if canImport(Glibc)
import Glibc
#endif

exit(CommandRunner.main(Array(CommandLine.arguments.dropFirst())).rawValue)
