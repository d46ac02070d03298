import Foundation
import Logging
import PostgresNIO
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server for the tests: the one at `STATECAST_TEST_POSTGRES_URL`, or a
/// throwaway one started by `scripts/postgres-throwaway.sh` on first use and stopped
/// when the test process exits. Each test gets a database of its own, so tests run in
/// parallel.
actor ThrowawayPostgres {
  static let shared = ThrowawayPostgres()

  private var serverURL: Task<String, any Error>?

  /// A fresh, empty database on the shared server.
  func freshDatabase() async throws -> String {
    let server = try await serverURLStartingIfNeeded()
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try await Self.execute("CREATE DATABASE \(name)", on: server)
    return Self.url(server, database: name)
  }

  /// Started once however many tests ask at once (the actor is re-entered while the
  /// server starts).
  private func serverURLStartingIfNeeded() async throws -> String {
    if let serverURL { return try await serverURL.value }
    let starting = Task<String, any Error> {
      if let url = ProcessInfo.processInfo.environment["STATECAST_TEST_POSTGRES_URL"], !url.isEmpty {
        return url
      }
      let server = try await Self.startServer()
      startedDirectory.withLock { $0 = server.directory }
      atexit {
        guard let directory = startedDirectory.withLock({ $0 }) else { return }
        _ = system("'\(ThrowawayPostgres.script)' stop '\(directory)' >/dev/null 2>&1")
      }
      return server.url
    }
    serverURL = starting
    return try await starting.value
  }

  /// `scripts/postgres-throwaway.sh` of this checkout.
  static let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(path: "scripts/postgres-throwaway.sh")
    .path

  /// Starts a throwaway server of its own, for a test that restarts it.
  static func startServer() async throws -> (url: String, directory: String) {
    let output = try await runOffThePool(["start"]).split(separator: " ")
    guard output.count == 2 else { throw ThrowawayError(message: "unexpected output: \(output)") }
    return (String(output[0]), String(output[1]))
  }

  static func restartServer(_ directory: String) async throws {
    _ = try await runOffThePool(["restart", directory])
  }

  /// Runs the script on a thread of its own: starting a server takes seconds, and a
  /// test blocking one of the few threads of Swift's cooperative pool that long stalls
  /// every other test of the process.
  private static func runOffThePool(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try run(arguments) }) }
    }
  }

  static func stopServer(_ directory: String) throws { _ = try run(["stop", directory]) }

  /// Runs the script through `popen`: Foundation's `Process.waitUntilExit` can hang
  /// when called from a task.
  private static func run(_ arguments: [String]) throws -> String {
    let command = ([script] + arguments).map { "'\($0)'" }.joined(separator: " ")
    guard let pipe = popen(command, "r") else { throw ThrowawayError(message: "cannot run \(command)") }
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = fread(&buffer, 1, buffer.count, pipe)
      if count <= 0 { break }
      output += buffer[0..<count]
    }
    let status = pclose(pipe)
    guard status == 0 else {
      throw ThrowawayError(message: "postgres-throwaway.sh \(arguments) exited with \(status)")
    }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `server` with its database replaced by `database`.
  static func url(_ server: String, database: String) -> String {
    var components = URLComponents(string: server)!
    components.path = "/" + database
    return components.string!
  }

  /// Runs one statement on a connection of its own (for what a test sets up by hand).
  static func execute(_ sql: String, on url: String) async throws {
    _ = try await count(sql, on: url)
  }

  /// Runs one statement on a connection of its own; the integer in its first row's
  /// first column, if any.
  @discardableResult
  static func count(_ sql: String, on url: String) async throws -> Int? {
    let components = URLComponents(string: url)!
    let configuration = PostgresConnection.Configuration(
      host: components.host!, port: components.port ?? 5432, username: components.user!,
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    let connection = try await PostgresConnection.connect(
      configuration: configuration, id: 0, logger: Logger(label: "statecast-test"))
    do {
      let rows = try await connection.query(
        PostgresQuery(unsafeSQL: sql), logger: Logger(label: "statecast-test"))
      var value: Int?
      for try await row in rows where value == nil { value = try? row.decode(Int.self) }
      try await connection.close()
      return value
    } catch {
      try? await connection.close()
      throw error
    }
  }
}

private let startedDirectory = Mutex<String?>(nil)

struct ThrowawayError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
