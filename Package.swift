// swift-tools-version: 6.0
import PackageDescription

/// One module per app, under Sources/Apps/<Name>, each depending on ParlorKit only.
let apps = ["Hello", "IconStore", "TicTacToe", "RSVP", "LinkShare", "Todo"]
let appsWithResources: Set<String> = ["IconStore", "RSVP", "Todo"]
/// Extra dependencies of some app test targets (LinkShareTests runs a local HTTP server).
let appTestExtraDependencies: [String: [Target.Dependency]] = [
    "LinkShare": [
        .product(name: "Hummingbird", package: "hummingbird"),
    ]
]

let package = Package(
    name: "Parlor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParlorKit", targets: ["ParlorKit"]),
        .library(name: "ParlorTesting", targets: ["ParlorTesting"]),
    ],
    dependencies: [
        // LinkShareTests serve fixture JSON from a real local HTTP server.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(name: "ParlorKit"),
        .target(name: "ParlorHost", dependencies: ["ParlorKit"]),
        .target(name: "ParlorStickers", dependencies: ["ParlorKit"], resources: [.copy("Packs")]),
        .target(name: "ParlorTesting", dependencies: ["ParlorKit", "ParlorHost", "ParlorStickers"]),
        .testTarget(name: "ParlorKitTests", dependencies: ["ParlorKit"]),
        .testTarget(name: "ParlorHostTests", dependencies: ["ParlorKit", "ParlorHost"]),
        .testTarget(name: "ParlorTestingTests", dependencies: ["ParlorTesting", "Hello"]),
        .testTarget(name: "ParlorStickersTests", dependencies: ["ParlorStickers"]),
    ]
    + apps.map { name in
        .target(
            name: name, dependencies: ["ParlorKit"], path: "Sources/Apps/\(name)",
            resources: appsWithResources.contains(name) ? [.copy("Assets")] : [])
    }
    + apps.map { name in
        .testTarget(
            name: "\(name)Tests",
            dependencies: [.target(name: name), "ParlorTesting"] + (appTestExtraDependencies[name] ?? []),
            path: "Tests/Apps/\(name)Tests")
    },
    swiftLanguageModes: [.v6]
)
