import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP response's status and headers (names in lowercase).
package struct ChannelResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]

    package init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }
}

/// How the store fetches files: GET, with the body handed over piece by piece as it arrives, so
/// that nothing holds a whole bundle in memory and a file larger than announced is stopped.
/// `URLSessionTransport` in apps; tests inject failures through it.
package protocol ChannelTransport: Sendable {
    /// GETs `url` with `headers`, failing when the whole transfer takes longer than
    /// `timeout` seconds. `response` sees the status and headers before any of the body; `body`
    /// gets the body's pieces (decoded when the server compressed them). Either may throw to
    /// stop the transfer, and that error is thrown.
    func get(
        _ url: URL, headers: [String: String], timeout: TimeInterval,
        response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
        body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void
    ) async throws(BundleStoreError) -> ChannelResponse
}

/// `ChannelTransport` over URLSession, one session per request for its delegate. No cache
/// (the store sends its own `If-None-Match`); a transfer that stalls for `idleTimeout` seconds
/// fails, and so does one that takes longer than its whole `timeout`. Both limits are kept by a
/// watchdog of its own as well as given to URLSession: Linux's URLSession enforces neither
/// against a host that trickles bytes (a head at one byte a second ran 300 s).
package struct URLSessionTransport: ChannelTransport {
    package var idleTimeout: TimeInterval
    /// The app's own configuration, copied (its cellular and Low Data Mode policy, its headers,
    /// its proxy); nil for an ephemeral one.
    private let base: SessionConfiguration?

    package init(idleTimeout: TimeInterval = 30, configuration: URLSessionConfiguration? = nil) {
        self.idleTimeout = idleTimeout
        base = configuration.map { SessionConfiguration($0) }
    }

    /// Whether this system's URLSession decodes a compressed body only as fast as the delegate
    /// takes it. Linux's does not: libcurl inflates everything the host sends and queues it for
    /// the delegate, so a 10 MB body that inflates to 10 GB (a "gzip bomb") held gigabytes
    /// before the store's size check could stop it, and it cannot be told not to decode. There
    /// the store asks for the plain bytes (`Accept-Encoding: identity`, so a static host serves
    /// the file, not its .gz copy) and refuses a compressed answer before its body; the cost is
    /// the compression's saving on Linux (about 4× for a bundle). Apple's URLSession decodes as
    /// it delivers, and an app keeps the gzip copies' saving; the store's size checks stop a
    /// bomb there. Not checked here: nothing builds for Apple platforms on this machine.
    package static let decodesInStep: Bool = {
        #if canImport(FoundationNetworking)
        false
        #else
        true
        #endif
    }()

    package func get(
        _ url: URL, headers: [String: String], timeout: TimeInterval,
        response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
        body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void
    ) async throws(BundleStoreError) -> ChannelResponse {
        let configuration = base?.copy() ?? URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // URLSession's own limits, ten seconds after the watchdog's, as a backstop: where
        // URLSession keeps them, the watchdog still speaks first, and says which limit it was
        // (with only a second between them, a loaded machine let URLSession's fire first).
        configuration.timeoutIntervalForRequest = idleTimeout + 10
        configuration.timeoutIntervalForResource = timeout + 10
        let delegate = StreamingDelegate(response: response, body: body)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if Self.decodesInStep == false { request.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
        let task = session.dataTask(with: request)
        delegate.watch(task, url: url, idleTimeout: idleTimeout, timeout: timeout)
        let result: Result<ChannelResponse, BundleStoreError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }
}

/// An app's `URLSessionConfiguration`, copied when given and again for each request, so that
/// the store's settings (no cache, its time limits) never reach the app's object.
private final class SessionConfiguration: @unchecked Sendable {
    // @unchecked Sendable: `configuration` is a private copy, only ever copied again.
    private let configuration: URLSessionConfiguration

    init(_ configuration: URLSessionConfiguration) {
        self.configuration = configuration.copy() as? URLSessionConfiguration ?? .ephemeral
    }

    func copy() -> URLSessionConfiguration {
        configuration.copy() as? URLSessionConfiguration ?? .ephemeral
    }
}

/// URLSession's delegate for one task: passes the response and the body's pieces on, and
/// resumes the waiting task once, when the transfer ends. Its callbacks come one at a time on
/// the session's serial queue; the lock covers what the caller's thread (`start`) and the
/// watchdog (`watch`) share with them.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let onResponse: @Sendable (ChannelResponse) throws(BundleStoreError) -> Void
    private let onBody: @Sendable (Data) throws(BundleStoreError) -> Void
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<ChannelResponse, BundleStoreError>, Never>?
    private var received: ChannelResponse?
    private var storedFailure: BundleStoreError?
    /// When the transfer last made progress: its start, its response, each piece of its body.
    private var lastProgress = ContinuousClock.now
    /// Whether the caller has its result (or it waits for `start`, in `result`).
    private var finished = false
    /// The result, when the task ended before `start` was given the continuation.
    private var result: Result<ChannelResponse, BundleStoreError>?

    private var failure: BundleStoreError? {
        get { lock.withLock { storedFailure } }
        set { lock.withLock { if storedFailure == nil { storedFailure = newValue } } }
    }

    private func progressed() {
        lock.withLock { lastProgress = .now }
    }

    /// Until the task ends, stops it when nothing has arrived for `idleTimeout` seconds or
    /// when it has run `timeout` seconds in all. Checked on a dispatch queue of its own at each
    /// deadline, never on Swift's cooperative pool: with the pool held by other work (an app's,
    /// or a test suite's synchronous tests on two cores), a watch that slept there stopped a
    /// 2 s transfer after 130 s.
    func watch(_ task: URLSessionTask, url: URL, idleTimeout: TimeInterval, timeout: TimeInterval) {
        let started = ContinuousClock.now
        let whole = Duration.milliseconds(Int64(timeout * 1000))
        let idle = Duration.milliseconds(Int64(idleTimeout * 1000))
        let queue = DispatchQueue(label: "CatalogStore.transfer-watch")
        @Sendable func check() {
            let (last, done) = lock.withLock { (lastProgress, finished) }
            if done { return }
            let now = ContinuousClock.now
            if now - started >= whole {
                stop(task, .transfer(.tookTooLong(url, limit: timeout)))
                return
            }
            if now - last >= idle {
                stop(task, .transfer(.silent(url, limit: idleTimeout)))
                return
            }
            let wait = min(started + whole, last + idle) - now
            let (seconds, attoseconds) = wait.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000) + 1
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: check)
        }
        queue.async(execute: check)
    }

    init(response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
         body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void) {
        onResponse = response
        onBody = body
    }

    func start(_ continuation: CheckedContinuation<Result<ChannelResponse, BundleStoreError>, Never>) {
        // The task may have ended already (cancelled before it started): its result is waiting.
        let early: Result<ChannelResponse, BundleStoreError>? = lock.withLock {
            if let result = self.result { return result }
            self.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        // Stopped already (the watchdog gave the caller its result): nothing more reaches it.
        guard failure == nil else {
            completionHandler(.cancel)
            return
        }
        guard let http = response as? HTTPURLResponse else {
            let address = response.url?.absoluteString ?? "the server"
            failure = .transfer(TransferFailure(url: address, cause: .answer, message: "\(address) did not answer in HTTP"))
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let channelResponse = ChannelResponse(status: http.statusCode, headers: headers)
        received = channelResponse
        progressed()
        if !URLSessionTransport.decodesInStep, [200, 206].contains(http.statusCode),
           let encoding = headers["content-encoding"], encoding.lowercased() != "identity" {
            let address = response.url?.absoluteString ?? "the server"
            failure = .transfer(.encodedBody(address, encoding: encoding))
            completionHandler(.cancel)
            return
        }
        do {
            try onResponse(channelResponse)
            completionHandler(.allow)
        } catch {
            failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        progressed()
        do {
            try onBody(data)
        } catch {
            failure = error
            dataTask.cancel()
        }
    }

    /// Cancels the task and gives the caller `error` at once: Linux's URLSession may take its
    /// time to end a cancelled task (20 s on a loaded machine), and the limit is the caller's.
    private func stop(_ task: URLSessionTask, _ error: BundleStoreError) {
        failure = error
        task.cancel()
        if let failure { finish(.failure(failure)) }
    }

    /// Hands `result` to the waiting caller, once: the first of the task's end and the
    /// watchdog's stop.
    private func finish(_ result: Result<ChannelResponse, BundleStoreError>) {
        let continuation: CheckedContinuation<Result<ChannelResponse, BundleStoreError>, Never>? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            defer { self.continuation = nil }
            if self.continuation == nil { self.result = result }
            return self.continuation
        }
        continuation?.resume(returning: result)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let result: Result<ChannelResponse, BundleStoreError>
        if let failure {
            result = .failure(failure)
        } else if let error {
            let url = task.originalRequest?.url?.absoluteString ?? "the server"
            switch (error as? URLError)?.code {
            case .cancelled?: result = .failure(.cancelled)
            // URLSession's own limits (Linux's words for it are only an error number).
            case .timedOut?:
                result = .failure(.transfer(TransferFailure(url: url, cause: .timeLimit, message: "\(url): it timed out")))
            default:
                let code = (error as? URLError)?.code.rawValue ?? URLError.Code.unknown.rawValue
                result = .failure(.transfer(TransferFailure(url: url, cause: .network(code: code), message: "\(url): \(error.localizedDescription)")))
            }
        } else if let received {
            result = .success(received)
        } else {
            let address = task.originalRequest?.url?.absoluteString ?? "the server"
            result = .failure(.transfer(TransferFailure(url: address, cause: .answer, message: "\(address) sent no response")))
        }
        finish(result)
    }
}
