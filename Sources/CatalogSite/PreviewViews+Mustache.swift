import Mustache

// The preview's views give the templates their values by name, as the pages' do
// (PageView+Mustache.swift says why; MustacheLookupTests checks them).

extension DiagnosticsPanelView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "language": language
        case "title": title
        case "advice": advice
        case "translationsLink": translationsLink
        case "translationsText": translationsText
        case "problems": problems
        default: nil
        }
    }
}

extension DiagnosticsPanelView.Entry: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "place": place
        case "severity": severity
        case "severityLabel": severityLabel
        case "message": message
        case "code": code
        case "hasPlace": hasPlace
        case "hasCode": hasCode
        default: nil
        }
    }
}

// A problem on the translation page.
extension DiagnosticsPanel.Entry: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "place": place
        case "severity": severity
        case "message": message
        case "code": code
        default: nil
        }
    }
}

extension NoticeView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "language": language
        case "title": title
        case "message": message
        case "stylesheet": stylesheet
        case "hasHome": hasHome
        case "homeHref": homeHref
        case "head": head
        case "foot": foot
        default: nil
        }
    }
}

extension PreviewHeadView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "generation": generation
        default: nil
        }
    }
}

extension ChangesPanel: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "against": against
        case "summary": summary
        case "entries": entries
        case "hasEntries": hasEntries
        default: nil
        }
    }
}

extension ChangesPanel.Entry: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "change": change
        case "kind": kind
        case "id": id
        case "name": name
        case "fields": fields
        case "hasFields": hasFields
        default: nil
        }
    }
}

extension TranslationStatus: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "languages": languages
        case "comparedWith": comparedWith
        case "hasComparison": hasComparison
        case "hasLanguages": hasLanguages
        default: nil
        }
    }
}

extension TranslationStatus.Language: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "code": code
        case "name": name
        case "coverage": coverage
        case "entries": entries
        case "hasEntries": hasEntries
        default: nil
        }
    }
}

extension TranslationStatus.Entry: MustacheParent {
    package func child(named key: String) -> Any? {
        switch key {
        case "problem": problem
        case "href": href
        default: nil
        }
    }
}

extension TranslationPageView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "status": status
        case "stylesheet": stylesheet
        case "head": head
        case "foot": foot
        default: nil
        }
    }
}
