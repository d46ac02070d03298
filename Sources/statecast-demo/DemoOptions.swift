import Foundation
import StatecastServer

/// The demo's command line: every flag maps onto one `ServerConfiguration` field.
struct DemoOptions {
  var server = ServerConfiguration()
  /// Where the demos keep what they save (favourite primes, shared fasts).
  var dataDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("statecast-demo")

  static let usage = """
    usage: statecast-demo [options]
      --host ADDRESS             address to listen on (default 127.0.0.1)
      --port N                   port, 0 for any free one (default 8080)
      --public DIR               static files and pages (default Public)
      --data DIR                 where demos save data (default $TMPDIR/statecast-demo)
      --tls-cert FILE            PEM certificate: serve https and wss
      --tls-key FILE             PEM private key for --tls-cert
      --allow-origin ORIGIN      also accept WebSockets from this origin (repeatable)
      --echo                     serve /echo, a plain WebSocket echo
      --max-message-size BYTES   largest inbound message (default 65536)
      --ping-interval SECONDS    ping idle peers this often (default 20)
      --idle-timeout SECONDS     close peers silent this long (default 60)
      --session-grace SECONDS    keep a disconnected session this long (default 30)
      --action-burst N           actions a connection may send at once (default 1000)
      --actions-per-second N     refill rate of that allowance (default 1000)
    """

  init(arguments: [String]) throws {
    // Any /music/... link loads the music page, which reads the path (demo 5).
    server.appPages = ["/music": "music.html"]
    var remaining = arguments[...]
    func value(_ flag: String) throws -> String {
      guard let next = remaining.popFirst() else { throw DemoOptionsError("\(flag) needs a value") }
      return next
    }
    func number(_ flag: String) throws -> Double {
      let text = try value(flag)
      guard let number = Double(text), number >= 0 else { throw DemoOptionsError("\(flag): \(text) is not a number") }
      return number
    }
    var certificate: String?
    var key: String?
    while let flag = remaining.popFirst() {
      switch flag {
      case "--host": server.host = try value(flag)
      case "--port": server.port = Int(try number(flag))
      case "--public": server.publicDirectory = try value(flag)
      case "--data": dataDirectory = URL(fileURLWithPath: try value(flag))
      case "--tls-cert": certificate = try value(flag)
      case "--tls-key": key = try value(flag)
      case "--allow-origin": server.allowedOrigins.append(try value(flag))
      case "--echo": server.echo = true
      case "--max-message-size": server.maxMessageSize = Int(try number(flag))
      case "--ping-interval": server.pingInterval = .milliseconds(Int(try number(flag) * 1000))
      case "--idle-timeout": server.idleTimeout = .milliseconds(Int(try number(flag) * 1000))
      case "--session-grace": server.sessionGracePeriod = .milliseconds(Int(try number(flag) * 1000))
      case "--action-burst": server.actionBurst = Int(try number(flag))
      case "--actions-per-second": server.actionsPerSecond = try number(flag)
      case "--help", "-h": throw DemoOptionsError(nil)
      default: throw DemoOptionsError("unknown option \(flag)")
      }
    }
    switch (certificate, key) {
    case (nil, nil): break
    case let (certificate?, key?): server.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    default: throw DemoOptionsError("--tls-cert and --tls-key go together")
    }
  }
}

struct DemoOptionsError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}
