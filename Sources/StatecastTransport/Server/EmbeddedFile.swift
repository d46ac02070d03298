/// A file served from memory at a fixed path, ahead of the public directory: the browser
/// runtime, which ships inside the server so that a page always runs the runtime of the
/// server that serves it, whatever the app's own folder holds.
///
///     configuration.embeddedFiles = [EmbeddedFile(path: "/statecast.js", contentType: "text/javascript", text: source)]
package struct EmbeddedFile: Sendable {
  /// The URL path it answers, exactly (`/statecast.js`).
  package let path: String
  /// The `Content-Type` it is served with.
  package let contentType: String
  /// The body.
  package let body: [UInt8]
  /// A strong validator of the body (a quoted hash): a browser revalidates with
  /// `If-None-Match` and gets a `304` while the server's version is unchanged.
  package let etag: String

  /// - Parameters:
  ///   - path: the URL path, starting with `/`.
  ///   - contentType: the `Content-Type` to serve it with.
  ///   - text: the body, sent as UTF-8.
  package init(path: String, contentType: String, text: String) {
    self.path = path
    self.contentType = contentType
    body = Array(text.utf8)
    etag = "\"\(Self.digest(body))\""
  }

  /// FNV-1a, 64 bits, in hex: enough to tell two versions of a file apart (it is a cache
  /// validator, not a signature).
  private static func digest(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
