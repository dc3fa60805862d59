import GRDB

/// One read of a bundle, as a value: what a public call asks, written once and run either on
/// the calling thread (`CatalogBundle.read(_:)`) or on a reader thread for `async` callers
/// (GRDB's async `read`). Every read runs in one transaction, so what it returns comes from one
/// state of the file.
package struct BundleQuery<Value: Sendable>: Sendable {
    package let body: @Sendable (Database) throws -> Value

    package init(_ body: @escaping @Sendable (Database) throws -> Value) {
        self.body = body
    }
}
