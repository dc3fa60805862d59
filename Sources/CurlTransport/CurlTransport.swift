import CatalogStore
import CCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ChannelTransport` on libcurl, for `digno update` on Linux, where URLSession cannot bound what
/// a host makes it hold: swift-corelibs-foundation always tells libcurl to decode compressed
/// bodies and queues all it decodes for the delegate, so a 10 MB gzip body that inflates to
/// 10 GB held hundreds of megabytes even after its answer was refused (and gigabytes before).
/// Here libcurl decodes nothing: the store asks for the plain file (`Accept-Encoding:
/// identity`), an encoded 200 or 206 answer is refused at its last header line, and each piece
/// of body (at most libcurl's 16 KiB buffer) goes to the store as it arrives, which stops the
/// transfer once more arrives than was declared. So a transfer holds tens of kilobytes whatever
/// the host sends.
///
/// Written on libcurl itself rather than async-http-client, which would do the same but add
/// SwiftNIO and BoringSSL (minutes) to each of CI's builds; libcurl is what Linux's URLSession
/// runs on already. Not for apps: CatalogStore's own `URLSessionTransport` is theirs, and
/// Apple's URLSession decodes only as fast as it delivers.
package struct CurlTransport: ChannelTransport {
    package var idleTimeout: TimeInterval

    package init(idleTimeout: TimeInterval = 30) {
        self.idleTimeout = idleTimeout
    }

    /// libcurl's process-wide set-up, once, before any transfer (it is not thread-safe).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    package func get(
        _ url: URL, headers: [String: String], timeout: TimeInterval,
        response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
        body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void
    ) async throws(BundleStoreError) -> ChannelResponse {
        guard Self.initialized else { throw .transfer(.failed(url, .network(code: URLError.Code.unknown.rawValue), "libcurl could not be set up")) }
        let transfer = CurlTransfer(url: url, idleTimeout: idleTimeout, timeout: timeout, response: response, body: body)
        let result: Result<ChannelResponse, BundleStoreError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // libcurl's easy interface blocks: each transfer has a thread of its own.
                let thread = Thread {
                    continuation.resume(returning: transfer.perform(headers: headers))
                }
                thread.name = "digno update: \(url.lastPathComponent)"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }
}

/// One transfer: its limits, what has arrived, and libcurl's callbacks, which run on the
/// transfer's thread; `cancel` comes from another, so the shared state is under `lock`.
private final class CurlTransfer: @unchecked Sendable {
    let url: URL
    let idleTimeout: TimeInterval
    let timeout: TimeInterval
    private let onResponse: @Sendable (ChannelResponse) throws(BundleStoreError) -> Void
    private let onBody: @Sendable (Data) throws(BundleStoreError) -> Void
    private let lock = NSLock()
    private var cancelled = false
    /// The first reason the transfer was stopped (a callback's error, a limit, a refusal).
    private var failure: BundleStoreError?
    /// The answer being read (reset at each status line: redirects, 100 Continue) and the one
    /// handed over.
    private var status = 0
    private var fields: [String: String] = [:]
    private var received: ChannelResponse?
    private let started = ContinuousClock.now
    private var lastProgress = ContinuousClock.now

    init(url: URL, idleTimeout: TimeInterval, timeout: TimeInterval,
         response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
         body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void) {
        self.url = url
        self.idleTimeout = idleTimeout
        self.timeout = timeout
        onResponse = response
        onBody = body
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }

    private func stop(_ error: BundleStoreError) {
        lock.withLock { if failure == nil { failure = error } }
    }

