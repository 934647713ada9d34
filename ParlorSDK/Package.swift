// swift-tools-version: 6.0
import PackageDescription

/// The SDK for message apps: what an app, its tests and the simulator need, and nothing of the
/// server. It depends on Foundation only (and the DocC plugin, which builds nothing into an app), so an
/// app's first build takes seconds, not minutes.
///
/// - ParlorKit: the app model (`MessagesApp`, views, messages, sessions, stickers).
/// - ParlorHost: the host every Parlor hosts apps through (lifecycle, rules, the app protocol's
///   wire types), which the simulator runs too.
/// - ParlorTesting: `ConversationSimulator`, any number of people in one conversation, headless.
let package = Package(
    name: "ParlorSDK",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParlorKit", targets: ["ParlorKit"]),
        .library(name: "ParlorHost", targets: ["ParlorHost"]),
        .library(name: "ParlorTesting", targets: ["ParlorTesting"]),
    ],
    dependencies: [
        // `swift package generate-documentation --target ParlorKit` (the DocC catalog in ParlorKit.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "ParlorKit"),
        .target(name: "ParlorHost", dependencies: ["ParlorKit"]),
        .target(name: "ParlorTesting", dependencies: ["ParlorKit", "ParlorHost"]),
        .testTarget(name: "ParlorKitTests", dependencies: ["ParlorKit"]),
        .testTarget(name: "ParlorHostTests", dependencies: ["ParlorKit", "ParlorHost"]),
    ],
    swiftLanguageModes: [.v6]
)
