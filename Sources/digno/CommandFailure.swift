import ArgumentParser
import BundleCompiler
import CatalogContent
import CatalogSite
import CatalogStore
import ChannelPublishing

// How a command fails, the one way: it throws, and `Digno.main` says `error: ` and the error's
// words on standard error and exits with the status the error carries. A command that has
// printed its own outcome (a report with errors, a difference found) ends with argument-parser's
// `ExitCode`, which says nothing more.

/// An error a command ends with, and its exit status: 1 refused (content with errors, a
/// release, root or import an app or the content would not take), 2 usage, I/O or network.
protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
}

// MARK: The libraries' errors and their statuses, in one table

extension CompilerError: CommandFailure {
    /// A content folder that cannot be read: 2.
    var exitStatus: Int32 { 2 }
}

extension BuildError: CommandFailure {
    /// Over catalog.xml's budget is the content's doing, as a content error is: 1. Else 2.
    var exitStatus: Int32 {
        if case .overBudget = self { return 1 }
        return 2
    }
}

extension ReleaseSide.Failure: CommandFailure {
    var exitStatus: Int32 { 2 }
}

extension BundleInspection.Failure: CommandFailure {
    /// A file that is missing: 2; one that is there and not a sound bundle: 1, as an unsound one.
    var exitStatus: Int32 {
        if case .missing = self { return 2 }
        return 1
    }
}

extension SchemaWriter.Failure: CommandFailure {
    var exitStatus: Int32 { 2 }
}

extension ContentStarter.Failure: CommandFailure {
    var exitStatus: Int32 { 2 }
}

extension TranslationImport.ReadError: CommandFailure {
    var exitStatus: Int32 { 2 }
}

extension StaticSite.Failure: CommandFailure {
    var exitStatus: Int32 { 1 }
}

extension ChannelPublisher.Failure: CommandFailure {
    /// A release, rollback, key change or head the channel (or its root) would not take: 1;
    /// a bundle, delta or folder that cannot be read or written: 2.
    var exitStatus: Int32 {
        switch self {
        case .notNewer, .sameContent, .rollback, .rotation, .keyReplaced, .root, .head, .schemaDropped: 1
        case .bundle, .deltas, .writing, .badChannelName: 2
        }
    }
}

extension ChannelRoots.Failure: CommandFailure {
    /// A root an app would not take: 1; a file that is no root, or cannot be written: 2.
    var exitStatus: Int32 {
        switch self {
        case .invalid, .versionTaken, .notEnoughSignatures: 1
        case .notARoot, .writing: 2
        }
    }
}

extension SigningKeyFile.Failure: CommandFailure {
    var exitStatus: Int32 { 2 }
}

extension BundleStoreError: CommandFailure {
    /// A head or bundle the store refuses: 1; the network, the disk: 2.
    var exitStatus: Int32 {
        if case .refused = self { return 1 }
        return 2
    }
}
