import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// The content folder's git repository, as the studio uses it: git run as a process with its
/// arguments (never through a shell), in the folder, with the editor's own configuration and
/// credentials as git finds them (none kept by the studio) and never a prompt (a credential git
/// does not have is an error, said, not a wait). Each run has a time limit and its output a size
/// limit. Written on `Process`: no git library is among the packages here.
final class StudioGit: Sendable {
    let contentFolder: String
    /// The longest a run may take: a pull or a push over a slow network; then it is stopped.
    static let timeLimit: Duration = .seconds(120)
    /// The most output read of a run; the rest is dropped.
    static let outputLimit = 4 << 20

    init(contentFolder: String) {
        self.contentFolder = contentFolder
    }

    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
        var succeeded: Bool { status == 0 }
        /// git's own words of a failure: its last lines.
        var reason: String {
            let words = errors.trimmingCharacters(in: .whitespacesAndNewlines)
            return words.isEmpty ? output.trimmingCharacters(in: .whitespacesAndNewlines) : words
        }
    }

    /// Runs `git arguments…` in the content folder.
    func run(_ arguments: [String]) -> Run {
        guard let git = Self.program() else { return Run(status: 127, output: "", errors: "git is not installed (Debian: apt-get install git)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: contentFolder)
        var environment = ProcessInfo.processInfo.environment
        // Never a prompt: the studio has no terminal to answer one.
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = "true"
        environment["SSH_ASKPASS"] = "true"
        environment["GIT_SSH_COMMAND"] = environment["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes"
        environment["LC_ALL"] = "C"
        environment["GIT_EDITOR"] = "true"
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { return Run(status: 126, output: "", errors: "git could not be run: \(error.localizedDescription)") }
        // Both read beside, so that neither pipe fills while git writes the other.
        let read = DispatchGroup()
        let collected = LockedValue<(output: Data, errors: Data)>((Data(), Data()))
        for (handle, isOutput) in [(output.fileHandleForReading, true), (errors.fileHandleForReading, false)] {
            read.enter()
            DispatchQueue.global().async {
                var data = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    if data.count < Self.outputLimit { data.append(chunk.prefix(Self.outputLimit - data.count)) }
                }
                collected.withLock { if isOutput { $0.output = data } else { $0.errors = data } }
                read.leave()
            }
        }
        let seconds = Double(Self.timeLimit.components.seconds)
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            read.wait()
            return Run(status: 124, output: "", errors: "git \(arguments.first ?? "") took longer than \(Int(seconds)) s and was stopped")
        }
        read.wait()
        let (out, err) = collected.withLock { ($0.output, $0.errors) }
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }

    /// git (or `name`) on the PATH.
    static func program(_ name: String = "git") -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { String($0) + "/" + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: What the studio asks

    /// Whether the content folder is in a git repository (a work tree): asked of git once (a
    /// repository made while the studio runs is seen at its next start), so that a page of a
    /// folder in none runs no git.
    var isRepository: Bool {
        if let known = known.withLock({ $0 }) { return known }
        let inside = run(["rev-parse", "--is-inside-work-tree"]).output.hasPrefix("true")
        known.withLock { $0 = inside }
        return inside
    }

    /// Whether the folder was found in a repository, once asked.
    private let known = LockedValue<Bool?>(nil)

    /// The branch checked out (`main`), or nil (not a repository, or no branch: a detached HEAD).
    func branch() -> String? {
        guard isRepository else { return nil }
        let head = run(["symbolic-ref", "--quiet", "--short", "HEAD"])
        return head.succeeded ? head.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// The content folder's files changed since the last commit (added, changed, removed, not
    /// yet known to git), relative to the content folder.
    func changedFiles() -> [String] {
        let status = run(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "."])
        guard status.succeeded else { return [] }
        // `XY path\0`, a rename followed by its old path.
        var files: [String] = []
        var entries = status.output.split(separator: "\0", omittingEmptySubsequences: true).makeIterator()
        let prefix = self.prefix
        while let entry = entries.next() {
            guard entry.count > 3 else { continue }
            let code = entry.prefix(2)
            var path = String(entry.dropFirst(3))
            if path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
            files.append(path)
            if code.contains("R") || code.contains("C") { _ = entries.next() }
        }
        return files
    }

    /// The content folder as the last commit has it, written into `folder` (which must not exist).
    func exportHead(into folder: String) -> Run {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            return Run(status: 1, output: "", errors: "cannot make \(folder): \(error)")
        }
        // `git archive` of the folder's tree (run in a folder, it archives that folder alone),
        // read by tar; never a shell between them.
        let archive = folder + "/.head.tar"
        let written = run(["archive", "--format=tar", "--output=" + archive, "HEAD"])
        guard written.succeeded else { return written }
        defer { try? FileManager.default.removeItem(atPath: archive) }
        guard let program = Self.program("tar") else { return Run(status: 127, output: "", errors: "tar is not installed") }
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: program)
        tar.arguments = ["-x", "-f", archive, "-C", folder]
        tar.standardOutput = FileHandle.nullDevice
        tar.standardError = FileHandle.nullDevice
        do { try tar.run() } catch { return Run(status: 126, output: "", errors: "tar could not be run: \(error.localizedDescription)") }
        tar.waitUntilExit()
        return Run(status: tar.terminationStatus, output: "", errors: tar.terminationStatus == 0 ? "" : "tar could not unpack the last commit")
    }

    /// Commits every change of the content folder with `message`, as the author git's
    /// configuration names. The new commit's short hash, or git's words.
    func commit(message: String) -> Result<String, GitFailure> {
        let added = run(["add", "--all", "--", "."])
        guard added.succeeded else { return .failure(GitFailure(added.reason)) }
        // The message in a file of its own, never an argument (nor a pipe git may leave unread).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("digno-commit-\(UUID().uuidString).txt")
        do { try Data(message.utf8).write(to: file) } catch { return .failure(GitFailure("cannot write the message: \(error)")) }
        defer { try? FileManager.default.removeItem(at: file) }
        let committed = run(["commit", "--quiet", "--file=" + file.path, "--", "."])
        guard committed.succeeded else { return .failure(GitFailure(committed.reason)) }
        return .success(run(["rev-parse", "--short", "HEAD"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What a pull did.
    enum Pulled: Sendable, Equatable {
        /// Merged (or nothing new): git's words.
        case done(String)
        /// The merge met the editor's commits in these files (relative to the content folder),
        /// which git left unmerged: the merge is under way, to be finished or undone.
        case conflicted([String])
    }

    /// Takes the remote's commits into the branch (a merge, never a rebase: nothing of the
    /// editor's is rewritten). Where the merge meets the editor's commits in the same lines of
    /// content files, it is left under way with those files; one that meets them elsewhere is
    /// undone, nothing changed.
    func pull() -> Result<Pulled, GitFailure> {
        let pulled = run(["pull", "--no-rebase", "--no-edit"])
        if pulled.succeeded { return .success(.done(pulled.output.trimmingCharacters(in: .whitespacesAndNewlines))) }
        guard isMerging else { return .failure(GitFailure(pulled.reason)) }
        let unmerged = run(["diff", "--name-only", "--diff-filter=U", "-z"])
        let prefix = self.prefix
        let paths = unmerged.output.split(separator: "\0").map(String.init)
        guard unmerged.succeeded, !paths.isEmpty, paths.allSatisfy({ $0.hasPrefix(prefix) }) else {
            abortMerge()
            return .failure(GitFailure(pulled.reason, conflicted: true))
        }
        return .success(.conflicted(paths.map { String($0.dropFirst(prefix.count)) }))
    }

    /// Whether a merge is under way (a pull's, not finished).
    var isMerging: Bool {
        run(["rev-parse", "--verify", "--quiet", "MERGE_HEAD"]).succeeded
    }

    /// Undoes a merge under way: the files as the editor's last commit has them.
    func abortMerge() {
        _ = run(["merge", "--abort"])
    }

    /// Finishes a merge under way with the content folder's files as they are now.
    func finishMerge() -> Result<String, GitFailure> {
        let added = run(["add", "--all", "--", "."])
        guard added.succeeded else { return .failure(GitFailure(added.reason)) }
        let committed = run(["commit", "--no-edit", "--quiet"])
        return committed.succeeded ? .success(run(["rev-parse", "--short", "HEAD"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
            : .failure(GitFailure(committed.reason))
    }

    /// The content folder's path in the repository (`content/`), empty at its root.
    var prefix: String {
        run(["rev-parse", "--show-prefix"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A file of a merge under way as one side has it (`git show :N:path`): 1 the common
    /// ancestor, 2 the editor's, 3 the pulled; nil where that side has none.
    func stage(_ number: Int, of path: String) -> [UInt8]? {
        let shown = run(["show", ":\(number):" + prefix + path])
        return shown.succeeded ? Array(shown.output.utf8) : nil
    }

    /// Sends the branch's commits to its remote (setting its upstream the first time).
    func push() -> Result<String, GitFailure> {
        let upstream = run(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"])
        let arguments = upstream.succeeded ? ["push"] : ["push", "--set-upstream", "origin", branch() ?? "HEAD"]
        let pushed = run(arguments)
        return pushed.succeeded ? .success(pushed.reason) : .failure(GitFailure(pushed.reason))
    }

    /// Makes a branch of `name` from here and switches to it: the changes not committed go with it.
    func newBranch(_ name: String) -> Result<String, GitFailure> {
        let valid = run(["check-ref-format", "--branch", name])
        guard valid.succeeded, !name.hasPrefix("-") else { return .failure(GitFailure("'\(name)' cannot be a branch's name")) }
        let made = run(["switch", "--create", name])
        return made.succeeded ? .success(name) : .failure(GitFailure(made.reason))
    }

    struct Commit: Sendable, Equatable {
        var hash: String
        var author: String
        var date: String
        var subject: String
    }

    /// The commits that changed `path` (relative to the content folder), newest first.
    func history(of path: String, limit: Int = 20) -> [Commit] {
        guard isRepository else { return [] }
        let log = run(["log", "--max-count=\(limit)", "--format=%h%x1f%an%x1f%ad%x1f%s%x1e", "--date=format:%Y-%m-%d %H:%M", "--follow", "--", path])
        guard log.succeeded else { return [] }
        return log.output.split(separator: "\u{1e}").compactMap { record in
            let parts = record.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            return parts.count == 4 ? Commit(hash: parts[0], author: parts[1], date: parts[2], subject: parts[3]) : nil
        }
    }
}
