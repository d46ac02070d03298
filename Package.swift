// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// Targets form a one-way chain (see docs/ARCHITECTURE.md):
/// `Statecast` (pure core) ← `StatecastJSON` (diff) ← `StatecastServer` ← `StatecastTransport` ←
/// `CLibWebSockets`; `StatecastClient` also sits on `StatecastTransport`.
/// The core and the JSON engine depend on Foundation only and build without any C library.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
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
    .library(name: "StatecastStorage", targets: ["StatecastStorage"]),
    .library(name: "StatecastPostgres", targets: ["StatecastPostgres"]),
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
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
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
    // The only home of libwebsockets code: the server transport (WebSocketTransport) and
    // the client engine StatecastClient is built on. Not a product: its API is `package`.
    .target(
      name: "StatecastTransport",
      dependencies: ["CLibWebSockets"],
      swiftSettings: swiftSettings
    ),
    // The server: wire protocol, sessions, topics, shared stores, on StatecastTransport.
    // OpenSSL's libcrypto (HMAC-SHA256 for signed viewer cookies).
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(
      name: "StatecastServer",
      dependencies: [
        "Statecast", "StatecastJSON", "StatecastTransport", "StatecastStorage", "COpenSSL",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: swiftSettings
    ),
    // A Swift client of the wire protocol, on the transport's libwebsockets client engine.
    .target(
      name: "StatecastClient",
      dependencies: ["StatecastJSON", "StatecastTransport"],
      swiftSettings: swiftSettings
    ),
    // Durable stores: journal, snapshots, rooms and sessions in SQLite through GRDB
    // (Debian libsqlite3-dev). Other engines implement the same `StateStorage`.
    .target(
      name: "StatecastStorage",
      dependencies: ["Statecast", "StatecastJSON", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    // The same `StateStorage`, and a `ClusterBackplane`, on a PostgreSQL shared by several
    // server processes (leases, heartbeats, LISTEN/NOTIFY), through postgres-nio.
    .target(
      name: "StatecastPostgres",
      dependencies: [
        "StatecastStorage", "StatecastJSON",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    // The source documents' examples as feature modules (the demos' server side).
    .target(name: "StatecastExamples", dependencies: ["Statecast"], swiftSettings: swiftSettings),
    .executableTarget(
      name: "statecast-demo",
      dependencies: [
        "StatecastServer", "StatecastExamples", "StatecastStorage", "StatecastPostgres",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "statecast-bench",
      dependencies: [
        "Statecast", "StatecastJSON", "StatecastServer", "StatecastClient", "StatecastExamples",
        "StatecastStorage", "StatecastPostgres", .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatecastTests", dependencies: ["Statecast", "StatecastTesting"], swiftSettings: swiftSettings),
    .testTarget(
      name: "StatecastStorageTests",
      dependencies: [
        "StatecastStorage", "Statecast", "StatecastJSON", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatecastPostgresTests",
      dependencies: [
        "StatecastPostgres", "StatecastStorage", "Statecast", "StatecastJSON",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(name: "StatecastJSONTests", dependencies: ["StatecastJSON"], swiftSettings: swiftSettings),
    .testTarget(
      name: "StatecastExamplesTests",
      dependencies: ["StatecastExamples", "StatecastTesting"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatecastTransportTests",
      dependencies: ["StatecastTransport", "StatecastClient", "StatecastJSON"],
      swiftSettings: swiftSettings
    ),
    // The README's and docs/GUIDE.md's Swift blocks, made from the documents' own text by
    // scripts/doc-snippets.py. Built as an app's package builds them: no upcoming features.
    .testTarget(
      name: "ReadmeTests",
      dependencies: [
        "Statecast", "StatecastTesting", "StatecastServer",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    .testTarget(
      name: "GuideTests",
      dependencies: [
        "Statecast", "StatecastTesting", "StatecastServer", "StatecastStorage",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "StatecastServerTests",
      dependencies: [
        "Statecast", "StatecastServer", "StatecastClient", "StatecastExamples", "StatecastJSON",
        "StatecastStorage", .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: swiftSettings
    ),
  ]
)

// The DocC plugin, for scripts/docs-check.sh only: the ordinary build neither resolves
// nor builds it.
if ProcessInfo.processInfo.environment["STATECAST_DOCS"] != nil {
  package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
