#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// `GROVE_REPORT_STATE_PHASES=1`: a stateful run writes how long each phase of its merge took,
/// in wall time and in CPU time of all its threads, and the process's peak memory at its end to
/// stderr (`state phase NAME MS cpu MS peak MIB`, and `rows N` after a load: the stored rows it
/// read), for the nights benchmark and anyone asking where a night's time and memory go. Inert
/// unless set.
struct StatePhaseTimer {
    private static let enabled = getenv("GROVE_REPORT_STATE_PHASES").map { String(cString: $0) == "1" } ?? false
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = Self.processCPUMilliseconds()

    /// Ends the phase named `name` and starts the next.
    mutating func lap(_ name: StaticString, rows: Int? = nil) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let milliseconds = Double(now - last) / 1e6
        let cpu = Self.processCPUMilliseconds()
        let line = Array("state phase \(name) \((milliseconds * 10).rounded() / 10) cpu \(Int((cpu - lastCPU).rounded())) peak \(Self.peakMebibytes())\(rows.map { " rows \($0)" } ?? "")\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        (last, lastCPU) = (now, cpu)
    }

    /// User and system time of every thread of the process so far, in milliseconds.
    private static func processCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }

    /// The process's peak resident memory so far (`VmHWM`), in MiB; 0 where it cannot be read.
    private static func peakMebibytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kibibytes / 1024
    }
}
