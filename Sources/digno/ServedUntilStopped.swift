import CatalogPreview
import Foundation

/// How `digno preview` and `digno studio` run their server: started, its address said, and
/// stopped cleanly by Ctrl-C or kill (open pages' streams end, the scratch folder goes). The
/// signals are handled on a queue of their own; the command waits for the outcome.
enum ServedUntilStopped {
    static func run(start: @escaping @Sendable () async throws(PreviewServer.Failure) -> String, stop: @escaping @Sendable () async -> Void,
                    discard: @escaping @Sendable () -> Void, scratch: URL, started: @escaping @Sendable (String) -> String,
                    then: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let finished = PreviewFinished()
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // A second Ctrl-C while stopping changes nothing: the first stop finishes.
                guard finished.claim() else { return }
                Task {
                    await stop()
                    say("stopped; removed \(scratch.path)")
                    finished.finish(nil)
                }
            }
            source.resume()
            return source
        }
        Task {
            do throws(PreviewServer.Failure) {
                let address = try await start()
                say(started(address))
                then(address)
            } catch .stopped {
                // Ctrl-C during the first build: the signal's handler says so and exits.
            } catch {
                discard()
                finished.finish(CommandFailed(error, status: 2))
            }
        }
        let failure = await finished.outcome()
        withExtendedLifetime(signals) {}
        if let failure { throw failure }
    }
}
