// swift-tools-version: 6.0
import PackageDescription

/// Targets form a one-way chain (see docs/ARCHITECTURE.md):
/// `Statecast` (pure core) ← `StatecastJSON` (diff) ← `StatecastServer` ← `CLibWebSockets`.
/// The core and the JSON engine depend on Foundation only and build without any C library.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
  name: "statecast",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Statecast", targets: ["Statecast"]),
    .library(name: "StatecastTesting", targets: ["StatecastTesting"]),
    .library(name: "StatecastJSON", targets: ["StatecastJSON"]),
    .library(name: "StatecastServer", targets: ["StatecastServer"]),
    .library(name: "StatecastClient", targets: ["StatecastClient"]),
    .executable(name: "statecast-demo", targets: ["statecast-demo"]),
    .executable(name: "statecast-bench", targets: ["statecast-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    // Core: Store, Reducer, Effect, Middleware, EventSource, composition. Foundation only.
    .target(name: "Statecast", swiftSettings: swiftSettings),
    // Exhaustive TestStore.
    .target(
      name: "StatecastTesting",
      dependencies: [
        "Statecast",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // Lets `reportIssue` record Swift Testing issues in every test that links this.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      swiftSettings: swiftSettings
    ),
    // JSON value, direct Encoder, serializer, parser, RFC 6902 diff and apply. Foundation only.
    .target(name: "StatecastJSON", swiftSettings: swiftSettings),
    // libwebsockets (Debian libwebsockets-dev) plus a shim for what Swift cannot import.
    .systemLibrary(
      name: "CLibWebSockets",
      pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
    ),
    // The server: lws transport, wire protocol, sessions, topics, shared stores.
    .target(
      name: "StatecastServer",
      dependencies: [
        "Statecast", "StatecastJSON", "CLibWebSockets",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    // A Swift client of the wire protocol over the libwebsockets client API.
    .target(
      name: "StatecastClient",
      dependencies: ["StatecastJSON", "CLibWebSockets"],
      swiftSettings: swiftSettings
    ),
    // The source documents' examples as feature modules (the demos' server side).
    .target(name: "StatecastExamples", dependencies: ["Statecast"], swiftSettings: swiftSettings),
    .executableTarget(
      name: "statecast-demo",
      dependencies: [
        "StatecastServer", "StatecastExamples",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "statecast-bench",
      dependencies: ["Statecast", "StatecastJSON", "StatecastServer", "StatecastClient", "StatecastExamples"],
      swiftSettings: swiftSettings
    ),
    .testTarget(name: "StatecastTests", dependencies: ["Statecast", "StatecastTesting"], swiftSettings: swiftSettings),
    .testTarget(name: "StatecastJSONTests", dependencies: ["StatecastJSON"], swiftSettings: swiftSettings),
    .testTarget(
      name: "StatecastExamplesTests",
      dependencies: ["StatecastExamples", "StatecastTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatecastServerTests",
      dependencies: ["Statecast", "StatecastServer", "StatecastClient", "StatecastExamples", "StatecastJSON"],
      swiftSettings: swiftSettings
    ),
  ]
)
