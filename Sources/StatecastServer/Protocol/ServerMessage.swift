import StatecastJSON

/// Builds the frames the server sends, as UTF-8 JSON ready for the transport.
///
/// Frames are written straight into a byte buffer rather than built as a `JSON` object
/// and serialized, because a patch frame is built once per store change and shared by
/// every member of a topic: the `ops` array is the only part with real size.
enum ServerMessage {
  /// The name and version a server announces in `hello`.
  static let serverName = "statecast/1"

  static func hello(session: String) -> OutboundFrame {
    frame { bytes in
      append("{\"op\":\"hello\",\"session\":", to: &bytes)
      JSON.string(session).serialize(into: &bytes)
      append(",\"server\":", to: &bytes)
      JSON.string(serverName).serialize(into: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// A `reply` with `status: ok` and any extra fields the request defines.
  static func ok(ref: Int64?, _ extra: [(String, JSON)] = []) -> OutboundFrame {
    frame { bytes in
      appendReplyHead(ref: ref, status: "ok", to: &bytes)
      for (key, value) in extra {
        bytes.append(UInt8(ascii: ","))
        JSON.string(key).serialize(into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.serialize(into: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// A `reply` with `status: error` and the error's code and message.
  static func error(ref: Int64?, _ error: ProtocolError) -> OutboundFrame {
    frame { bytes in
      appendReplyHead(ref: ref, status: "error", to: &bytes)
      append(",\"error\":{\"code\":", to: &bytes)
      JSON.string(error.code.rawValue).serialize(into: &bytes)
      append(",\"message\":", to: &bytes)
      JSON.string(error.message).serialize(into: &bytes)
      append("}}", to: &bytes)
    }
  }

  /// A `snapshot`; with `presence`, the state object carries it under `presence` (the
  /// view is serialized as it is and the member appended, so the view's JSON is not
  /// copied to add one key).
  static func snapshot(topic: String, rev: Int, state: JSON, presence: JSON? = nil) -> OutboundFrame {
    frame { bytes in
      append("{\"op\":\"snapshot\",\"topic\":", to: &bytes)
      JSON.string(topic).serialize(into: &bytes)
      append(",\"rev\":\(rev),\"state\":", to: &bytes)
      state.serialize(into: &bytes)
      if let presence, case .object(let members) = state {
        bytes.removeLast()  // the state's closing brace
        append(members.isEmpty ? "\"presence\":" : ",\"presence\":", to: &bytes)
        presence.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "}"))
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  static func patch(topic: String, rev: Int, patch: JSONPatch) -> OutboundFrame {
    frame { bytes in
      append("{\"op\":\"patch\",\"topic\":", to: &bytes)
      JSON.string(topic).serialize(into: &bytes)
      append(",\"rev\":", to: &bytes)
      appendDecimal(rev, to: &bytes)
      append(",\"ops\":", to: &bytes)
      patch.serialize(into: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private static func appendReplyHead(ref: Int64?, status: StaticString, to bytes: inout [UInt8]) {
    append("{\"op\":\"reply\",\"ref\":", to: &bytes)
    if let ref { appendDecimal(ref, to: &bytes) } else { append("null", to: &bytes) }
    append(",\"status\":\"", to: &bytes)
    status.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes an integer's digits without making a `String` of it first: a reply and a
  /// patch each carry one, on every action.
  private static func appendDecimal(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = UInt64(value.magnitude)
    let start = bytes.count
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    bytes[start...].reverse()
  }

  private static func append(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: text.utf8)
  }

  private static func frame(_ write: (inout [UInt8]) -> Void) -> OutboundFrame {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(128)
    write(&bytes)
    return OutboundFrame(text: bytes)
  }
}
