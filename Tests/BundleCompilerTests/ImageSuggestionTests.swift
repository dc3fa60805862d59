@testable import BundleCompiler
import Testing

/// The image a path that names none most likely meant.
@Suite struct ImageSuggestionTests {
    static let files = [
        "images/icon.png", "images/picture.png", "images/products/latte.png",
        "images/recipes/cafe-latte-1.png", "images/recipes/cafe-latte-3.png", "images/recipes/cafe-latte.png",
    ]

    func match(_ path: String, used: Set<String> = []) -> ImageSuggestion.Match? {
        var suggestion = ImageSuggestion(files: Self.files)
        return suggestion.match(for: path, used: used)
    }

    @Test func aNearNameInTheSameFolder() {
        #expect(match("images/recipes/cafe-late.png") == .init(path: "images/recipes/cafe-latte.png", differsOnlyInCase: false))
        #expect(match("images/pictur.png") == .init(path: "images/picture.png", differsOnlyInCase: false))
    }

    @Test func theSameNameInAnotherFolderComesFirst() {
        #expect(match("images/latte.png") == .init(path: "images/products/latte.png", differsOnlyInCase: false))
    }

    @Test func capitalsAreNoDistanceButAreSaid() {
        #expect(match("images/Icon.png") == .init(path: "images/icon.png", differsOnlyInCase: true))
        #expect(match("Images/recipes/CAFE-LATTE.png") == .init(path: "images/recipes/cafe-latte.png", differsOnlyInCase: true))
    }

    /// Of two equally near images, the one nothing uses is the one meant.
    @Test func anUnusedImageWinsATie() {
        #expect(match("images/recipes/cafe-latte-2.png")?.path == "images/recipes/cafe-latte-1.png")
        #expect(match("images/recipes/cafe-latte-2.png", used: ["images/recipes/cafe-latte-1.png"])?.path == "images/recipes/cafe-latte-3.png")
    }

    /// Only names of about the same length in the same folder are compared.
    @Test func aFarNameOrAnotherFolderIsNoSuggestion() {
        #expect(match("images/espresso-icon.png") == nil)
        #expect(match("kuvat/recipes/cafe-late.png") == nil)
    }
}
