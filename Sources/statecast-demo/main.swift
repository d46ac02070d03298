import Foundation
import StatecastServer

// statecast-demo: serves Public/ and the example features as topics. See DemoOptions
// for the flags and DemoRoutes for the topics.

/// Writes a line to standard output at once (unbuffered), so that scripts waiting for
/// "listening on" see it as soon as the server accepts connections.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// Before "listening on", so that a stop signal from then on always shuts down gracefully.
let termination = TerminationSignal()

let options: DemoOptions
do {
  options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch let error as DemoOptionsError {
  if let message = error.message { FileHandle.standardError.write(Data("statecast-demo: \(message)\n".utf8)) }
  print(DemoOptions.usage)
  exit(error.message == nil ? 0 : 2)
}

let server = StatecastServer(configuration: options.server, routes: demoRoutes(dataDirectory: options.dataDirectory))
let port: Int
do {
  port = try server.start()
} catch {
  FileHandle.standardError.write(Data("statecast-demo: cannot start: \(error)\n".utf8))
  exit(1)
}
let scheme = options.server.tls == nil ? "http" : "https"
say("listening on \(scheme)://\(options.server.host):\(port)")

await termination.wait()
say("shutting down")
await server.shutdown()
say("stopped")
exit(0)
