extension Duration {
    /// The duration in seconds, as `TimeInterval` and the benchmarks' figures count them.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded down: what the commands print.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
