import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Foundation
import Testing

extension ChannelPublisherTests {
    /// Release `version` in the newest schema and 2, as `digno build --schema 4 --schema 2` writes
    /// them: the newest's path first.
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
            #expect(head.offered.map(\.schemaVersion) == [2, BundleSchema.version])
            #expect(head.offered.map(\.releaseCount) == [index + 1, index + 1])
        }
        // A renewal and a rollback are no new release.
        #expect(try publisher.renew(now: now, lifetime: 86_400).head.offered.map(\.releaseCount) == [3, 3])
        let back = try publisher.publish(bundles: releases[1], now: now, lifetime: 86_400, rollbackTo: "2026.11.1").head
        #expect(back.offered.map(\.releaseCount) == [3, 3])
        #expect(try head().offered.map(\.releaseCount) == [3, 3], "as read back, verified")

        // A head from before the count counts as one release, and the count is a lower bound from then on.
        var uncounted = try head()
        uncounted.releaseCount = nil
        uncounted.schemas?[0].releaseCount = nil
        try publisher.signed(uncounted).write(to: URL(fileURLWithPath: channel + "/channels/stable/head.json"))
        let next = try bundlesInTwoSchemas("2026.11.3", mark: "S3")
        let counted = try publisher.publish(bundles: next, now: now, lifetime: 86_400).head
        #expect(counted.offered.map(\.releaseCount) == [2, 2] && counted.offered.map(\.releaseCountIsAtLeast) == [true, true])

        // Dropping schema 2 says for how many releases it was served, and needs asking.
        let newest = try bundlesInTwoSchemas("2026.11.4", mark: "S4")
        let dropped = ChannelPublisher.ServedSchema(schema: 2, releaseCount: 2, isAtLeast: true, latest: "2026.11.3")
        #expect(dropped.releasesText == "at least 2 releases")
        #expect(throws: ChannelPublisher.Failure.schemaDropped(dropped)) {
            try publisher.publish(bundles: [newest[0]], now: now, lifetime: 86_400)
        }
        let retired = try publisher.publish(bundles: [newest[0]], now: now, lifetime: 86_400, retiring: [2])
        #expect(retired.retired == [dropped])
        #expect(retired.head.offered.map(\.schemaVersion) == [BundleSchema.version] && retired.head.releaseCount == 3)
    }

    /// Clients do not read the count; the publisher, which adds one to it, refuses a head whose
    /// count is out of range, in any schema, and stops counting at 2^53.
    @Test func aPublisherRefusesAHeadCountingNoReleasesOrTooMany() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let publisher = publisher(deltas: 0)
        _ = try publisher.publish(bundles: try bundlesInTwoSchemas("2026.11.0", mark: "C"), now: now, lifetime: 86_400)
        let headPath = URL(fileURLWithPath: channel + "/channels/stable/head.json")
        let original = try head()
        let next = try bundlesInTwoSchemas("2026.11.1", mark: "D")
        for (own, newer) in [(0, 1), (1, -1), (1, ChannelHead.maximumSequence + 1)] {
            var head = original
            head.releaseCount = own
            head.schemas?[0].releaseCount = newer
            try publisher.signed(head).write(to: headPath)
            #expect(try ChannelHead.verified(try Data(contentsOf: headPath), keys: [ChannelKey(key.publicKey)]) == head, "a client takes it")
            #expect(throws: ChannelPublisher.Failure.head("it counts \(own == 0 ? own : newer) releases in schema \(own == 0 ? 2 : BundleSchema.version)")) {
                try publisher.publish(bundles: next, now: now, lifetime: 86_400)
            }
        }
        var highest = original
        highest.releaseCount = ChannelHead.maximumSequence
        try publisher.signed(highest).write(to: headPath)
        #expect(try publisher.publish(bundles: next, now: now, lifetime: 86_400).head.offered.map(\.releaseCount) == [ChannelHead.maximumSequence, 2])
    }
}
