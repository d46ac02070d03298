import Foundation
import StatecastServer

// statecast-demo: serves Public/ and the example features as topics. See DemoOptions
// for the flags and DemoRoutes for the topics.

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
print("listening on \(scheme)://\(options.server.host):\(port)")
fflush(stdout)

await TerminationSignal.wait()
print("shutting down")
await server.shutdown()
print("stopped")
exit(0)
