import Testing

@testable import StatecastTransport

@Suite struct OriginPolicyTests {
  let policy = OriginPolicy(
    allowedOrigins: ["https://app.example.com", "localhost:5173", "Docs.Example.org", "not a url://"],
    tls: false)

  @Test func noOriginIsAccepted() {
    #expect(policy.accepts(origin: nil, host: "127.0.0.1:8080"))
  }

  @Test func theSameHostAndPortIsAccepted() {
    #expect(policy.accepts(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"))
    #expect(policy.accepts(origin: "HTTP://LOCALHOST:8080", host: "localhost:8080"))
    #expect(policy.accepts(origin: "http://example.com", host: "example.com"))
    #expect(policy.accepts(origin: "http://[::1]:8080", host: "[::1]:8080"))
  }

  @Test func anotherHostOrPortIsRefused() {
    #expect(!policy.accepts(origin: "http://127.0.0.1:8081", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "http://evil.example", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "https://example.com", host: "example.com"))
    // The same host and port under another scheme is another origin.
    #expect(!policy.accepts(origin: "https://127.0.0.1:8080", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "null", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "http://127.0.0.1:8080", host: nil))
    #expect(!policy.accepts(origin: "http://user@127.0.0.1:8080", host: "127.0.0.1:8080"))
  }

  @Test func theAllowListAcceptsFullOriginsPairsAndBareHosts() {
    #expect(policy.accepts(origin: "https://app.example.com", host: "127.0.0.1:8080"))
    #expect(policy.accepts(origin: "https://app.example.com:443", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "http://app.example.com", host: "127.0.0.1:8080"))
    #expect(policy.accepts(origin: "http://localhost:5173", host: "127.0.0.1:8080"))
    #expect(!policy.accepts(origin: "http://localhost:5174", host: "127.0.0.1:8080"))
    #expect(policy.accepts(origin: "https://docs.example.org:8443", host: "127.0.0.1:8080"))
  }

  @Test func aHostWithoutPortUsesTheServersSchemeDefault() {
    let tls = OriginPolicy(allowedOrigins: [], tls: true)
    #expect(tls.accepts(origin: "https://example.com", host: "example.com"))
    #expect(!tls.accepts(origin: "http://example.com", host: "example.com"))
    #expect(tls.accepts(origin: "https://example.com:8443", host: "example.com:8443"))
    #expect(!tls.accepts(origin: "http://example.com:8443", host: "example.com:8443"))
  }
}
