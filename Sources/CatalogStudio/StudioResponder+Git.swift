import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogPreview
import FlyingFox
import Foundation

/// Git from the browser, when the content folder is in a repository: what changed since the
/// last commit, entity by entity in `digno diff`'s words; "save to git" (a commit with the
/// editor's message, by the author git's configuration names); pull and push with the editor's
/// own credentials; a branch of one's own for review; each entity's history.
extension StudioResponder {
    /// `GET /_studio/git`; with `refusal`, what git refused (409).
    func gitPage(_ request: HTTPRequest, words: StudioWords, refusal: String? = nil) -> HTTPResponse {
        let status: HTTPStatusCode = refusal == nil ? .ok : .conflict
        let value = { (name: String) in request.query.first { $0.name == name }?.value }
        var context: [String: Any] = [
            "overview": words["overview"], "heading": words["git.heading"], "token": token,
            "messageLabel": words["git.message"], "commitLabel": words["git.commit"], "pullLabel": words["git.pull"], "pushLabel": words["git.push"],
            "branchHeading": words["git.branchHeading"], "branchLabel": words["git.branchName"], "branchButton": words["git.branchButton"],
            "changesHeading": words["git.changes"],
        ]
        if let refusal { context["refusal"] = refusal }
        guard git.isRepository else {
            context["notRepository"] = words["git.none"]
            return Self.html(pages.page(title: words["git.heading"], content: pages.git(context), words: words, token: token), status: status, words: words, request: request)
        }
        // What was done, said in the studio's words; `what` a commit's hash, a branch's name, a count.
        if let done = value("done"), Self.gitDone.contains(done) {
            context["notice"] = words["git.done.\(done)"].replacingOccurrences(of: "{what}", with: String((value("what") ?? "").prefix(100)))
        }
        if git.isMerging {
            let pending = merging.withLock { $0 }
            context["merging"] = words["git.merging"]
            context["mergingForms"] = pending.keys.sorted { $0.description < $1.description }.map { ["href": StudioPages.editHref($0), "name": $0.description] }
            context["abortLabel"] = words["git.abort"]
        }
        context["branch"] = words["git.branch"].replacingOccurrences(of: "{branch}", with: git.branch() ?? "–")
        let changes = changedEntities(words: words)
        if changes.isEmpty { context["clean"] = words["git.clean"] } else { context["changes"] = changes }
        return Self.html(pages.page(title: words["git.heading"], content: pages.git(context), words: words, token: token), status: status, words: words, request: request)
    }

