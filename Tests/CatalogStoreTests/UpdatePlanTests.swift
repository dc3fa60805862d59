import CatalogModel
@testable import CatalogStore
import ChannelFormat
import Crypto
import Foundation
import Testing

/// Every decision of an update, as a table: what the store holds and the head it verified in,
/// the plan out (`UpdatePlan.decide`), with no host and no file. BundleStoreTests carry the
/// plans out against a channel.
@Suite struct UpdatePlanTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A head of release `version` whose bundle is `sha` (one letter, repeated), with `content`.
    static func head(_ version: String, _ sha: Character, content: Character = "c", schema: Int = 4,
                     expires: Date = now.addingTimeInterval(86_400)) -> ChannelHead {
        ChannelHead(channel: "stable", sequence: 7, releaseVersion: version, releaseDate: Day("2026-11-20")!, schemaVersion: schema,
                    contentDigest: String(repeating: content, count: 64),
                    bundle: .init(path: "bundles/\(sha).sqlite", sha256: String(repeating: sha, count: 64), bytes: 1_000),
                    expires: expires, retained: [])
    }

    static func release(_ version: String, _ sha: Character, content: Character = "c") -> BundleStore.Release {
        BundleStore.release(of: head(version, sha, content: content))
    }

    /// The store's holdings: the releases installed (newest first), those whose files open,
    /// those held as their signed bytes, the seed's release and content, a refused bundle.
    struct Holding {
        var installed: [BundleStore.Release] = []
        var opening: Set<String> = []
        var whole: Set<String> = []
        var seed: (version: String, content: Character)?
        var refused: Character?
        /// The newest root taken, for a store pinning root keys.
        var root: (version: Int, expires: Date)?
    }

    static func plan(_ head: ChannelHead, _ holding: Holding) -> UpdatePlan {
        UpdatePlan.decide(.init(
            head: head, root: holding.root, now: now, installed: holding.installed, refusedBundle: holding.refused.map { String(repeating: $0, count: 64) },
            opens: { holding.opening.contains($0.sha256) }, holdsSignedBytes: { holding.whole.contains($0.sha256) },
            seedRelease: {
                holding.seed.map {
                    ReleaseInfo(brand: "Café Digno", releaseVersion: $0.version, releaseDate: Day("2026-11-01")!, schemaVersion: 4,
                                contentDigest: String(repeating: $0.content, count: 64), generator: "test")
                }
            }))
    }

    static let a = release("2026.11.1", "a"), b = release("2026.11.2", "b", content: "d")
    static func sha(_ letter: Character) -> String { String(repeating: letter, count: 64) }

    @Test(arguments: [
        // The root, for a store pinning root keys: its expiry comes before anything else.
        ("the newest root expired", head("2026.11.2", "b", content: "d"), Holding(installed: [a], root: (3, now)),
         UpdatePlan.rootExpired(version: 3, expired: now)),
        ("the newest root expired, the head too", head("2026.11.2", "b", content: "d", expires: now), Holding(installed: [a], root: (3, now)),
         .rootExpired(version: 3, expired: now)),
        ("a root still valid", head("2026.11.2", "b", content: "d"),
         Holding(installed: [a], opening: [sha("a")], root: (3, now.addingTimeInterval(1))), .fetch(b, repair: false)),
        // The head itself.
        ("expired, whatever is held", head("2026.11.2", "b", content: "d", expires: now), Holding(installed: [a]),
         UpdatePlan.expired(releaseVersion: "2026.11.2", expired: now)),
        ("a schema not read", head("2026.11.2", "b", schema: 99), Holding(installed: [a]),
         .schemaNotSupported(releaseVersion: "2026.11.2", schemaVersion: 99, supported: CatalogBundle.supportedSchemaVersion)),
        // What is installed.
        ("the installed release, which opens", head("2026.11.2", "b", content: "d"), Holding(installed: [b, a], opening: [sha("b"), sha("a")]),
         .upToDate(b)),
        ("the installed release, damaged: a repair", head("2026.11.2", "b", content: "d"), Holding(installed: [b, a], opening: [sha("a")]),
         .fetch(b, repair: true)),
        ("the installed release, damaged and refused before", head("2026.11.2", "b", content: "d"),
         Holding(installed: [b, a], opening: [sha("a")], refused: "b"), .refusedBefore(sha256: sha("b"))),
        ("a new release", head("2026.11.2", "b", content: "d"), Holding(installed: [a], opening: [sha("a")], whole: [sha("a")]),
         .fetch(b, repair: false)),
        ("a new release refused before", head("2026.11.2", "b", content: "d"), Holding(installed: [a], refused: "b"),
         .refusedBefore(sha256: sha("b"))),
        ("rolled back to the previous release, held whole", head("2026.11.1", "a"),
         Holding(installed: [b, a], opening: [sha("b"), sha("a")], whole: [sha("b"), sha("a")]), .reinstall(a)),
        ("rolled back to the previous release, which no longer opens", head("2026.11.1", "a"),
         Holding(installed: [b, a], opening: [sha("b")], whole: [sha("b"), sha("a")]), .fetch(a, repair: false)),
        ("rolled back, the previous release opening but not its signed bytes", head("2026.11.1", "a"),
         Holding(installed: [b, a], opening: [sha("b"), sha("a")], whole: [sha("b")]), .fetch(a, repair: false)),
        // Nothing installed: the seed.
        ("the seed holds the head's content", head("2026.11.2", "b", content: "d"), Holding(seed: ("2026.11.0", "d")),
         .seedIsCurrent(releaseVersion: "2026.11.0")),
        ("the seed holds other content", head("2026.11.2", "b", content: "d"), Holding(seed: ("2026.11.0", "c")), .fetch(b, repair: false)),
        ("no seed, nothing installed", head("2026.11.2", "b", content: "d"), Holding(), .fetch(b, repair: false)),
        ("a seed beside an installed release is not asked", head("2026.11.2", "b", content: "d"),
         Holding(installed: [a], opening: [sha("a")], seed: ("2026.11.0", "d")), .fetch(b, repair: false)),
    ] as [(String, ChannelHead, Holding, UpdatePlan)])
    func theUpdateIsDecidedFromWhatTheStoreHolds(_ what: String, head: ChannelHead, holding: Holding, plan: UpdatePlan) {
        #expect(Self.plan(head, holding) == plan, "\(what)")
    }

    /// "Nothing new" reads no file it need not: not the seed, not the head's bundle's bytes.
    @Test func nothingNewAsksOnlyWhetherTheInstalledReleaseOpens() {
        var asked: [String] = []
        let plan = UpdatePlan.decide(.init(
            head: Self.head("2026.11.2", "b", content: "d"), now: Self.now, installed: [Self.b, Self.a], refusedBundle: nil,
            opens: { asked.append("opens \($0.releaseVersion)"); return true },
            holdsSignedBytes: { asked.append("bytes \($0.releaseVersion)"); return true },
            seedRelease: { asked.append("seed"); return nil }))
        #expect(plan == .upToDate(Self.b))
        #expect(asked == ["opens 2026.11.2"])
    }

    // MARK: - Roots

    // Keys hold no mutable state; swift-crypto does not mark them Sendable.
    nonisolated(unsafe) static let rootKeys = (0..<3).map { _ in Curve25519.Signing.PrivateKey() }
    nonisolated(unsafe) static let releaseKeys = (0..<3).map { _ in Curve25519.Signing.PrivateKey() }
    static let pin = try! PinnedRoot(keys: rootKeys.map { ChannelKey($0.publicKey) }, threshold: 2)

    /// Root `version` naming release keys `release` (indexes), signed by the root keys `signers`.
    static func root(_ version: Int, release: [Int] = [0], signers: [Int] = [0, 1], rootKeys: [Int] = [0, 1, 2], rootThreshold: Int = 2) -> Data {
        let statement = RootStatement(version: version, expires: now, rootKeys: rootKeys.map { ChannelKey(Self.rootKeys[$0].publicKey) },
                                      rootThreshold: rootThreshold, releaseKeys: release.map { ChannelKey(releaseKeys[$0].publicKey) },
                                      releaseThreshold: 1)
        return try! SignedEnvelope.signing(statement.encoded(), payloadType: RootStatement.payloadType,
                                           with: signers.map { Self.rootKeys[$0] }).encoded()
    }

    /// What `RootWalk.take` makes of each root served after root 1: taken, or refused and why.
    @Test(arguments: [
        ("the next root, signed by two of three", root(2), "taken"),
        ("signed by the three", root(2, signers: [0, 1, 2]), "taken"),
        ("signed by one root key of the two needed", root(2, signers: [0]), "too few: 1 of 2"),
        ("signed by no root key", root(2, signers: []), "not signed"),
        ("a root that skips a version", root(3), "not a root: it says version 3, at the place of version 2"),
        ("root keys rotated, signed by the old and the new", root(2, signers: [0, 1], rootKeys: [0, 1], rootThreshold: 2), "taken"),
        ("root keys rotated to ones that did not sign", root(2, signers: [0, 1], rootKeys: [2], rootThreshold: 1), "too few: 0 of 1"),
    ] as [(String, Data, String)])
    func eachRootIsTakenOrRefusedWithItsReason(_ what: String, served: Data, expected: String) throws {
        let first = try RootWalk.first(Self.root(1), pin: Self.pin, version: 1)
        let outcome: String
        do {
            let next = try RootWalk.take(served, after: first)
            outcome = next.version == 2 ? "taken" : "taken as \(next.version)"
        } catch .tooFewSignatures(let found, let needed, _) {
            outcome = "too few: \(found) of \(needed)"
        } catch .notSigned {
            outcome = "not signed"
        } catch .notARoot(let reason, _) {
            outcome = "not a root: \(reason)"
        } catch {
            outcome = "\(error)"
        }
        #expect(outcome == expected, "\(what)")
    }

    @Test func theFirstRootIsVouchedForByThePinAndAKeptOneByItself() throws {
        #expect(try RootWalk.first(Self.root(1), pin: Self.pin, version: 1).version == 1)
        // The app's shipped root may be any version; the channel's first must be 1.
        #expect(try RootWalk.first(Self.root(5), pin: Self.pin, version: nil).version == 5)
        #expect(throws: ChannelError.self) { try RootWalk.first(Self.root(5), pin: Self.pin, version: 1) }
        #expect(throws: ChannelError.tooFewSignatures(found: 1, needed: 2, of: "the trusted root keys")) {
            try RootWalk.first(Self.root(1, signers: [2]), pin: Self.pin, version: 1)
        }
        // A first root signed by enough pinned keys but naming another root key, or asking for
        // fewer signatures than the pin: refused (one leaked root key cannot lower the bar).
        let stranger = Curve25519.Signing.PrivateKey()
        let widened = RootStatement(version: 1, expires: Self.now, rootKeys: Self.rootKeys.map { ChannelKey($0.publicKey) } + [ChannelKey(stranger.publicKey)],
                                    rootThreshold: 2, releaseKeys: [ChannelKey(Self.releaseKeys[0].publicKey)], releaseThreshold: 1)
        let signed = try SignedEnvelope.signing(widened.encoded(), payloadType: RootStatement.payloadType, with: [Self.rootKeys[0], Self.rootKeys[1]]).encoded()
        #expect(throws: ChannelError.self) { try RootWalk.first(signed, pin: Self.pin, version: 1) }
        #expect(throws: ChannelError.self) { try RootWalk.first(Self.root(1, signers: [0, 1], rootThreshold: 1), pin: Self.pin, version: 1) }
        // A kept root decayed on the disk (a flipped byte) is not trusted: the walk starts again.
        var decayed = Self.root(4)
        decayed[decayed.count / 2] ^= 0x01
        #expect(RootWalk.kept(Self.root(4))?.version == 4)
        #expect(RootWalk.kept(decayed) == nil)
    }

    /// A key signing an envelope many times counts once, and only its first signature is checked.
    @Test func aKeyCountsOnceHoweverOftenItSigns() throws {
        let statement = RootStatement(version: 2, expires: Self.now, rootKeys: Self.rootKeys.map { ChannelKey($0.publicKey) }, rootThreshold: 2,
                                      releaseKeys: [ChannelKey(Self.releaseKeys[0].publicKey)], releaseThreshold: 1)
        var envelope = try SignedEnvelope.signing(statement.encoded(), payloadType: RootStatement.payloadType, with: [Self.rootKeys[0]])
        envelope.signatures += Array(repeating: envelope.signatures[0], count: 50)
        let first = try RootWalk.first(Self.root(1), pin: Self.pin, version: 1)
        #expect(throws: ChannelError.tooFewSignatures(found: 1, needed: 2, of: "the trusted root keys")) { try RootWalk.take(envelope.encoded(), after: first) }
    }
}
