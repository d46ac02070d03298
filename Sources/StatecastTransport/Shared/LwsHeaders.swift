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

  /// Each occurrence of a header, in order (lws keeps a repeated header as fragments).
  package static func occurrences(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> [String] {
    var values: [String] = []
    var index: Int32 = 0
    while true {
      let length = Int(lws_hdr_fragment_length(wsi, token, index))
      guard length > 0 else { return values }
      let capacity = length + 1
      values.append(
        String(unsafeUninitializedCapacity: capacity) { buffer in
          let copied = buffer.withMemoryRebound(to: CChar.self) { chars in
            lws_hdr_copy_fragment(wsi, chars.baseAddress, Int32(capacity), token, index)
          }
          return copied > 0 ? Int(copied) : 0
        })
      index += 1
    }
  }

  /// The bytes lws holds for the request's headers it knows by name (the request line
  /// included), which is how the transport measures a request against its header limit.
  package static func knownHeadersLength(_ wsi: OpaquePointer) -> Int {
    var total = 0
    for raw in 0..<_WSI_TOKEN_CLIENT_SENT_PROTOCOLS.rawValue {
      total += Int(lws_hdr_total_length(wsi, lws_token_indexes(rawValue: raw)))
    }
    return total
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
