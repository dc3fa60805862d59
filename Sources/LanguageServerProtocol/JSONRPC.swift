import Foundation

/// A request's id: a number or a string (JSON-RPC 2.0).
public enum RequestID: Codable, Hashable, Sendable {
    case number(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }
}

/// What every message says of itself: a request has an id and a method, a notification a
/// method alone, a response an id alone.
public struct MessageHeader: Decodable, Sendable {
    public var id: RequestID?
    public var method: String?
}

/// A message's params, decoded as the method says.
public struct Incoming<Params: Decodable>: Decodable {
    public var params: Params
}

/// A request or notification with no params, or params the server does not read.
public struct Ignored: Codable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

/// A JSON-RPC error: its code and message.
public struct ResponseError: Codable, Error, Sendable {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    public static let serverNotInitialized = -32002
    public static let requestFailed = -32803
}

/// A response to the client's request.
public struct Response<Result: Encodable>: Encodable {
    public var jsonrpc = "2.0"
    public var id: RequestID?
    public var result: Result?
    public var error: ResponseError?

    public init(id: RequestID?, result: Result) {
        self.id = id
        self.result = result
    }

    public init(id: RequestID?, error: ResponseError) where Result == Ignored {
        self.id = id
        self.error = error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        if let error {
            try container.encode(error, forKey: .error)
        } else if let result {
            try container.encode(result, forKey: .result)
        } else {
            try container.encodeNil(forKey: .result)
        }
    }

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, result, error
    }
}

/// A notification the server sends.
public struct Notification<Params: Encodable>: Encodable {
    public var jsonrpc = "2.0"
    public var method: String
    public var params: Params

    public init(method: String, params: Params) {
        self.method = method
        self.params = params
    }
}

/// A request the server sends to the client (its answer is read and dropped).
public struct OutgoingRequest<Params: Encodable>: Encodable {
    public var jsonrpc = "2.0"
    public var id: RequestID
    public var method: String
    public var params: Params

    public init(id: RequestID, method: String, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}
