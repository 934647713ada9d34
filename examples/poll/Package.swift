// swift-tools-version: 6.0
import PackageDescription

// Quick Poll, a message app outside Parlor's server package: it depends on the SDK only.
let package = Package(
    name: "Poll",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../../ParlorSDK")],
    targets: [
        .target(name: "Poll", dependencies: [.product(name: "ParlorKit", package: "ParlorSDK")]),
        .testTarget(name: "PollTests", dependencies: [
            "Poll", .product(name: "ParlorKit", package: "ParlorSDK"), .product(name: "ParlorTesting", package: "ParlorSDK"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