    /// Runs the transfer to its end, on the calling thread.
    func perform(headers: [String: String]) -> Result<ChannelResponse, BundleStoreError> {
        guard let handle = curl_easy_init() else { return .failure(.transfer(.failed(url, .network(code: URLError.Code.unknown.rawValue), "libcurl could not start a transfer"))) }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "accept-encoding" {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        list = curl_slist_append(list, "Accept-Encoding: identity")
        defer { curl_slist_free_all(list) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let options: [CURLcode] = [
            digno_curl_set_string(handle, CURLOPT_URL, url.absoluteString),
            digno_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list),
            digno_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            digno_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            digno_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            digno_curl_set_long(handle, CURLOPT_MAXREDIRS, 10),
            // No signals: several transfers may run on threads of their own.
            digno_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            // libcurl's own limits, ten seconds after this transfer's (which `progress` keeps, and
            // names): a backstop.
            digno_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(min(timeout + 10, 86_400 * 30) * 1000)),
            digno_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(idleTimeout + 10, timeout + 10) * 1000)),
            digno_curl_set_pointer(handle, CURLOPT_HEADERDATA, context),
            digno_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { bytes, size, count, context in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().header(bytes, size * count)
            },
            digno_curl_set_pointer(handle, CURLOPT_WRITEDATA, context),
            digno_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { bytes, size, count, context in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().write(bytes, size * count)
            },
            digno_curl_set_long(handle, CURLOPT_NOPROGRESS, 0),
            digno_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context),
            digno_curl_set_progress_callback(handle) { context, _, _, _, _ in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().progress()
            },
        ]
        if let refused = options.first(where: { $0 != CURLE_OK }) {
            return .failure(.transfer(.failed(url, .network(code: URLError.Code.unknown.rawValue),
                                              "libcurl refused a setting: \(String(cString: curl_easy_strerror(refused)))")))
        }
        let code = withExtendedLifetime(self) { curl_easy_perform(handle) }
        return lock.withLock {
            if let failure { return .failure(failure) }
            if cancelled { return .failure(.cancelled) }
            if code != CURLE_OK {
                return .failure(.transfer(.failed(url, Self.cause(of: code), String(cString: curl_easy_strerror(code)))))
            }
            guard let received else {
                return .failure(.transfer(TransferFailure(url: url.absoluteString, cause: .answer, message: "\(url.absoluteString) sent no response")))
            }
            return .success(received)
        }
    }

    /// The cause a libcurl error is, in URLSession's words, so that `digno update` and an app
    /// say the same of the same failure.
    static func cause(of code: CURLcode) -> TransferFailure.Cause {
        let urlError: URLError.Code = switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotFindHost
        case CURLE_COULDNT_CONNECT: .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: .networkConnectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE: .secureConnectionFailed
        case CURLE_TOO_MANY_REDIRECTS: .httpTooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedURL
        default: .unknown
        }
        return .network(code: urlError.rawValue)
    }

    // MARK: libcurl's callbacks

    /// One line of an answer's head. Returns `length` to go on, anything else to stop.
    private func header(_ bytes: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let answer: ChannelResponse? = lock.withLock {
            lastProgress = .now
            // After the answer's head, only trailers of a chunked body come here: not read.
            if received != nil { return nil }
            if line.hasPrefix("HTTP/") {
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                fields = [:]
                return nil
            }
            if !line.isEmpty {
                if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].lowercased()
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    fields[name] = fields[name].map { $0 + ", " + value } ?? value
                }
                return nil
            }
            // The head's end: an informational answer, or a redirect libcurl follows, is not
            // the answer.
            let followed = [301, 302, 303, 307, 308].contains(status) && fields["location"] != nil
            guard status >= 200, !followed else { return nil }
            return ChannelResponse(status: status, headers: fields)
        }
        guard let answer else { return length }
        lock.withLock { received = answer }
        if [200, 206].contains(answer.status), let encoding = answer.headers["content-encoding"], encoding.lowercased() != "identity" {
            stop(.transfer(.encodedBody(url.absoluteString, encoding: encoding)))
            return 0
        }
        do {
            try onResponse(answer)
            return length
        } catch {
            stop(error)
            return 0
        }
    }

    /// A piece of the body, as it arrived.
    private func write(_ bytes: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        let stopped = lock.withLock {
            lastProgress = .now
            return failure != nil || cancelled || received == nil
        }
        guard !stopped, let bytes else { return 0 }
        do {
            try onBody(Data(bytes: bytes, count: length))
            return length
        } catch {
            stop(error)
            return 0
        }
    }

    /// Called by libcurl about once a second, and on every piece: stops the transfer (non-zero)
    /// when it is cancelled or past a limit.
    private func progress() -> Int32 {
        let (last, isCancelled) = lock.withLock { (lastProgress, cancelled) }
        if isCancelled { return 1 }
        let now = ContinuousClock.now
        if now - started >= .milliseconds(Int64(timeout * 1000)) {
            stop(.transfer(.tookTooLong(url, limit: timeout)))
            return 1
        }
        if now - last >= .milliseconds(Int64(idleTimeout * 1000)) {
            stop(.transfer(.silent(url, limit: idleTimeout)))
            return 1
        }
        return 0
    }
}
