import ChannelFormat

extension ChannelPublisher {
    /// Why a publish, a renewal or a key rotation wrote nothing (or, for `writing`, stopped).
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case badChannelName(String)
        case bundle(String)
        case head(String)
        case notNewer(new: String, current: String)
        case sameContent(String)
        case rollback(String)
        case rotation(String)
        case keyReplaced(statement: String)
        case deltas(String)
        case writing(String)
        /// The channel serves a schema this publish would drop, and the publish was not asked
        /// to retire it.
        case schemaDropped(ServedSchema)

        package var description: String {
            switch self {
            case .badChannelName(let name):
                ChannelLayout.notAChannelName(name)
            case .bundle(let reason): "the bundle cannot be published: \(reason)"
            case .head(let reason): "the channel's head cannot be read: \(reason)"
            case .notNewer(let new, let current):
                "the bundle is release \(new), not newer than the channel's \(current); build a newer release, or give --rollback-to \(new) to go back on purpose"
            case .sameContent(let version): "the channel already serves this content (release \(version)); nothing was published"
            case .rollback(let reason): "cannot roll back: \(reason)"
            case .rotation(let reason): "cannot change the key: \(reason)"
            case .keyReplaced(let statement):
                "the key given was handed over to another by \(statement); sign with the key it names"
            case .deltas(let reason): "cannot write the deltas: \(reason)"
            case .writing(let reason): "cannot write the channel: \(reason)"
            case .schemaDropped(let dropped):
                "bundle schema \(dropped.schema) has been served for \(dropped.releasesText) (the latest being \(dropped.latest)), and this publish has no bundle of it: "
                    + "apps that read only schema \(dropped.schema) would get no more releases; build it too (digno build writes it by default), "
                    + "or give --retire-schema \(dropped.schema) to stop serving it on purpose"
            }
        }
    }

    /// What a publish did.
    package struct Outcome: Equatable {
        package var head: ChannelHead
        /// The head's path from the channel folder, `channels/<channel>/head.json`.
        package var headPath: String
        /// Bundles no head names any more, removed.
        package var removed: [String]
        /// Why the release notes could not be made, when they could not (the head then has none).
        package var notesProblem: String? = nil
        /// The recent releases that have no delta to this one, and why (too large to be worth
        /// it, or the delta could not be made): "from bundles/<sha256>.sqlite: why".
        package var deltasLeftOut: [String] = []
        /// The schemas this publish stopped serving (`retiring`).
        package var retired: [ServedSchema] = []
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
