import CatalogContent
import CatalogModel
import Testing

/// A field path reads as the content file names the field: the element, its place in a list
/// counted from 1 (as XPath and an editor count), and for rich text its field and element.
@Suite struct FieldPathTests {
    @Test func pathsReadAsTheContentFileNamesThem() {
        let paths: [FieldPath: String] = [
            .name: "name", .hours: "hours", .sections: "sections", .images: "images", .link: "link", .position: "position",
            .section(5): "section[6]", .promotion(0): "promotion[1]", .ingredient(2): "ingredient[3]", .sells(1): "sells[2]",
            .picture(0): "image[1]", .image: "image", .body: "body", .method: "method",
            .paragraph(.method, 1): "method.p[2]", .heading(.method, level: 3, 0): "method.h3[1]", .listItem(.body, 3): "body.li[4]",
            .link(.body, 2): "body.link[3]",
        ]
        for (path, text) in paths {
            #expect(path.description == text)
        }
        #expect(FieldPath.link(.method, 4).name == "method.link" && FieldPath.link(.method, 4).index == 4)
        #expect(FieldPath.picture(1).elementName?.description == "image" && FieldPath.position.elementName == nil)
        #expect(RichTextField.method.path == .method)
    }
}
