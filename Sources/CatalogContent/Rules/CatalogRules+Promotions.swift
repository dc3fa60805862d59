import CatalogModel

extension CatalogRules {
    // MARK: Promotions

    /// A promotion's texts, picture and link, and its days: the first not after the last, and
    /// the last not before `today` (when given; a warning).
    mutating func checkPromotion(_ promotion: Promotion, today: Day?) {
        let ref = EntityReference(.promotion, promotion.id.rawValue)
        requireTexts(of: promotion, ref)
        checkPicture(promotion.image, .image, ref)
        if let link = promotion.link {
            checkReference(link, .link, ref, element: "link")
        }
        if promotion.firstDay > promotion.lastDay {
            report(.promotionDates, ref, nil,
                   "first-day \(promotion.firstDay) is after last-day \(promotion.lastDay); correct one of them")
        } else if let today, promotion.lastDay < today {
            report(.promotionEnded, ref, nil,
                   "promotion '\(promotion.id)' ended on \(promotion.lastDay); remove it or move its last-day", severity: .warning)
        }
    }
}
