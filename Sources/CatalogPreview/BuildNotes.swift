import BundleCompiler
import CatalogSite

/// What the preview shows of a build that succeeded besides its pages.
struct BuildNotes: Sendable, Equatable {
    /// Its warnings, in a panel over every page; nil when it has none.
    var warnings: DiagnosticsPanel?
    /// Each language's coverage and missing or outdated translations.
    var translations = TranslationStatus(languages: [], comparedWith: nil)
    /// The pictures shown by their stand-ins while their renditions are made, by the id each has
    /// in the preview's bundle, with what stands in: the embedded thumbnail, or a placeholder
    /// (served as words saying the picture is being prepared).
    var standIns: [String: StandIn.Kind] = [:]
}