    /// What changed since the last commit, entity by entity, in `digno diff`'s words; files
    /// that are no entity's (a picture, the schema) by their path.
    func changedEntities(words: StudioWords) -> [[String: Any]] {
        let files = git.changedFiles()
        guard !files.isEmpty else { return [] }
        let head = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-head-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: head) }
        var listed: [[String: Any]] = []
        if git.exportHead(into: head).succeeded, let comparison = try? ReleaseSide.compare(head, with: workspace.contentFolder) {
            for entity in comparison.changes.entities {
                listed.append([
                    // As digno diff names it: `changed product espresso "Espresso"`; the home and the company by their kind.
                    "title": ([entity.change.rawValue, entity.kind.rawValue] + (entity.slug == entity.kind.rawValue ? [] : [entity.slug])).joined(separator: " ")
                        + " \"\(entity.name)\"",
                    "fields": entity.fields.map { ["line": ChangesText.line($0, pictureNames: comparison.pictureNames)] },
                ])
            }
        }
        let pictures = files.filter { $0.hasPrefix("images/") }
        if !pictures.isEmpty { listed.append(["title": words["git.pictures"], "fields": pictures.map { ["line": $0] }]) }
        if listed.isEmpty { listed.append(["title": words["git.files"], "fields": files.map { ["line": $0] }]) }
        return listed
    }

    /// `POST /_studio/git/commit` (`message`), `/pull`, `/push`, `/branch` (`name`): the git page
    /// again with what was done, or git's words (409).
    func gitAction(_ action: String, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let field = { (name: String) in (fields.first { $0.0 == name }?.1 ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        let outcome: Result<String, GitFailure>
        switch action {
        case "commit":
            let message = field("message")
            guard !message.isEmpty else { return gitRefusal(words["git.messageMissing"], request: request, words: words) }
            guard !git.isMerging else { return gitRefusal(words["git.mergeFirst"], request: request, words: words) }
            outcome = git.commit(message: message)
        case "pull": return pull(request, words)
        case "abort":
            git.abortMerge()
            merging.withLock { $0 = [:] }
            outcome = .success("")
        case "push": outcome = git.push()
        case "branch": outcome = git.newBranch(field("name"))
        default: return notFound(words)
        }
        switch outcome {
        case .success(let what):
            return Self.redirect("/_studio/git?done=\(action)&what=" + Self.queryValue(String(what.prefix(200))))
        case .failure(let failure):
            return gitRefusal((failure.conflicted ? words["git.conflicted"] + " " : "") + failure.words, request: request, words: words)
        }
    }

    /// A pull: merged, or where it met the editor's commits in the same files, each merged field
    /// by field as a save merges a change on disk (the pulled file written, then the editor's
    /// changes since their common commit saved over it): a field both changed is left for the
    /// editor to choose in its form, the merge under way until the last is chosen.
    private func pull(_ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let paths: [String]
        switch git.pull() {
        case .failure(let failure): return gitRefusal((failure.conflicted ? words["git.conflicted"] + " " : "") + failure.words, request: request, words: words)
        case .success(.done(let what)): return Self.redirect("/_studio/git?done=pull&what=" + Self.queryValue(String(what.prefix(200))))
        case .success(.conflicted(let unmerged)): paths = unmerged
        }
        var pending: [EntityReference: PendingMerge] = [:]
        for path in paths.sorted() {
            guard let ours = git.stage(2, of: path), let theirs = git.stage(3, of: path),
                  let mine = try? EntityFileReading.entities(in: ours, path: path), !mine.isEmpty,
                  (try? EntityFileReading.entities(in: theirs, path: path)) != nil else {
                git.abortMerge()
                return gitRefusal(words["git.conflicted"] + " " + words["git.unmergeable"].replacingOccurrences(of: "{path}", with: path), request: request, words: words)
            }
            let base = git.stage(1, of: path).flatMap { try? EntityFileReading.entities(in: $0, path: path) } ?? [:]
            // The pulled file in place of git's conflict markers, then the editor's changes.
            let full = workspace.contentFolder + "/" + path
            do {
                let temporary = DurableFile.temporaryPath(for: full)
                try DurableFile.writeFlushed(theirs, to: temporary)
                try DurableFile.move(temporary, to: full)
            } catch {
                git.abortMerge()
                return gitRefusal("cannot write \(path): \(error)", request: request, words: words)
            }
            for (entity, found) in mine.sorted(by: { $0.key.description < $1.key.description }) {
                let sent = EntityForm(entity, found, languages: workspace.languages).values
                let opened = base[entity].map { EntityForm(entity, $0, languages: workspace.languages).openedValues } ?? [:]
                switch workspace.save(entity, sent: sent, opened: opened) {
                case .saved, .unchanged: continue
                case .conflicts: pending[entity] = PendingMerge(sent: sent, opened: opened)
                case .refused(let reason):
                    git.abortMerge()
                    return gitRefusal(words["git.conflicted"] + " " + reason, request: request, words: words)
                }
            }
        }
        if pending.isEmpty {
            switch git.finishMerge() {
            case .success(let hash): return Self.redirect("/_studio/git?done=merge&what=" + Self.queryValue(hash))
            case .failure(let failure): return gitRefusal(failure.words, request: request, words: words)
            }
        }
        merging.withLock { $0 = pending }
        return Self.redirect("/_studio/git?done=choose&what=\(pending.count)")
    }

    /// A form whose entity a pull's merge left to choose in: its conflicts, as a save shows them.
    func mergeState(of entity: EntityReference, form: EntityForm, words: StudioWords) -> StudioPages.FormState? {
        guard let pending = merging.withLock({ $0[entity] }) else { return nil }
        guard case .conflicts(let conflicts) = FormSave.decide(form: form, sent: pending.sent.texts, opened: pending.opened,
                                                              lists: pending.sent.lists, choices: pending.sent.choices) else { return nil }
        var state = StudioPages.FormState()
        state.conflicts = Dictionary(conflicts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        state.sent = pending.sent
        state.opened = pending.opened
        state.notice = words["git.choose"]
        return state
    }

    /// What the git page says was done (`?done=`).
    static let gitDone: Set<String> = ["commit", "pull", "push", "branch", "merge", "choose", "abort"]

    /// After a save of `entity`: when it was the last a pull's merge waited for, the merge is
    /// finished (committed): the new commit's hash, or git's refusal; nil when none was waiting.
    func concludeMerge(after entity: EntityReference) -> Result<String, GitFailure>? {
        let left = merging.withLock { pending -> Int? in
            guard pending.removeValue(forKey: entity) != nil else { return nil }
            return pending.count
        }
        guard left == 0, git.isMerging else { return nil }
        return git.finishMerge()
    }

    private func gitRefusal(_ reason: String, request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        gitPage(request, words: words, refusal: reason)
    }
}
