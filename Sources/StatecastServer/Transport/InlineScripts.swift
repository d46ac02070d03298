import COpenSSL
import Foundation

/// The inline scripts of the public directory's pages, allowed by hash in the content
/// security policy instead of by `'unsafe-inline'`.
///
/// Why it exists: with `'unsafe-inline'`, a script that reaches a page by any injection
/// runs; with hashes, only the scripts the pages were written with do. Every page
/// inlines the same early snippet (docs/RUNTIME.md), so a site's list stays short.
///
///     InlineScripts.policy("script-src 'self'", allowingScriptsOf: "Public")
///     // "script-src 'self' 'sha256-…' 'sha256-…'"
enum InlineScripts {
  /// The most `.html` files read, and the largest read, so that a huge public folder
  /// cannot stall a start.
  static let maxFiles = 2_000
  static let maxFileBytes = 4 << 20

  /// `policy` with the hash of every inline script of `directory`'s pages added to its
  /// `script-src`; unchanged when it has no `script-src`, allows `'unsafe-inline'`
  /// already, or there is no directory.
  static func policy(_ policy: String, allowingScriptsOf directory: String?) -> String {
    guard let directory else { return policy }
    var directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let index = directives.firstIndex(where: { $0.hasPrefix("script-src ") || $0 == "script-src" }),
      !directives[index].contains("'unsafe-inline'")
    else { return policy }
    let hashes = self.hashes(in: directory)
    guard !hashes.isEmpty else { return policy }
    directives[index] += hashes.map { " '\($0)'" }.joined()
    return directives.joined(separator: "; ")
  }

  /// `sha256-…` of each distinct inline script in the `.html` files under `directory`,
  /// sorted.
  static func hashes(in directory: String) -> [String] {
    let root = URL(fileURLWithPath: directory)
    guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
      return []
    }
    var hashes = Set<String>()
    var read = 0
    for case let file as URL in files where file.pathExtension == "html" {
      read += 1
      guard read <= maxFiles else { break }
      guard let data = try? Data(contentsOf: file), data.count <= maxFileBytes else { continue }
      for script in scripts(in: String(decoding: data, as: UTF8.self)) {
        hashes.insert("sha256-" + Data(sha256(Array(script.utf8))).base64EncodedString())
      }
    }
    return hashes.sorted()
  }

  /// The text of each `<script>` element without a `src` attribute, exactly as the
  /// browser hashes it: everything between the start tag's `>` and `</script`.
  static func scripts(in html: String) -> [Substring] {
    var found: [Substring] = []
    var rest = html[...]
    while let open = rest.range(of: "<script", options: .caseInsensitive) {
      guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">") else { break }
      let attributes = rest[open.upperBound..<tagEnd]
      let bodyStart = rest.index(after: tagEnd)
      guard let close = rest[bodyStart...].range(of: "</script", options: .caseInsensitive) else { break }
      if !attributes.lowercased().contains("src=") { found.append(rest[bodyStart..<close.lowerBound]) }
      rest = rest[close.upperBound...]
    }
    return found
  }

  private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    _ = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
    return Array(digest.prefix(Int(length)))
  }
}
