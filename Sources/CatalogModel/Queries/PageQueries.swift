import Foundation
import GRDB

// The queries of the home, the company page and the retailers' rows: SQL stays in this folder
// (ScreenQueries.swift); the records they make decode their rows beside them in Screens/.

extension HomeScreen {
    /// From the home's one row, read in `reading`, and the promotions to show.
    package init(_ db: Database, reading: TextReading, promotions: [PromotionCard]) throws {
        var texts = TranslatedTexts(reading)
        for text in [TranslatedColumn.body, .imageAlt] { texts.add(text, of: "h", kind: "\("home")", entity: "\("")") }
        guard let row = try SQLRequest<Row>(literal: "SELECT h.logo, h.image, \(literal: texts.select) FROM home AS h \(literal: texts.join) WHERE h.id = 1")
            .fetchOne(db) else {
            throw BundleValueError("it has no home page")
        }
        self.init(logo: try row.imageID("logo"), picture: try Picture(row: row, reading: reading, alt: "image_alt"),
                  body: try row.richText("body_json"), promotions: promotions, languages: try reading.languages(row, [.body]))
    }
}

extension PromotionCard {
    /// The promotions running on `day`, in the editor's order, read in `reading`.
    package static func fetchAll(_ db: Database, on day: Day, reading: TextReading) throws -> [PromotionCard] {
        var texts = TranslatedTexts(reading)
        for text in [TranslatedColumn.title, .text, .imageAlt] { texts.add(text, of: "p", kind: "\("promotion")", entity: "p.id") }
        return try SQLRequest<Row>(literal: """
            SELECT p.id, p.image, p.first_day, p.last_day, p.link_product, p.link_recipe, \(literal: texts.select)
            FROM promotions AS p \(literal: texts.join) WHERE p.first_day <= \(day.description) AND p.last_day >= \(day.description) ORDER BY p.position
            """).fetchAll(db).map { try PromotionCard(row: $0, reading: reading) }
    }
}

extension CompanyScreen {
    /// The company's one row and its pictures, read in `reading`.
    package init(_ db: Database, reading: TextReading) throws {
        var texts = TranslatedTexts(reading)
        for text in [TranslatedColumn.name, .body] { texts.add(text, of: "c", kind: "\("company")", entity: "\("")") }
        guard let row = try SQLRequest<Row>(literal: "SELECT c.logo, c.web_address, \(literal: texts.select) FROM company AS c \(literal: texts.join) WHERE c.id = 1")
            .fetchOne(db) else {
            throw BundleValueError("it has no company page")
        }
        var alts = TranslatedTexts(reading)
        alts.add(.pictureAlt, of: "ci", kind: "\("company")", entity: "\("")")
        let pictures = try SQLRequest<Row>(literal: "SELECT ci.image, \(literal: alts.select) FROM company_images AS ci \(literal: alts.join) ORDER BY ci.position")
            .fetchAll(db).map { try Picture(row: $0, reading: reading) }
        self.init(name: try row.nonEmptyText("name"), logo: try row.imageID("logo"), body: try row.richText("body_json"),
                  pictures: pictures, webAddress: try row.nonEmptyText("web_address"),
                  languages: try reading.languages(row, [.name, .body]))
    }
}

extension RetailerRow {
    /// Retailer rows matching a condition on `retailers AS r` (and on the list position
    /// `reading.listOrder(of: "retailer", alias: "r")` names), in the reading's list order, each
    /// with what it sells, in two queries whatever their number. `byPosition`: the condition
    /// is a range of positions (a page of the list), read in the order of the positions' index;
    /// otherwise it picks rows by id, which are read first and then ordered.
    /// The condition's values are bound (`"r.id = \(id)"`).
    package static func fetchAll(
        _ db: Database, reading: TextReading, where condition: SQL = "1", byPosition: Bool = false
    ) throws -> [RetailerRow] {
        let order = reading.listOrder(of: "retailer", alias: "r", afterRows: !byPosition)
        var texts = TranslatedTexts(reading)
        for text in RetailerRow.translated { texts.add(text, of: "r", kind: "\("retailer")", entity: "r.id") }
        let rows = try SQLRequest<Row>(literal: """
            SELECT r.id, r.name, r.logo, r.address, r.phone, r.web_address, r.latitude, r.longitude, \(literal: texts.select)
            FROM retailers AS r \(literal: order.join) \(literal: texts.join) WHERE \(literal: condition) ORDER BY \(literal: order.position)
            """).fetchAll(db)
        var sells: [String: [ProductID]] = [:]
        for row in try SQLRequest<Row>(literal: """
            SELECT rp.retailer_id, rp.product_id FROM retailer_products AS rp JOIN retailers AS r ON r.id = rp.retailer_id \(literal: order.join)
            WHERE \(literal: condition) ORDER BY rp.retailer_id, rp.position
            """).fetchAll(db) {
            sells[try row.slug("retailer_id"), default: []].append(ProductID(rawValue: try row.slug("product_id")))
        }
        return try rows.map { row in try RetailerRow(row: row, sells: sells[try row.slug("id")] ?? [], reading: reading) }
    }
}
