/// An entity a pull's merge waits for: the editor's values and their common commit's.
struct PendingMerge: Sendable {
    var sent: StudioWorkspace.FormValues
    var opened: [String: String]
}
