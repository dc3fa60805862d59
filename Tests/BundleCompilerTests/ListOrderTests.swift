@testable import BundleCompiler
import Foundation
import Testing

/// List order: the editor's positions first, then Finnish alphabetical order of names, the
/// same order Foundation's locale-aware comparison gives.
@Suite struct ListOrderTests {
    static let names = [
        "Öljy", "Åke", "Ärrä", "Zeta", "Café Latte", "Cafe Mocha", "cappuccino", "Espresso", "Vaniljalatte", "Wiener",
        "Ääni", "Aamu", "Ice Coffee", "Iced Mocha", "Tiramisu-jäälatte", "Café au Lait", "Café de Mumma", "Latte Macchiato",
        "Pressokahvi", "vesi", "Väinö", "Yö", "Übermensch", "Øre", "Kahvila 10", "Kahvila 9", "kahvila", "Deling Group",
        "Café Kahvila", "Café Mansku", "Kaisan Kahvitukku", "Rinsessa", "Coffee Beans", "Ground Coffee",
    ]

    @Test func namesFollowFoundationsFinnishOrder() {
        let items = Self.names.enumerated().map { (id: "item-\($0.offset)", name: $0.element) }
        let byICU = ListOrder.ordered(items, id: \.id, name: \.name, position: { _ in nil }).map(\.name)
        let byFoundation = Self.names.sorted {
            $0.compare($1, options: [], range: nil, locale: Locale(identifier: "fi_FI")) == .orderedAscending
        }
        #expect(byICU == byFoundation)
        #expect(Array(byICU.suffix(5)) == ["Åke", "Ärrä", "Ääni", "Öljy", "Øre"])
        #expect(byICU.firstIndex(of: "Übermensch")! < byICU.firstIndex(of: "Yö")!)
    }

    @Test func editorPositionsComeFirstThenNamesThenIds() {
        typealias Item = (id: String, name: String, position: Int?)
        let items: [Item] = [
            (id: "b", name: "Öljy", position: nil),
            (id: "a", name: "Aamu", position: nil),
            (id: "z", name: "Zeta", position: 2),
            (id: "y", name: "Yö", position: 1),
            (id: "c", name: "Aamu", position: nil),
        ]
        let ordered = ListOrder.ordered(items, id: \.id, name: \.name, position: \.position)
        let positions = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1.id, $0 + 1) })
        #expect(positions == ["y": 1, "z": 2, "a": 3, "c": 4, "b": 5])
    }
}
