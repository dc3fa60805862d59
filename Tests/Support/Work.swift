#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The work a piece of code does, measured so that a test can compare two sizes of one input
/// on a busy machine: the CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), which
/// other processes' load does not inflate as it does the time on the clock. A test asserts
/// only how two such measures compare (linear growth, not the square), never one on its own:
/// speed lives in the benchmarks (docs/BENCHMARKS.md). The code measured must run on the
/// calling thread alone.
package enum Work {
    /// The calling thread's CPU time in seconds that `body` took: the least of `runs` runs, so
    /// that a run slowed by a cache emptied by another process does not count.
    package static func cpuTime(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var least = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = now()
            try body()
            least = min(least, now() - start)
        }
        return least
    }

    /// How many times more CPU time `large` takes than `small` (each the least of `runs`).
    /// Linear work on an input four times larger gives about 4; work growing with its square, 16.
    package static func growth(runs: Int = 3, small: () throws -> Void, large: () throws -> Void) rethrows -> Double {
        let smallTime = try cpuTime(runs: runs, small)
        let largeTime = try cpuTime(runs: runs, large)
        // A clock tick's worth below which the small input's time says nothing.
        return largeTime / max(smallTime, 1e-5)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
