import Statecast
import Testing

@testable import StatecastServer

/// Signed viewer cookies: what the server signed reads back; anything altered does not.
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
    let forged = ViewerCookie.base64url(Array(#"{"id":"v-ada","name":"Mallory"}"#.utf8)) + "." + parts[1]
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
}
