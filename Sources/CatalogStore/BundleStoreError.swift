import CatalogModel
import ChannelFormat
import Foundation

/// Why a ``BundleStore`` could not update, or has no bundle to give.
public enum BundleStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The channel served something the store will not install; what it has stays as it was.
    case refused(Refusal)
    /// The head or the bundle could not be fetched: an HTTP status other than the expected one,
    /// a connection lost, a timeout; the failure says which (`TransferFailure.cause`,
    /// `isConnectionProblem`). A partly downloaded bundle is kept and resumed next time.
    case transfer(TransferFailure)
    /// A file of the store could not be read or written; the failure says why
    /// (`StorageFailure.isDiskFull`, `isPermissionProblem`, the error number).
    case storage(StorageFailure)
    /// No installed bundle opens and there is no seed, or it does not open either: why, in
    /// words, and the error of each bundle that did not open (the installed releases', newest
    /// first, then the seed's), each with its code.
    case noBundle(String, causes: [ErrorCause] = [])
    /// The task was cancelled; what was downloaded is kept for the next update.
    case cancelled
    /// This update waited two minutes for another update of the store's folder (in this process
    /// or another) to finish, and gave up; the other goes on and installs what there is.
    case busy

    /// What the channel served that the store refused.
    public enum Refusal: Sendable, Equatable, CustomStringConvertible {
        /// The head is not signed by a pinned key, or is not a head.
        case head(ChannelError)
        /// The head (or a key statement, or a root) is larger than one may be.
        case headTooLarge(limit: Int)
        /// A root (`path`: `roots/<version>.json`, or the app's shipped root) is not one to take:
        /// signed by too few of the trusted root keys or of its own, of another version than its
        /// place, not a root. None of the roots of the update are taken.
        case root(String, ChannelError)
        /// The channel has more roots than one update takes (`RootWalk.limitPerUpdate`, 32): those
        /// up to root `taken` are kept, and the next update goes on from there. No head is
        /// judged until the newest root is taken.
        case rootsPending(taken: Int)
        /// The newest root has expired: nothing is installed until the channel serves a renewed
        /// one (its release manager signs it offline).
        case rootExpired(version: Int, expired: Date)
        /// A new root's release keys do not vouch for the head the store had seen, and the
        /// first head after it names a release older than an installed one they vouch for: an
        /// old release served again, not taken.
        case olderThanInstalled(releaseVersion: String, installed: String)
        /// The head is for another channel.
        case otherChannel(String)
        /// The head's sequence number is lower than one the store has seen: an old head
        /// replayed, which would hold the app back.
        case replayed(sequence: Int, highestSeen: Int)
        /// A different head with the sequence number of one the store has seen.
        case sequenceReused(Int)
        /// The host sent more bytes than the head declares; the download was stopped there.
        case bundleTooLong(declared: Int)
        /// The head declares a bundle larger than the store downloads
        /// (`BundleStore.maximumBundleSize`, 2 GiB); nothing was fetched.
        case bundleTooLarge(declared: Int, limit: Int)
        /// The host's whole bundle was shorter than the head declares.
        case bundleTooShort(received: Int, declared: Int)
        /// The downloaded bytes are not the ones the head signed.
        case bundleDigest(found: String, signed: String)
        /// The bytes are the signed ones but do not open as a bundle, or hold other content
        /// than the head says (`BundleFailure.Code.content`): the failure as found.
        case bundleUnreadable(BundleFailure)
        /// The head's bundle was refused before; it is not downloaded again until the channel
        /// publishes a new head.
        case refusedBefore(sha256: String)

        public var description: String {
            switch self {
            case .head(let error): "\(error)"
            case .headTooLarge(let limit): "the host sent more than \(limit) bytes for a head, key statement or root, more than one can be"
            case .root(let path, let error): "the root \(path) is not taken: \(error)"
            case .rootsPending(let taken):
                "the channel has more roots than one update takes: taken up to root \(taken); the next update goes on from there"
            case .rootExpired(let version, let expired):
                "the channel's root (version \(version)) expired at \(ISO8601DateFormatter().string(from: expired)); nothing is installed until the channel serves a renewed root"
            case .olderThanInstalled(let release, let installed):
                "the head names release \(release), older than the installed \(installed), after a new root replaced the keys that signed the last head seen"
            case .otherChannel(let channel): "the head is the channel '\(channel)''s"
            case .replayed(let sequence, let highest):
                "the head's sequence number \(sequence) is lower than \(highest), already seen: an old head was served again"
            case .sequenceReused(let sequence): "the head differs from the one already seen with sequence number \(sequence)"
            case .bundleTooLong(let declared): "the host sent more than the \(declared) bytes the head declares; the download was stopped"
            case .bundleTooLarge(let declared, let limit):
                "the head declares a bundle of \(declared) bytes, more than the \(limit) the store takes; nothing was fetched"
            case .bundleTooShort(let received, let declared): "the host's bundle is \(received) bytes, not the \(declared) the head declares"
            case .bundleDigest(let found, let signed): "the downloaded bundle's SHA-256 is \(found), not the signed \(signed)"
            case .bundleUnreadable(let reason): "the downloaded bundle cannot be used: \(reason)"
            case .refusedBefore(let sha256):
                "the bundle \(sha256) was refused at an earlier update; it is not downloaded again until the channel publishes a new head"
            }
        }
    }

    public var description: String {
        switch self {
        case .refused(let refusal): "refused: \(refusal)"
        case .transfer(let reason): "cannot fetch: \(reason)"
        case .storage(let reason): "cannot use the store: \(reason)"
        case .noBundle(let reason, _): "no bundle to open: \(reason)"
        case .cancelled: "cancelled"
        case .busy: "waited two minutes for another update of this store to finish; it goes on, and installs what there is"
        }
    }
}
