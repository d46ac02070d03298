import Foundation
import Logging
import ServiceLifecycle
import StatecastServer
import StatecastStorage
import TodoFeature

let options: Options
do {
  options = try Options(CommandLine.arguments.dropFirst())
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(2)
}

LoggingSystem.bootstrap(StreamLogHandler.standardError)
let logger = Logger(label: "todomvc")

var configuration = ServerConfiguration()
configuration.host = options.host
configuration.port = options.port
configuration.publicDirectory = options.publicDirectory

try FileManager.default.createDirectory(atPath: options.data, withIntermediateDirectories: true)
let server = StatecastServer(
  configuration: configuration,
  // Each browser's list (`todos/{browser}` in the page), on disk before anyone sees it.
  routes: [.shared("todos/:list", Todos.self, dependencies: (), durability: .durable)],
  persistence: .sqlite(try SQLiteStorage(directory: URL(fileURLWithPath: options.data))),
  onServerRunning: { [host = options.host] port in print("listening on http://\(host):\(port)") }
)
try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
