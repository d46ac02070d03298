import Foundation
import Testing

@testable import StatecastServer

/// The runtime the server carries: served at fixed paths whatever the public directory
/// holds, and the public directory found the way an app's author expects.
@Suite(.timeLimit(.minutes(1)))
struct BrowserRuntimeTests {
  @Test func theRuntimeIsServedAtItsPathsEvenWhenThePublicDirectoryHasAnOldCopy() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecast-runtime-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "// an old copy".write(
      to: folder.appendingPathComponent("statecast.js"), atomically: true, encoding: .utf8)
    try "<p>page</p>".write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
    let fixture = try ServerFixture.start { $0.publicDirectory = folder.path }
    let responses = try await onOwnThread { [port = fixture.port] in
      try (BrowserRuntime.files.map(\.path) + ["/page.html"]).map { try rawGet(port: port, path: $0) }
    }
    await fixture.stop()
    for (response, file) in zip(responses, BrowserRuntime.files) {
      #expect(response.hasPrefix("HTTP/1.1 200"), "\(file.path)")
      #expect(response.lowercased().contains("etag: \(file.etag.lowercased())"), "\(file.path)")
      #expect(response.hasSuffix(String(decoding: file.body, as: UTF8.self)), "\(file.path)")
    }
    #expect(!responses[0].contains("an old copy"))
    #expect(responses[2].contains("statecastEarlySocket"))
    #expect(
      BrowserRuntime.files.map(\.path).starts(with: [
        "/statecast.js", "/statecast.css", "/statecast/early.js",
      ]))
    #expect(responses.last?.hasSuffix("<p>page</p>") == true)
  }

  @Test func aRelativePublicDirectoryIsLookedForInTheWorkingDirectoryThenInTheExecutablesPackage() throws {
    let candidates = PublicDirectory.candidates(
      "Public", workingDirectory: "/srv/app", executable: "/nonexistent/app/.build/debug/app")
    #expect(candidates == ["/srv/app/Public"])
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let package = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let executable = package.appendingPathComponent(".build/debug/app").path
    #expect(
      PublicDirectory.candidates("Public", workingDirectory: "/", executable: executable)
        == ["/Public", package.appendingPathComponent("Public").path])
    #expect(
      PublicDirectory.resolve("Public", workingDirectory: "/", executable: executable) == package.path
        + "/Public")
    #expect(
      PublicDirectory.candidates("/srv/www", workingDirectory: "/tmp", executable: executable) == ["/srv/www"]
    )
  }

  @Test func aMissingPublicDirectoryStopsTheServerNamingIt() throws {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.publicDirectory = "no-such-public-folder"
    let server = StatecastServer(configuration: configuration, routes: [])
    #expect {
      try server.start()
    } throws: { error in
      "\(error)".contains("public directory") && "\(error)".contains("no-such-public-folder")
    }
  }
}
