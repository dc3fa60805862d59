import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Foundation
import Testing

extension ChannelPublisherTests {
    /// Release `version` in schemas 3 and 2, as `digno build` writes them: the newest's path first.
    func bundlesInTwoSchemas(_ version: String, mark: String) throws -> [String] {
        let output = try bundle(version, mark: mark, olderSchemas: [2])
        return [output, BundleSchema.path(forBundle: output, schema: 2)]
    }

    @Test func eachSchemaCountsTheReleasesItWasServedForAndRetiringSaysHowMany() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let publisher = publisher(deltas: 0)
        var releases: [[String]] = []
        for (index, version) in ["2026.11.0", "2026.11.1", "2026.11.2"].enumerated() {
            releases.append(try bundlesInTwoSchemas(version, mark: "S\(index)"))
            let head = try publisher.publish(bundles: releases[index], now: now, lifetime: 86_400).head
            #expect(head.offered.map(\.schemaVersion) == [2, 3])
            #expect(head.offered.map(\.releaseCount) == [index + 1, index + 1])
        }
        // A renewal and a rollback are no new release.
        #expect(try publisher.renew(now: now, lifetime: 86_400).head.offered.map(\.releaseCount) == [3, 3])
        let back = try publisher.publish(bundles: releases[1], now: now, lifetime: 86_400, rollbackTo: "2026.11.1").head
        #expect(back.offered.map(\.releaseCount) == [3, 3])
        #expect(try head().offered.map(\.releaseCount) == [3, 3], "as read back, verified")

        // A head from before the count counts as one release.
        var uncounted = try head()
        uncounted.releaseCount = nil
        uncounted.schemas?[0].releaseCount = nil
        try publisher.signed(uncounted).write(to: URL(fileURLWithPath: channel + "/channels/stable/head.json"))
        let next = try bundlesInTwoSchemas("2026.11.3", mark: "S3")
        #expect(try publisher.publish(bundles: next, now: now, lifetime: 86_400).head.offered.map(\.releaseCount) == [2, 2])

        // Dropping schema 2 says for how many releases it was served, and needs asking.
        let newest = try bundlesInTwoSchemas("2026.11.4", mark: "S4")
        let dropped = ChannelPublisher.Outcome.Retired(schema: 2, releases: 2, latest: "2026.11.3")
        #expect(throws: ChannelPublisher.Failure.schemaDropped(dropped)) {
            try publisher.publish(bundles: [newest[0]], now: now, lifetime: 86_400)
        }
        let retired = try publisher.publish(bundles: [newest[0]], now: now, lifetime: 86_400, retiring: [2])
        #expect(retired.retired == [dropped])
        #expect(retired.head.offered.map(\.schemaVersion) == [3] && retired.head.releaseCount == 3)
    }

    @Test func aHeadCountingNoReleasesOrMoreThanAHeadMayHaveIsNotAHead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let publisher = publisher(deltas: 0)
        _ = try publisher.publish(bundles: try bundlesInTwoSchemas("2026.11.0", mark: "C"), now: now, lifetime: 86_400)
        for count in [0, -1, ChannelHead.maximumSequence + 1] {
            var head = try head()
            head.schemas?[0].releaseCount = count
            #expect(throws: ChannelError.self) {
                try ChannelHead.verified(try publisher.signed(head), keys: [ChannelKey(key.publicKey)])
            }
        }
    }
}
