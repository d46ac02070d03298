import Foundation
import Logging
import ServiceLifecycle
import StatecastServer

// statecast-demo: serves Public/ and the example features as topics. See DemoOptions
// for the flags and DemoRoutes for the topics.

/// Writes a line to standard output at once (unbuffered), so that scripts waiting for
/// "listening on" see it as soon as the server accepts connections.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let options: DemoOptions
do {
  options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch let error as DemoOptionsError {
  if let message = error.message { FileHandle.standardError.write(Data("statecast-demo: \(message)\n".utf8)) }
  print(DemoOptions.usage)
  exit(error.message == nil ? 0 : 2)
}

let scheme = options.server.tls == nil ? "http" : "https"
let server = StatecastServer(
  configuration: options.server,
  routes: demoRoutes(dataDirectory: options.dataDirectory),
  onServerRunning: { port in say("listening on \(scheme)://\(options.server.host):\(port)") }
)
// SIGTERM (a container stopping) and SIGINT (Ctrl-C) shut the server down gracefully.
let services = ServiceGroup(
  services: [server],
  gracefulShutdownSignals: [.sigterm, .sigint],
  logger: Logger(label: "statecast-demo")
)
do {
  try await services.run()
} catch {
  FileHandle.standardError.write(Data("statecast-demo: cannot start: \(error)\n".utf8))
  exit(1)
}
say("stopped")
exit(0)
