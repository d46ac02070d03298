import Foundation
import Testing

@testable import StatecastTransport

/// Files, app pages and `/healthz` over a real port.
@Suite(.timeLimit(.minutes(1)))
struct StaticFileTests {
  @Test func rootServesIndexHTML() async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: "/")
    await fixture.stop()
    #expect(response.status == 200)
    #expect(response.contentType == "text/html")
    #expect(response.text == TransportFixture.files["index.html"])
  }

  @Test(arguments: [
    ("/app.js", "text/javascript"),
    ("/module.mjs", "text/javascript"),
    ("/style.css", "text/css"),
    ("/icon.svg", "image/svg+xml"),
    ("/data.json", "application/json"),
    ("/image.png", "image/png"),
    ("/favicon.ico", "image/x-icon"),
    ("/site.webmanifest", "application/manifest+json"),
    ("/nested/page.html", "text/html"),
  ])
  func filesHaveTheirContentType(path: String, contentType: String) async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: path)
    await fixture.stop()
    #expect(response.status == 200)
    #expect(response.contentType == contentType)
    #expect(response.text == TransportFixture.files[String(path.dropFirst())])
  }

  @Test func queryStringsDoNotChangeTheFile() async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: "/app.js?v=3")
    await fixture.stop()
    #expect(response.status == 200)
    #expect(response.text == TransportFixture.files["app.js"])
  }

  @Test(arguments: [
    "/../secret.txt", "/%2e%2e/secret.txt", "/nested/../../secret.txt", "/..%2fsecret.txt",
    "/nested/%2e%2e/%2e%2e/secret.txt", "/missing.html", "/ws",
  ])
  func pathsOutsideOrMissingAnswer404(path: String) async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: path)
    await fixture.stop()
    #expect(response.status == 404)
    #expect(!response.text.contains("secret"))
  }

  @Test(arguments: [
    "/.env", "/%2eenv", "/nested/.git/config", "/nested/%2Egit/config", "/.well-known/../.env",
  ])
  func dotfilesAnswer404(path: String) async throws {
    let fixture = try TransportFixture.start()
    let get = try httpGet(port: fixture.port, path: path)
    let head = try httpGet(port: fixture.port, path: path, method: "HEAD")
    await fixture.stop()
    #expect(get.status == 404)
    #expect(head.status == 404)
    #expect(!get.text.contains("secret") && !get.text.contains("SECRET"))
  }

  @Test func theWellKnownFolderIsServed() async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: "/.well-known/security.txt")
    await fixture.stop()
    #expect(response.status == 200)
    #expect(response.text == TransportFixture.files[".well-known/security.txt"])
  }

  @Test func symlinksOutOfThePublicDirectoryAnswer404() async throws {
    let fixture = try TransportFixture.start()
    let files = FileManager.default
    let outside = fixture.root.appendingPathComponent("outside")
    try files.createDirectory(at: outside, withIntermediateDirectories: true)
    try "secret index".write(
      to: outside.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
    let publicDirectory = fixture.publicDirectory
    // A link to a folder outside, to a file outside, and a folder whose index links out.
    try files.createSymbolicLink(
      at: publicDirectory.appendingPathComponent("etc"), withDestinationURL: fixture.root)
    try files.createSymbolicLink(
      at: publicDirectory.appendingPathComponent("secret.txt"),
      withDestinationURL: fixture.root.appendingPathComponent("secret.txt"))
    try files.createDirectory(
      at: publicDirectory.appendingPathComponent("linked"), withIntermediateDirectories: true)
    try files.createSymbolicLink(
      at: publicDirectory.appendingPathComponent("linked/index.html"),
      withDestinationURL: outside.appendingPathComponent("index.html"))
    // A link that stays inside is served.
    try files.createSymbolicLink(
      at: publicDirectory.appendingPathComponent("alias.js"),
      withDestinationURL: publicDirectory.appendingPathComponent("app.js"))
    let refused = try ["/etc/secret.txt", "/secret.txt", "/linked/", "/etc/outside/index.html"].map {
      try httpGet(port: fixture.port, path: $0)
    }
    let alias = try httpGet(port: fixture.port, path: "/alias.js")
    await fixture.stop()
    for response in refused {
      #expect(response.status == 404)
      #expect(!response.text.contains("secret"))
    }
    #expect(alias.status == 200)
    #expect(alias.text == TransportFixture.files["app.js"])
  }

  @Test(arguments: ["/music", "/music/", "/music/artist/42", "/music/artist/42?song=7"])
  func appPagesAnswerDeepLinksWithTheirFile(path: String) async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: path)
    await fixture.stop()
    #expect(response.status == 200)
    #expect(response.contentType == "text/html")
    #expect(response.text == TransportFixture.files["music.html"])
  }

  @Test func aPrefixIsNotAnAppPageOfALongerName() async throws {
    let fixture = try TransportFixture.start()
    let response = try httpGet(port: fixture.port, path: "/musicbox")
    await fixture.stop()
    #expect(response.status == 404)
  }

  @Test func healthzAnswersOK() async throws {
    let fixture = try TransportFixture.start()
    let get = try httpGet(port: fixture.port, path: "/healthz")
    let head = try httpGet(port: fixture.port, path: "/healthz", method: "HEAD")
    await fixture.stop()
    #expect(get.status == 200)
    #expect(get.text == "ok")
    #expect(get.headers["cache-control"] == "no-store")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
  }

  @Test func withoutAPublicDirectoryOnlyHealthzIsServed() async throws {
    let fixture = try TransportFixture.start { $0.publicDirectory = nil }
    let index = try httpGet(port: fixture.port, path: "/")
    let health = try httpGet(port: fixture.port, path: "/healthz")
    await fixture.stop()
    #expect(index.status == 404)
    #expect(health.status == 200)
  }

  @Test func embeddedFilesWinOverThePublicDirectoryAndRevalidateWithTheirETag() async throws {
    let embedded = EmbeddedFile(
      path: "/app.js", contentType: "text/javascript", text: "export const embedded = 1;\n")
    let fixture = try TransportFixture.start { $0.embeddedFiles = [embedded] }
    let first = try httpGet(port: fixture.port, path: "/app.js")
    let again = try httpGet(port: fixture.port, path: "/app.js", headers: ["If-None-Match": embedded.etag])
    let stale = try httpGet(port: fixture.port, path: "/app.js", headers: ["If-None-Match": "\"0\""])
    let other = try httpGet(port: fixture.port, path: "/style.css")
    await fixture.stop()
    #expect(first.status == 200)
    #expect(first.contentType == "text/javascript")
    #expect(first.text == "export const embedded = 1;\n")
    #expect(first.headers["etag"] == embedded.etag)
    #expect(first.headers["cache-control"] == "no-cache")
    #expect(again.status == 304)
    #expect(again.body.isEmpty)
    #expect(stale.status == 200)
    #expect(other.text == TransportFixture.files["style.css"])
  }

  @Test func embeddedFilesAreServedWithoutAPublicDirectory() async throws {
    let embedded = EmbeddedFile(path: "/statecast/early.js", contentType: "text/javascript", text: "1;")
    let fixture = try TransportFixture.start {
      $0.publicDirectory = nil
      $0.embeddedFiles = [embedded]
    }
    let file = try httpGet(port: fixture.port, path: "/statecast/early.js")
    let head = try httpGet(port: fixture.port, path: "/statecast/early.js", method: "HEAD")
    let below = try httpGet(port: fixture.port, path: "/statecast/early.js/more")
    await fixture.stop()
    #expect(file.status == 200)
    #expect(file.text == "1;")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    #expect(below.status == 404)
  }

  @Test func aMissingPublicDirectoryIsNamedAsSuch() async throws {
    let configuration = TransportConfiguration(port: 0, publicDirectory: "/nonexistent/statecast-public")
    let transport = WebSocketTransport(configuration: configuration, handler: RecordingHandler())
    #expect {
      try transport.start()
    } throws: { error in
      "\(error)".contains("public directory /nonexistent/statecast-public does not exist")
    }
  }
}
