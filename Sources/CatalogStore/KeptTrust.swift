import Foundation

/// What a store pinning root keys trusts with nothing fetched (`BundleStore.keptTrust`).
struct KeptTrust {
    /// The newest root the kept chain proves from the pin: where an update's walk starts.
    var proven: TrustedRoot?
    /// The root releases and seen heads are judged by: the proven one, or, when that is older
    /// than the root the store took, that root as kept, if it verifies as itself (as the client
    /// that took it checked it); nil when there is neither.
    var judge: TrustedRoot?
    /// The newest root the store took (`StoreState.rootTaken`, or a client before 2026-12's);
    /// 0 for none.
    var taken: Int

    /// Whether anything may be dropped by `judge`: it is the root the store took or a newer one,
    /// or the store took none (and then nothing is vouched for).
    var complete: Bool { judge != nil || taken == 0 }
}
