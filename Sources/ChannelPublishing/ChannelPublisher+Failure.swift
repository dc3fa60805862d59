import CatalogModel
import ChannelFormat

extension ChannelPublisher {
    /// Why a publish, a renewal or a key rotation wrote nothing (or, for `writing`, stopped).
    /// Each made from another error carries it (`cause`: SQLite's, the system's, the head's).
    package enum Failure: CausedError, Equatable, CustomStringConvertible {
        case badChannelName(String)
        case bundle(String, cause: ErrorCause? = nil)
        case head(String, cause: ErrorCause? = nil)
        case notNewer(new: String, current: String)
        case sameContent(String)
        case rollback(String)
        case rotation(String, cause: ErrorCause? = nil)
        case keyReplaced(statement: String)
        /// The channel's root asks for more signatures by its release keys than the keys given make.
        case root(String)
        case deltas(String, cause: ErrorCause? = nil)
        case writing(String, cause: ErrorCause? = nil)
        /// The channel serves a schema this publish would drop, and the publish was not asked
        /// to retire it.
        case schemaDropped(ServedSchema)

        package var description: String {
            switch self {
            case .badChannelName(let name):
                ChannelLayout.notAChannelName(name)
            case .bundle(let reason, let cause): "the bundle cannot be published: \(reason)" + Self.because(cause)
            case .head(let reason, let cause): "the channel's head cannot be read: \(reason)" + Self.because(cause)
            case .notNewer(let new, let current):
                "the bundle is release \(new), not newer than the channel's \(current); build a newer release, or give --rollback-to \(new) to go back on purpose"
            case .sameContent(let version): "the channel already serves this content (release \(version)); nothing was published"
            case .rollback(let reason): "cannot roll back: \(reason)"
            case .rotation(let reason, let cause): "cannot change the key: \(reason)" + Self.because(cause)
            case .keyReplaced(let statement):
                "the key given was handed over to another by \(statement); sign with the key it names"
            case .root(let reason): "the channel's root would refuse the head: \(reason)"
            case .deltas(let reason, let cause): "cannot write the deltas: \(reason)" + Self.because(cause)
            case .writing(let reason, let cause): "cannot write the channel: \(reason)" + Self.because(cause)
            case .schemaDropped(let dropped):
                "bundle schema \(dropped.schema) has been served for \(dropped.releasesText) (the latest being \(dropped.latest)), and this publish has no bundle of it: "
                    + "apps that read only schema \(dropped.schema) would get no more releases; build it too (digno build writes it by default), "
                    + "or give --retire-schema \(dropped.schema) to stop serving it on purpose"
            }
        }

        /// The error this one was made from, when one was.
        package var cause: ErrorCause? {
            switch self {
            case .bundle(_, let cause), .head(_, let cause), .rotation(_, let cause), .deltas(_, let cause), .writing(_, let cause): cause
            case .badChannelName, .notNewer, .sameContent, .rollback, .keyReplaced, .root, .schemaDropped: nil
            }
        }

        /// ": the cause", when there is one.
        private static func because(_ cause: ErrorCause?) -> String { cause.map { ": \($0)" } ?? "" }
    }

    /// What a publish did.
    package struct Outcome: Equatable {
        package var head: ChannelHead
        /// The head's path from the channel folder, `channels/<channel>/head.json`.
        package var headPath: String
        /// Bundles no head names any more, removed.
        package var removed: [String]
        /// Why the release notes could not be made, when they could not (the head then has none).
        package var notesProblem: Failure? = nil
        /// The recent releases that have no delta to this one, and why (too large to be worth
        /// it, or the delta could not be made): "from bundles/<sha256>.sqlite: why".
        package var deltasLeftOut: [String] = []
        /// The schemas this publish stopped serving (`retiring`).
        package var retired: [ServedSchema] = []
        /// The channel's newest root, for a warning well before it expires.
        package var root: RootStatement? = nil
    }

    /// A bundle schema the channel has served, as a publish that leaves it out tells it.
    package struct ServedSchema: Equatable, Sendable {
        package var schema: Int
        /// For how many releases the channel served it (`ChannelHead.releaseCount`).
        package var releaseCount: Int
        /// Whether the channel served it before heads counted releases: `releaseCount` is then
        /// a lower bound.
        package var isAtLeast: Bool
        /// The last release served in it: the newest its apps can have.
        package var latest: String

        package init(schema: Int, releaseCount: Int, isAtLeast: Bool = false, latest: String) {
            self.schema = schema
            self.releaseCount = releaseCount
            self.isAtLeast = isAtLeast
            self.latest = latest
        }

        /// "14 releases", "at least 2 releases".
        package var releasesText: String {
            (isAtLeast ? "at least " : "") + "\(releaseCount) release\(releaseCount == 1 ? "" : "s")"
        }
    }
}
