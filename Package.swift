// swift-tools-version: 6.1
import PackageDescription

/// The SDK's modules (the package in ParlorSDK/).
let parlorKit: Target.Dependency = .product(name: "ParlorKit", package: "ParlorSDK")
let parlorHost: Target.Dependency = .product(name: "ParlorHost", package: "ParlorSDK")
let parlorTesting: Target.Dependency = .product(name: "ParlorTesting", package: "ParlorSDK")
let parlorAppRunner: Target.Dependency = .product(name: "ParlorAppRunner", package: "ParlorSDK")
let parlorWasmHost: Target.Dependency = .product(name: "ParlorWasmHost", package: "ParlorSDK")

/// One module per app, under Sources/Apps/<Name>, each depending on ParlorKit only.
let apps = ["Hello", "IconStore", "TicTacToe", "RSVP", "LinkShare", "Todo"]
let appsWithResources: Set<String> = ["IconStore", "RSVP", "Todo"]
/// Extra dependencies of some app test targets (LinkShareTests runs a local HTTP server).
let appTestExtraDependencies: [String: [Target.Dependency]] = [
    "LinkShare": [
        .product(name: "Hummingbird", package: "hummingbird"),
    ],
    // Its tests also run against the Embedded Swift port, one WebAssembly file (examples/tictactoe-wasm).
    "TicTacToe": [parlorWasmHost],
]
/// Data in some app test folders, read by the tests from their own folder (`#filePath`), not built:
/// LinkShare's feed corpus (feedparser's RSS and Atom feeds and what feedparser reads of them).
let appTestData: [String: [String]] = [
    "LinkShare": ["Syndication/feedparser"],
]

let package = Package(
    name: "Parlor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parlor", targets: ["parlor"]),
        .executable(name: "parlor-fuzz", targets: ["ParlorFuzz"]),
    ],
    dependencies: [
        // The SDK for apps (ParlorKit, ParlorHost, ParlorTesting, and ParlorAppRunner with its
        // AppRunner trait): a package of its own, so apps can depend on it without building the server.
        .package(path: "ParlorSDK", traits: ["AppRunner", "WasmHost"]),
        // WAT, to write hostile WebAssembly modules in the tests' own text.
        .package(url: "https://github.com/swiftwasm/WasmKit.git", from: "0.4.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        /// Images from outside, in one place: format and pixel size read from the headers, the
        /// pixel budget, metadata (Exif, GPS, XMP, comments) stripped without touching the pixels.
        .target(name: "ParlorImages"),
        .target(name: "ParlorStickers", dependencies: [parlorKit, "ParlorImages"], resources: [.copy("Packs")]),
        /// The store protocol, its records and the cluster bus: no database engine.
        .target(name: "ParlorStore", dependencies: [parlorKit]),
        .target(name: "ParlorStoreSQLite", dependencies: [
            parlorKit, parlorHost, "ParlorStore",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "ParlorStorePostgres", dependencies: [
            parlorKit, parlorHost, "ParlorStore",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        /// The decoders of outside input, with no server around them: the frames clients send and
        /// the reader of web pages' heads for link previews. A module of its own so that the
        /// fuzzer (scripts/fuzz) builds them without the server's dependencies.
        .target(name: "ParlorInput", dependencies: [parlorKit, parlorHost, "ParlorStore"]),
        .target(name: "ParlorServer", dependencies: [
            parlorKit, parlorHost, parlorWasmHost, "ParlorStore", "ParlorStickers", "ParlorInput", "ParlorImages",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.copy("Web"), .copy("Auth/common-passwords.txt")]),
        /// libFuzzer targets for the decoders of outside input (scripts/fuzz); a replayer otherwise.
        .executableTarget(name: "ParlorFuzz", dependencies: ["CFuzzerDriver", parlorKit, "ParlorInput", "ParlorStickers", "ParlorImages", "LinkShare"]),
        .target(name: "CFuzzerDriver"),
        /// The seed apps as one catalog: what `parlor serve` hosts. The server links no app.
        .target(name: "ParlorSeedApps", dependencies: [parlorKit, parlorHost, parlorAppRunner] + apps.map { .target(name: $0) }),
        .executableTarget(name: "parlor", dependencies: [
            parlorKit, "ParlorServer", "ParlorStore", "ParlorStoreSQLite", "ParlorStorePostgres", "ParlorStickers", "ParlorSeedApps", "ParlorImages",
            parlorAppRunner, parlorTesting, parlorWasmHost,
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "ParlorStoreTests", dependencies: [
            parlorKit, "ParlorStore", "ParlorStoreSQLite", "ParlorStorePostgres",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        .testTarget(name: "ParlorServerTests", dependencies: [
            "ParlorServer", "ParlorInput", "ParlorStore", "ParlorStoreSQLite", "ParlorImages", parlorKit, parlorHost, "ParlorSeedApps", parlorTesting,
            parlorAppRunner,
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        .testTarget(name: "ParlorTestingTests", dependencies: [parlorKit, parlorHost, parlorTesting, parlorWasmHost, "ParlorStickers", "Hello"]),
        .testTarget(name: "ParlorWasmHostTests", dependencies: [
            parlorKit, parlorHost, parlorTesting, parlorWasmHost, .product(name: "WAT", package: "WasmKit"),
        ]),
        .testTarget(name: "ParlorStickersTests", dependencies: [parlorKit, "ParlorStickers", "ParlorImages"]),
        .testTarget(name: "ParlorImagesTests", dependencies: ["ParlorImages"]),
        .testTarget(name: "ParlorInputTests", dependencies: ["ParlorInput", "ParlorStore"], exclude: ["Fixtures"]),
    ]
    + apps.map { name in
        .target(
            name: name, dependencies: [parlorKit], path: "Sources/Apps/\(name)",
            resources: appsWithResources.contains(name) ? [.copy("Assets")] : [])
    }
    + apps.map { name in
        .testTarget(
            name: "\(name)Tests",
            dependencies: [.target(name: name), parlorKit, parlorTesting, parlorHost] + (appTestExtraDependencies[name] ?? []),
            path: "Tests/Apps/\(name)Tests", exclude: appTestData[name] ?? [])
    },
    swiftLanguageModes: [.v6]
)
