import Foundation
import Statecast
import Testing

@testable import StatecastServer

/// Signed viewer cookies: what the server signed reads back until it expires; anything
/// altered does not; a retired secret's cookies read back while it is listed.
@Suite struct ViewerCookieTests {
  let cookies = ViewerCookie(secret: Array(repeating: 7, count: 32))
  let ada = Viewer(id: "v-ada", name: "Ada \"the\" Countess ✨")

  @Test func aSignedViewerReadsBack() {
    let value = cookies.value(for: ada)
    #expect(cookies.viewer(from: value) == ada)
    #expect(!value.contains("=") && !value.contains("+") && !value.contains("/"))
  }

  @Test func anAlteredNameOrSignatureIsRefused() {
    let value = cookies.value(for: ada)
    let parts = value.split(separator: ".").map(String.init)
    var claims = String(decoding: ViewerCookie.bytes(base64url: Substring(parts[0]))!, as: UTF8.self)
    claims = claims.replacingOccurrences(of: "Ada \\\"the\\\" Countess ✨", with: "Mallory")
    #expect(claims.contains("Mallory"))
    let forged = ViewerCookie.base64url(Array(claims.utf8)) + "." + parts[1]
    #expect(cookies.viewer(from: forged) == nil)
    var signature = Array(parts[1])
    signature[0] = signature[0] == "A" ? "B" : "A"
    #expect(cookies.viewer(from: parts[0] + "." + String(signature)) == nil)
  }

  @Test func anotherSecretsCookieIsRefused() {
    let other = ViewerCookie(secret: Array(repeating: 8, count: 32))
    #expect(cookies.viewer(from: other.value(for: ada)) == nil)
  }

  @Test func malformedValuesAreRefused() {
    for value in ["", ".", "abc", "a.b.c", "!!!.???", cookies.value(for: ada) + "x"] {
      #expect(cookies.viewer(from: value) == nil, "\(value)")
    }
  }

  @Test func aCookieExpiresAfterItsLifetime() {
    let clock = Clock(Date(timeIntervalSince1970: 1_000_000))
    let cookies = ViewerCookie(
      secret: Array(repeating: 7, count: 32), lifetime: .seconds(60), now: { clock.now })
    let value = cookies.value(for: ada)
    clock.now += 59
    #expect(cookies.viewer(from: value) == ada)
    clock.now += 1
    #expect(cookies.viewer(from: value) == nil)
  }

  @Test func aRetiredSecretsCookiesReadBackWhileItIsListed() {
    let retired = ViewerCookie(secret: Array(repeating: 8, count: 32))
    let rotated = ViewerCookie(
      secret: Array(repeating: 9, count: 32), previousSecrets: [Array(repeating: 8, count: 32)])
    #expect(rotated.viewer(from: retired.value(for: ada)) == ada)
    // New cookies are signed with the new secret, which the retired one does not know.
    #expect(retired.viewer(from: rotated.value(for: ada)) == nil)
    #expect(cookies.viewer(from: retired.value(for: ada)) == nil)
  }
}

/// A settable time for cookies' expiry.
private final class Clock: @unchecked Sendable {
  // Sendable: set only by the test's own thread between calls.
  var now: Date
  init(_ now: Date) { self.now = now }
}
