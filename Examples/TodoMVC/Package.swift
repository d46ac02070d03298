// swift-tools-version: 6.0
import PackageDescription

/// TodoMVC on Statecast, built as any app is: a package of its own that depends on
/// Statecast (here by path, from this repository) and uses only its public API.
let package = Package(
  name: "TodoMVC",
  platforms: [.macOS(.v15)],
  dependencies: [
    // Named, so that its products are found whatever the checkout's folder is called.
    .package(name: "statecast", path: "../.."),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
  ],
  targets: [
    // The list: state, actions, reducer and view. Statecast only, tested without a server.
    .target(name: "TodoFeature", dependencies: [.product(name: "Statecast", package: "statecast")]),
    // The server: the app's page from Public/, each browser's list durable in --data.
    .executableTarget(
      name: "todomvc",
      dependencies: [
        "TodoFeature",
        .product(name: "StatecastServer", package: "statecast"),
        .product(name: "StatecastStorage", package: "statecast"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "TodoFeatureTests",
      dependencies: ["TodoFeature", .product(name: "StatecastTesting", package: "statecast")]
    ),
  ]
)
