import CatalogModel
import Foundation
import Testing

/// A cancelled read is a cancellation, never damage: what a search-as-you-type view model sees
/// when SwiftUI's `.task(id:)` cancels the previous search on each keystroke. (Before, a
/// cancelled read was `.damaged(reason: "CancellationError()")`, whose advice is to install the
/// bundle again.)
@Suite struct CancellationTests {
    let bundle: CatalogBundle

    init() throws {
        bundle = try CatalogBundle(path: BundleFixtures.shipped)
    }

    /// What a read in a task that is already cancelled gives.
    static func inACancelledTask<T: Sendable>(_ read: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do { return .success(try await read()) } catch { return .failure(error) }
        }.value
    }

    @Test func aSearchCancelledOnEachKeystrokeIsCancelledNeverDamaged() async throws {
        let bundle = bundle
        // Typed a letter at a time; each keystroke cancels the search before it, as `.task(id:)` does.
        let typed = "cappuccino espresso"
        var searches: [Task<[SearchHit], any Error>] = []
        for end in typed.indices.dropFirst() + [typed.endIndex] {
            searches.last?.cancel()
            let text = String(typed[..<end])
            searches.append(Task { try await bundle.search(text) })
        }
        var cancelled = 0
        for search in searches.dropLast() {
            do {
                _ = try await search.value
            } catch let error as CatalogBundleError {
                #expect(error == .cancelled)
                cancelled += 1
            }
        }
        // The last search ran to its end; those before it ended either way, none as damage.
        #expect(try await !searches.last!.value.isEmpty)
        print("\(cancelled) of \(searches.count - 1) searches were cancelled")
        // Cancelled for certain: a search in a task cancelled before it asks.
        guard case .failure(let error) = await Self.inACancelledTask({ try await bundle.search("cappuccino") }) else {
            Issue.record("a cancelled search returned hits")
            return
        }
        #expect(error as? CatalogBundleError == .cancelled)
        #expect("\(error)" == "the read was cancelled")
    }

    @Test func everyReadingCallAndScreenIsCancelledAsSuch() async throws {
        let bundle = bundle
        let day = bundle.release.releaseDate
        let reads: [String: @Sendable () async throws -> Any] = [
            "sections": { try await bundle.sections() },
            "home": { try await bundle.home(on: day) },
            "productRows": { try await bundle.productRows() },
            "recipeRows": { try await bundle.recipeRows() },
            "retailerRows": { try await bundle.retailerRows() },
            "company": { try await bundle.company() },
            "retailersNearest": { try await bundle.retailersNearest(to: Coordinate(latitude: 60.17, longitude: 24.94)) },
        ]
        for (name, read) in reads {
            guard case .failure(let error) = await Self.inACancelledTask({ _ = try await read() }) else {
                Issue.record("\(name): read in a cancelled task")
                continue
            }
            #expect(error as? CatalogBundleError == .cancelled, "\(name): \(error)")
        }
        guard case .failure(let error) = await Self.inACancelledTask({ try await bundle.screen(for: .products, today: day) }) else {
            Issue.record("a screen was read in a cancelled task")
            return
        }
        #expect(error as? ScreenError == .bundle(.cancelled))
        // The bundle is as good as before.
        #expect(try await bundle.search("cappuccino").isEmpty == false)
    }
}
