import ChannelFormat
import Foundation

extension ChannelPublisher {
    /// Publishes the channel's head again, unchanged but for a new sequence number and an
    /// expiry `lifetime` from `now`: what keeps a channel with no new release installable, since
    /// clients install nothing from an expired head.
    package func renew(now: Date, lifetime: TimeInterval) throws(Failure) -> Outcome {
        guard ChannelLayout.isChannelName(channel) else { throw .badChannelName(channel) }
        let noHead = Failure.head("the channel has no head to renew; publish a bundle first")
        guard FileManager.default.fileExists(atPath: path(headPath)) else { throw noHead }
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }
        try refuseReplacedKey()
        try refuseTooFewRootSignatures()
        guard var head = try currentHead() else { throw noHead }
        guard head.sequence < ChannelHead.maximumSequence else { throw .head("its sequence number is the highest a head may have") }
        head.sequence += 1
        head.expires = now.addingTimeInterval(lifetime)
        try replaceAtomically(headPath, with: try signed(head))
        return Outcome(head: head, headPath: headPath, removed: [], root: ChannelRoots(channelFolder: channelFolder).newest())
    }
}
