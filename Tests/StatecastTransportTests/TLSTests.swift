import Foundation
import StatecastClient
import Testing

@testable import StatecastTransport

/// The same port over TLS, with a self-signed certificate made for the test.
///
/// Serialized: lws 4.1 re-allocates OpenSSL's ex-data indices process-wide whenever a
/// context initialises TLS, which breaks a TLS handshake in flight in another context.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TLSTests {
  @Test func wssAndHTTPSWorkWithASelfSignedCertificate() async throws {
    let (certificate, key) = try Self.makeSelfSignedCertificate()
    let fixture = try TransportFixture.start(echoes: true) {
      $0.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    }
    let connection = try await fixture.client.connect(
      to: "wss://127.0.0.1:\(fixture.port)/ws", subprotocols: ["statecast.v1"],
      origin: "https://127.0.0.1:\(fixture.port)", allowInsecureTLS: true)
    connection.send(text: "over tls")
    let echoed = await connection.nextEvent()
    let curl = try Self.run(
      "/usr/bin/curl", ["-sk", "-w", " %{http_version}", "https://127.0.0.1:\(fixture.port)/healthz"])
    await fixture.stop()
    #expect(connection.subprotocol == "statecast.v1")
    #expect(echoed == .text(Array("over tls".utf8)))
    // HTTP/1.1, not HTTP/2: the server forces ALPN to http/1.1.
    #expect(curl == "ok 1.1")
  }

  @Test func aClientThatVerifiesCertificatesRefusesASelfSignedOne() async throws {
    let (certificate, key) = try Self.makeSelfSignedCertificate()
    let fixture = try TransportFixture.start {
      $0.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    }
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: "wss://127.0.0.1:\(fixture.port)/ws")
    }
    await fixture.stop()
  }

  @Test func plainWebSocketsAreRefusedOnATLSPort() async throws {
    let (certificate, key) = try Self.makeSelfSignedCertificate()
    let fixture = try TransportFixture.start {
      $0.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    }
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL)
    }
    await fixture.stop()
  }

  @Test func startFailsWhenTheCertificateCannotBeRead() throws {
    var configuration = TransportConfiguration(port: 0)
    configuration.tls = TLSConfiguration(
      certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
    let transport = WebSocketTransport(configuration: configuration, handler: RecordingHandler())
    #expect(throws: TransportError.self) { try transport.start() }
  }

  /// A fresh key and self-signed certificate for `127.0.0.1`, made with `openssl`.
  static func makeSelfSignedCertificate() throws -> (certificate: String, key: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "statecast-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let certificate = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    _ = try run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out",
        certificate,
      ])
    return (certificate, key)
  }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw RawSocket.Failure(description: "\(executable) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
