// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CafeDigno",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CatalogModel", targets: ["CatalogModel"]),
        .library(name: "CatalogStore", targets: ["CatalogStore"]),
        .executable(name: "digno", targets: ["digno"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Root keys as PKCS#8 PEM files (`PKCS8Key`): already a dependency of swift-crypto's.
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // `swift package generate-documentation --target CatalogModel`: CatalogModel's DocC
        // catalogue (CI builds it). A command plugin only; nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // `digno preview`'s HTTP server. Chosen over Hummingbird for its build time: a first
        // debug build of a hello-world server took 18 s here against Hummingbird's 110 s.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // The app's library: opening and checking a bundle, the queries, the screens and the
        // navigation. Foundation, GRDB (and SQLite's C API through GRDBSQLite) and swift-crypto
        // only, so that it builds for iOS and macOS as well as Linux.
        .target(
            name: "CatalogModel",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // schema.sql, schema-3.sql and schema-4.sql are links to the repository root's, the one
            // source: the compiler creates them and the reader checks a bundle's schema against them.
            resources: [.embedInCode("Bundle/schema.sql"), .embedInCode("Bundle/schema-3.sql"), .embedInCode("Bundle/schema-4.sql")]
        ),
        // The authored content and its rules, for the compiler and the tools beside it: the
        // catalogue as the content files say it (Model/), every catalogue rule and its
        // diagnostic codes (Rules/), the comparison of two releases (Changes/), and the
        // bundle's checks and row digests that `digno inspect` and `digno diff` run. It depends
        // on CatalogModel, never the other way: an app links none of it.
        .target(
            name: "CatalogContent",
            dependencies: [
                "CatalogModel", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The release channel's format, which the publisher writes and the store reads: the
        // folder's layout, signed envelopes, heads, keys and key statements, and VCDIFF deltas.
        // Foundation, swift-crypto and CatalogModel only, as the client library: it builds for
        // iOS and macOS too.
        .target(
            name: "ChannelFormat",
            dependencies: ["CatalogModel", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The client's installer: `BundleStore` fetches a channel's signed head, verifies it and
        // installs the bundle it names (whole, or from a delta) safely. Re-exports ChannelFormat,
        // so that an app never imports it. Builds for iOS and macOS too.
        .target(
            name: "CatalogStore",
            dependencies: ["CatalogModel", "ChannelFormat", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // libxml2 from the system (Debian: libxml2-dev). Used by the compiler only.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // zlib from the system (Debian: zlib1g-dev), for the bundles' gzip copies `digno publish`
        // writes. Used by the publisher only: the client gets the plain bytes from URLSession,
        // which decodes Content-Encoding itself.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libcurl from the system (Debian: libcurl4-openssl-dev, which Swift's Linux toolchain
        // needs already), for `digno update`'s transport on Linux: URLSession there decodes a
        // compressed body whole before the store can refuse it (CurlTransport says more).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // `ChannelTransport` on libcurl, which decodes nothing and hands the body over as it
        // arrives: `digno update` uses it on Linux. Not in the app.
        .target(name: "CurlTransport", dependencies: ["CatalogStore", "CCurl"]),
        // ICU's collator from the system (Debian: libicu-dev, which libxml2-dev brings), for
        // Finnish sort keys. Used by the compiler only.
        .target(
            name: "CICUCollation",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),
        // ICU's spoof checker (Unicode Technical Standard #39), for host names that mix
        // scripts. Used by the compiler only.
        .target(
            name: "CICUSpoof",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),
        // Two C calls the compiler needs and Swift cannot reach: an SQLite setting
        // (sqlite3_config is variadic) and glibc's malloc_trim. Used by the compiler only.
        .target(
            name: "CBuildTuning",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // libvips from the system (Debian: libvips-dev, with its HEIF, WebP, lcms2 and EXIF
        // support), for the pictures' renditions: decoding, orientation, colour, resizing and
        // encoding. Used by the compiler only.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"]), .brew(["vips"])]),
        // The few libvips calls the compiler makes, in C: libvips takes its options as variadic
        // arguments, which Swift cannot pass. Used by the compiler only.
        // libwebpmux and libwebp (Debian's libwebp-dev, which libvips-dev brings) take out of a WebP the
        // metadata chunks libvips 8.14 writes even when told to strip them.
        // libjpeg-turbo and libpng (Debian's libjpeg62-turbo-dev and libpng-dev, which libvips-dev
        // brings) decode JPEG and PNG sources themselves, so that each warning is judged and a
        // progressive JPEG's scans are limited; lcms2 (liblcms2-dev, the same) makes a HEIC's
        // `nclx` colour into an ICC profile.
        .target(
            name: "CPictureCodec", dependencies: ["CVips"],
            linkerSettings: [
                .linkedLibrary("dl"), .linkedLibrary("webpmux"), .linkedLibrary("webp"), .linkedLibrary("jpeg"),
                .linkedLibrary("png16"), .linkedLibrary("lcms2"),
            ]
        ),
        // The content compiler: reading, parsing, file checks.
        .target(
            name: "BundleCompiler",
            dependencies: [
                "CatalogModel", "CatalogContent", "CLibXML2", "CICUCollation", "CICUSpoof", "CBuildTuning", "CPictureCodec",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("Schema/content.xsd"), .embedInCode("Schema/xml.xsd"), .embedInCode("Diagnostics/DIAGNOSTICS.md")]
        ),
        // The app in a browser: CatalogModel's screens as HTML pages, through the Mustache
        // templates and the style sheet in Templates/, which a web designer edits. `digno site`
        // and `digno preview` share it.
        .target(
            name: "CatalogSite",
            dependencies: ["CatalogModel", "CatalogContent", .product(name: "Mustache", package: "swift-mustache")],
            resources: [
                .embedInCode("Templates/page.mustache"), .embedInCode("Templates/home.mustache"),
                .embedInCode("Templates/rows.mustache"), .embedInCode("Templates/product.mustache"),
                .embedInCode("Templates/recipe.mustache"), .embedInCode("Templates/retailers.mustache"),
                .embedInCode("Templates/company.mustache"), .embedInCode("Templates/picture.mustache"),
                .embedInCode("Templates/block.mustache"), .embedInCode("Templates/inline.mustache"),
                .embedInCode("Templates/lang.mustache"), .embedInCode("Templates/sources.mustache"), .embedInCode("Templates/style.css"),
                // digno preview's additions: its error panel, a page for a missing screen, the
                // reload script with its head elements and style sheet, and the changes panel.
                .embedInCode("Templates/problems.mustache"), .embedInCode("Templates/notice.mustache"),
                .embedInCode("Templates/preview-head.mustache"), .embedInCode("Templates/preview.css"),
                .embedInCode("Templates/preview.js"), .embedInCode("Templates/changes.mustache"),
                .embedInCode("Templates/warnings.mustache"), .embedInCode("Templates/translations.mustache"),
            ]
        ),
        // `digno preview`: builds the content into a scratch bundle, rebuilds on every save, and
        // serves the pages on 127.0.0.1 with its own bounded HTTP/1.1 server on FlyingSocks (FlyingFox's
        // socket layer; FlyingFox's handler and request types). Linux-only pieces (polling the
        // content folder) are fine here: this is the compiler's side, not the app's.
        .target(
            name: "CatalogPreview",
            dependencies: [
                "BundleCompiler", "CatalogContent", "CatalogModel", "CatalogSite",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // `digno studio`: the editors' forms in the browser, saved into the content files as an
        // editor would write them, beside the app's screens from the preview it is built on.
        .target(
            name: "CatalogStudio",
            dependencies: [
                "BundleCompiler", "CatalogContent", "CatalogModel", "CatalogPreview", "CatalogSite",
                .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [
                .embedInCode("Templates/studio.mustache"), .embedInCode("Templates/overview.mustache"),
                .embedInCode("Templates/results.mustache"), .embedInCode("Templates/form.mustache"),
                .embedInCode("Templates/unreadable.mustache"), .embedInCode("Templates/row.mustache"), .embedInCode("Templates/conflict.mustache"),
                .embedInCode("Templates/new.mustache"), .embedInCode("Templates/unused.mustache"),
                .embedInCode("Templates/translations.mustache"), .embedInCode("Templates/git.mustache"),
                .embedInCode("Templates/studio.css"), .embedInCode("Templates/studio.js"),
            ]
        ),
        // The thin command: flags in, library calls, printing and exit codes out.
        // The Language Server Protocol's base protocol and the messages `digno lsp` uses, by
        // hand: no LSP package is in the mirror this package builds from.
        .target(name: "LanguageServerProtocol"),
        .target(
            name: "LanguageServer",
            dependencies: ["BundleCompiler", "CatalogContent", "CatalogModel", "LanguageServerProtocol"]
        ),
        .executableTarget(
            name: "digno",
            dependencies: [
                "BundleCompiler",
                "LanguageServer",
                "LanguageServerProtocol",
                "CatalogContent",
                "CatalogModel",
                "CatalogStore",
                "ChannelFormat",
                "ChannelPublishing",
                "CatalogSite",
                "CatalogPreview",
                "CatalogStudio",
                .target(name: "CurlTransport", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `digno publish` (and `publish --renew`), `rotate-key` and `keygen`: writes a channel folder (bundles,
        // their gzip copies, deltas through xdelta3, release notes, signed heads and key
        // statements) in ChannelFormat's layout. The compiler's side: not in the app.
        .target(
            name: "ChannelPublishing",
            dependencies: [
                "BundleCompiler", "CatalogModel", "ChannelFormat", "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // Synthetic content and the build benchmark: `swift run -c release digno-bench run`.
        .executableTarget(
            name: "digno-bench",
            dependencies: ["BundleCompiler", "CatalogContent", "CatalogModel", "CatalogStore", "ChannelFormat", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The library alone: the bundles it opens are committed in Fixtures/, built by
        // scripts/build-test-fixtures.sh, so no compiler (and no libxml2) is needed.
        .testTarget(
            name: "CatalogModelTests",
            dependencies: ["CatalogModel", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Fixtures")]
        ),
        // The catalogue rules over in-memory catalogues, the release comparison, and the rules run
        // over CatalogModelTests' committed bundles.
        // What tests share: the work a piece of code does, for comparing two sizes (no test
        // asserts a time).
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(
            name: "CatalogContentTests",
            dependencies: ["CatalogContent", "CatalogModel", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Runs the built `digno` executable: exact output, help and exit statuses.
        .testTarget(name: "DignoTests", dependencies: ["digno", "BundleCompiler", "CatalogContent", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "CatalogSiteTests", dependencies: ["CatalogSite", "CatalogModel"]),
        .testTarget(name: "LanguageServerTests", dependencies: ["LanguageServer", "LanguageServerProtocol"]),
        .testTarget(name: "ChannelFormatTests", dependencies: [
            "ChannelFormat", "CatalogModel", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "CatalogStoreTests", dependencies: [
            "CatalogStore", "CatalogModel", .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // libcurl's transport against a real trickling server (TricklingHost, linked from
        // CatalogStoreTests).
        .testTarget(name: "CurlTransportTests", dependencies: [
            .target(name: "CurlTransport", condition: .when(platforms: [.linux])), "CatalogStore",
        ]),
        .testTarget(
            name: "CatalogStudioTests",
            dependencies: ["CatalogStudio", "CatalogPreview", "BundleCompiler", "CatalogContent", "CatalogModel", "TestSupport"]
        ),
        .testTarget(
            name: "CatalogPreviewTests",
            dependencies: ["CatalogPreview", "CatalogSite", "BundleCompiler", "CatalogContent", "CatalogModel", "TestSupport", .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The publisher against bundles built from BundleCompilerTests' valid fixture content.
        .testTarget(
            name: "ChannelPublishingTests",
            dependencies: ["ChannelPublishing", "BundleCompiler", "ChannelFormat", "CatalogModel", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "BundleCompilerTests",
            dependencies: ["BundleCompiler", "CatalogContent", "CatalogModel", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz targets (libFuzzer), declared only when DIGNO_FUZZ is set, and then alone with the
// targets they depend on: their `main` is the fuzzer runtime's, linked by `--sanitize=fuzzer`,
// which `digno`'s and the tests' own could not share. So one plain `swift build` builds the
// four (CI does; one build plan and one pass over the modules, rather than one per product):
// `DIGNO_FUZZ=1 swift build --scratch-path .build-fuzz -c release --sanitize=fuzzer
// --sanitize=address`, or `--product fuzz-bundle` for one; docs/FUZZING.md says how to run them.
if Context.environment["DIGNO_FUZZ"] != nil {
    let fuzzTargets: [Target] = [
        .executableTarget(name: "fuzz-bundle", dependencies: ["CatalogContent", "CatalogModel"], path: "Fuzz/FuzzBundle"),
        .executableTarget(name: "fuzz-content", dependencies: ["BundleCompiler", "CatalogContent"], path: "Fuzz/FuzzContent"),
        .executableTarget(name: "fuzz-vcdiff", dependencies: ["ChannelFormat"], path: "Fuzz/FuzzVCDIFF"),
        .executableTarget(name: "fuzz-picture", dependencies: ["BundleCompiler"], path: "Fuzz/FuzzPicture"),
    ]
    package.targets += fuzzTargets
    // The fuzz targets and every target of ours they depend on, directly or not.
    var needed = Set<String>(), pending = fuzzTargets.map(\.name)
    while let name = pending.popLast() {
        guard needed.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products = fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) }
}

// The client alone, when DIGNO_CLIENT_ONLY is set: CatalogModel, ChannelFormat, CatalogStore and their tests, with none of the
// compiler's targets or system libraries (libxml2, ICU), as an app's build sees it.
// `DIGNO_CLIENT_ONLY=1 swift test --scratch-path .build-client` runs the client's tests
// (CatalogModelTests, ChannelFormatTests, CatalogStoreTests) where only the client builds; CI
// does, to keep it so.
if Context.environment["DIGNO_CLIENT_ONLY"] != nil {
    let client: Set<String> = [
        "CatalogModel", "CatalogModelTests", "ChannelFormat", "ChannelFormatTests", "CatalogStore", "CatalogStoreTests",
    ]
    package.targets.removeAll { !client.contains($0.name) }
    package.products.removeAll { !client.contains($0.name) }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let url, _) = dependency.kind, let name = url.split(separator: "/").last else { return false }
        return !["GRDB.swift", "swift-crypto"].contains(String(name))
    }
}
