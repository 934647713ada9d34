// swift-tools-version: 6.1
import PackageDescription

/// The SDK for message apps: what an app, its tests and the simulator need, and nothing of the
/// server. It depends on Foundation only (and the DocC plugin, which builds nothing into an app), so an
/// app's first build takes seconds, not minutes.
///
/// - ParlorKit: the app model (`MessagesApp`, views, messages, sessions, stickers).
/// - ParlorHost: the host every Parlor hosts apps through (lifecycle, rules, the app protocol's
///   wire types), which the simulator runs too.
/// - ParlorTesting: `ConversationSimulator`, any number of people in one conversation, headless;
///   with the AppRunner trait it also hosts an app that dials in to it (`OutOfProcess.listen`).
/// - ParlorAppRunner: runs an app in its own process, dialled in to a Parlor server. It needs a
///   WebSocket client (SwiftNIO), so it is behind the `AppRunner` trait: a package that does not
///   enable the trait neither resolves nor builds SwiftNIO.
///
///       .package(path: "../parlor/ParlorSDK", traits: ["AppRunner"])
///
/// - ParlorWasmHost: hosts an app that is one WebAssembly file (docs/APPS-WASM.md), sandboxed in
///   WasmKit. Behind the `WasmHost` trait, for the same reason.
let package = Package(
    name: "ParlorSDK",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParlorKit", targets: ["ParlorKit"]),
        .library(name: "ParlorHost", targets: ["ParlorHost"]),
        .library(name: "ParlorTesting", targets: ["ParlorTesting"]),
        .library(name: "ParlorAppRunner", targets: ["ParlorAppRunner"]),
        .library(name: "ParlorWasmHost", targets: ["ParlorWasmHost"]),
    ],
    traits: [
        .trait(name: "AppRunner", description: "ParlorAppRunner's WebSocket client (brings SwiftNIO): run an app in its own process."),
        .trait(name: "WasmHost", description: "ParlorWasmHost's WebAssembly runtime (brings WasmKit): host an app that is one .wasm file."),
    ],
    dependencies: [
        // `swift package generate-documentation --target ParlorKit` (the DocC catalog in ParlorKit.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The runner's WebSocket client, resolved only when a package enables the AppRunner trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The WebAssembly runtime, resolved only when a package enables the WasmHost trait.
        .package(url: "https://github.com/swiftwasm/WasmKit.git", from: "0.4.2"),
    ],
    targets: [
        .target(name: "ParlorKit"),
        .target(name: "ParlorHost", dependencies: ["ParlorKit"]),
        /// With the AppRunner trait, the simulator also listens for an app that dials in (`OutOfProcess.listen`).
        .target(name: "ParlorTesting", dependencies: [
            "ParlorKit", "ParlorHost",
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AppRunner"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AppRunner"])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AppRunner"])),
            .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["AppRunner"])),
        ]),
        /// Runs a ParlorKit app in its own process, dialled in to a server (docs/APPS.md).
        .target(name: "ParlorAppRunner", dependencies: [
            "ParlorKit", "ParlorHost",
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(traits: ["AppRunner"])),
            .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["AppRunner"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["AppRunner"])),
            .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["AppRunner"])),
        ]),
        /// Hosts an app that is one WebAssembly module (docs/APPS-WASM.md). ParlorWasmKit, the
        /// Embedded Swift kit `parlor apps build` compiles apps with, ships as its resource.
        .target(name: "ParlorWasmHost", dependencies: [
            "ParlorKit", "ParlorHost",
            .product(name: "WasmKit", package: "WasmKit", condition: .when(traits: ["WasmHost"])),
        ], resources: [.copy("ParlorWasmKit")]),
        .testTarget(name: "ParlorKitTests", dependencies: ["ParlorKit"]),
        .testTarget(name: "ParlorHostTests", dependencies: ["ParlorKit", "ParlorHost"]),
    ],
    swiftLanguageModes: [.v6]
)
