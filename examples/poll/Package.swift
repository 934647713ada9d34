// swift-tools-version: 6.1
import PackageDescription

// Quick Poll, a message app outside Parlor's server package: it depends on the SDK only. The
// AppRunner trait brings ParlorAppRunner (and its WebSocket client) for the poll-app executable,
// which runs the same app in its own process against a running Parlor.
let package = Package(
    name: "Poll",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "poll-app", targets: ["PollApp"])],
    dependencies: [.package(path: "../../ParlorSDK", traits: ["AppRunner"])],
    targets: [
        .target(name: "Poll", dependencies: [.product(name: "ParlorKit", package: "ParlorSDK")]),
        .executableTarget(name: "PollApp", dependencies: ["Poll", .product(name: "ParlorAppRunner", package: "ParlorSDK")]),
        .testTarget(name: "PollTests", dependencies: [
            "Poll", .product(name: "ParlorKit", package: "ParlorSDK"), .product(name: "ParlorTesting", package: "ParlorSDK"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
