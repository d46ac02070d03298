import Testing

@testable import StatecastTransport

/// The headers of static files: security headers, an ETag and revalidation.
@Suite(.timeLimit(.minutes(1)))
struct StaticFileHeaderTests {
  @Test func filesCarrySecurityHeadersAndAValidator() async throws {
    let fixture = try TransportFixture.start()
    let page = try httpGet(port: fixture.port, path: "/index.html")
    let etag = page.headers["etag"] ?? ""
    let revalidated = try httpGet(port: fixture.port, path: "/index.html", headers: ["If-None-Match": etag])
    let other = try httpGet(port: fixture.port, path: "/index.html", headers: ["If-None-Match": "\"nope\""])
    let health = try httpGet(port: fixture.port, path: "/healthz")
    await fixture.stop()
    #expect(page.status == 200)
    #expect(page.headers["x-content-type-options"] == "nosniff")
    #expect(page.headers["referrer-policy"] == "same-origin")
    #expect(page.headers["content-security-policy"] == TransportConfiguration.defaultContentSecurityPolicy)
    #expect(page.headers["cache-control"] == "must-revalidate, private, max-age=1")
    #expect(!etag.isEmpty)
    #expect(revalidated.status == 304)
    #expect(revalidated.body.isEmpty)
    #expect(revalidated.headers["etag"] == etag)
    #expect(other.status == 200)
    #expect(health.headers["x-content-type-options"] == "nosniff")
  }

  @Test func theHeadersCanBeChanged() async throws {
    let fixture = try TransportFixture.start { $0.responseHeaders = [("X-Frame-Options", "DENY")] }
    let page = try httpGet(port: fixture.port, path: "/app.js")
    await fixture.stop()
    #expect(page.headers["x-frame-options"] == "DENY")
    #expect(page.headers["content-security-policy"] == nil)
  }
}
