import CatalogContent
import CatalogModel
import Testing

/// A field path reads as the content file names the field: the element, its place in a list,
/// and for rich text its field and element.
@Suite struct FieldPathTests {
    @Test func pathsReadAsTheContentFileNamesThem() {
        let paths: [FieldPath: String] = [
            .name: "name", .hours: "hours", .sections: "sections", .images: "images", .link: "link", .position: "position",
            .section(5): "section[5]", .promotion(0): "promotion[0]", .ingredient(2): "ingredient[2]", .sells(1): "sells[1]",
            .picture(0): "image[0]", .image: "image", .body: "body", .method: "method",
            .paragraph(.method, 1): "method.p[1]", .heading(.method, level: 3, 0): "method.h3[0]", .listItem(.body, 3): "body.li[3]",
            .link(.body, 2): "body.link[2]",
        ]
        for (path, text) in paths {
            #expect(path.description == text)
        }
        #expect(FieldPath.link(.method, 4).name == "method.link" && FieldPath.link(.method, 4).index == 4)
        #expect(FieldPath.picture(1).elementName?.description == "image" && FieldPath.position.elementName == nil)
        #expect(RichTextField.method.path == .method)
    }
}
