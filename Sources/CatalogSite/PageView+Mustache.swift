import Mustache

// swift-mustache finds a name in a value by reflection unless the value is a `MustacheParent`:
// a `Mirror` made and searched for every name on every page. At 10,000 entities that was most
// of `digno site`'s time (docs/BENCHMARKS.md, "Static site"). Each view below gives its values
// by name instead. `MustacheLookupTests` checks that every stored property is given, the same
// value as reflection finds, so a property added to a view and not here fails a test. One
// concern, the views' lookups, in one file because there are that many views.

extension PageView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": title
        case "brand": brand
        case "language": language
        case "strings": strings
        case "hasLanguages": hasLanguages
        case "languages": languages
        case "kind": kind
        case "stylesheet": stylesheet
        case "head": head
        case "foot": foot
        case "tabs": tabs
        case "hasNavigationBar": hasNavigationBar
        case "navigationBar": navigationBar
        case "home": home
        case "list": list
        case "product": product
        case "recipe": recipe
        case "retailerList": retailerList
        case "company": company
        case "hasPager": hasPager
        case "pager": pager
        default: nil
        }
    }
}

extension PagerView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "label": label
        case "hasPrevious": hasPrevious
        case "previousHref": previousHref
        case "hasNext": hasNext
        case "nextHref": nextHref
        default: nil
        }
    }
}

extension ImageView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "src": src
        case "hasSources": hasSources
        case "srcset": srcset
        case "sizes": sizes
        case "hasSize": size != nil
        case "width": size?.width
        case "height": size?.height
        default: nil
        }
    }
}

extension TabView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": title
        case "titleLanguage": titleLanguage
        case "href": href
        case "icon": icon
        case "selected": selected
        default: nil
        }
    }
}

extension NavigationBarView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "hasTitle": hasTitle
        case "barTitle": barTitle
        case "barLanguage": barLanguage
        case "hasBack": hasBack
        case "backLabel": backLabel
        case "backHref": backHref
        default: nil
        }
    }
}

extension PictureView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "image": image
        case "alt": alt
        case "altLanguage": altLanguage
        default: nil
        }
    }
}

extension HomeView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "brand": brand
        case "logo": logo
        case "picture": picture
        case "body": body
        case "bodyLanguage": bodyLanguage
        case "hasPromotions": hasPromotions
        case "promotions": promotions
        default: nil
        }
    }
}

extension PromotionView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": title
        case "text": text
        case "titleLanguage": titleLanguage
        case "textLanguage": textLanguage
        case "picture": picture
        case "hasLink": hasLink
        case "linkHref": linkHref
        case "linkLabel": linkLabel
        default: nil
        }
    }
}

extension ListView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "rows": rows
        default: nil
        }
    }
}

extension RowView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "summary": summary
        case "nameLanguage": nameLanguage
        case "summaryLanguage": summaryLanguage
        case "href": href
        case "icon": icon
        default: nil
        }
    }
}

extension ProductView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "summary": summary
        case "pictures": pictures
        case "body": body
        case "nameLanguage": nameLanguage
        case "summaryLanguage": summaryLanguage
        case "bodyLanguage": bodyLanguage
        case "hasRecipes": hasRecipes
        case "recipes": recipes
        case "hasRetailers": hasRetailers
        case "retailerList": retailerList
        default: nil
        }
    }
}

extension RecipeView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "summary": summary
        case "pictures": pictures
        case "ingredients": ingredients
        case "method": method
        case "nameLanguage": nameLanguage
        case "summaryLanguage": summaryLanguage
        case "methodLanguage": methodLanguage
        case "hasProducts": hasProducts
        case "products": products
        default: nil
        }
    }
}

extension IngredientView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "text": text
        case "textLanguage": textLanguage
        case "isLink": isLink
        case "href": href
        default: nil
        }
    }
}

extension RetailerListView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "entries": entries
        default: nil
        }
    }
}

extension RetailerView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "fragment": fragment
        case "name": name
        case "logo": logo
        case "address": address
        case "phone": phone
        case "phoneHref": phoneHref
        case "hours": hours
        case "hasInfo": hasInfo
        case "info": info
        case "hoursLanguage": hoursLanguage
        case "infoLanguage": infoLanguage
        case "hasWeb": hasWeb
        case "isSafeWeb": isSafeWeb
        case "web": web
        default: nil
        }
    }
}

extension CompanyView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "logo": logo
        case "body": body
        case "nameLanguage": nameLanguage
        case "bodyLanguage": bodyLanguage
        case "pictures": pictures
        case "isSafeWeb": isSafeWeb
        case "web": web
        default: nil
        }
    }
}

extension BlockView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "isParagraph": isParagraph
        case "isHeading2": isHeading2
        case "isHeading3": isHeading3
        case "isBulletList": isBulletList
        case "isNumberedList": isNumberedList
        case "inlines": inlines
        case "items": items
        default: nil
        }
    }
}

extension ListItemView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "inlines": inlines
        default: nil
        }
    }
}

extension InlineView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "isText": isText
        case "isEmphasis": isEmphasis
        case "isStrong": isStrong
        case "isLink": isLink
        case "text": text
        case "href": href
        case "children": children
        default: nil
        }
    }
}

extension LanguageLinkView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "code": code
        case "name": name
        case "href": href
        case "current": current
        default: nil
        }
    }
}

extension TextLanguageView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "isFallback": isFallback
        case "code": code
        default: nil
        }
    }
}
