package import CLibWebSockets

/// Reads the headers of a connection whose HTTP header table is still attached: a
/// server's request headers (HTTP callbacks and the upgrade callbacks) or a client's
/// upgrade response headers (`CLIENT_FILTER_PRE_ESTABLISH`). Service thread.
package enum LwsHeaders {
  /// The header's value (several occurrences joined by lws), or `nil` when absent.
  package static func value(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let length = Int(lws_hdr_total_length(wsi, token))
    guard length > 0 else { return nil }
    let capacity = length + 1
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      let copied = buffer.withMemoryRebound(to: CChar.self) { chars in
        lws_hdr_copy(wsi, chars.baseAddress, Int32(capacity), token)
      }
      return copied > 0 ? Int(copied) : 0
    }
  }

  /// A comma-separated header as its trimmed, non-empty elements.
  package static func list(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> [String] {
    guard let text = value(wsi, token) else { return [] }
    return text.split(separator: ",").compactMap { element in
      let trimmed = element.trimmingCharacters(in: [" ", "\t"])
      return trimmed.isEmpty ? nil : trimmed
    }
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
    var view = self
    while let first = view.first, set.contains(first) { view = view.dropFirst() }
    while let last = view.last, set.contains(last) { view = view.dropLast() }
    return String(view)
  }
}
