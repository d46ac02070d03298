import StatecastJSON

/// One message from a client, validated: every field present and of the right type.
///
/// Parsing happens before anything else looks at a message, so the rest of the server
/// only ever sees well-formed requests. Anything else becomes a `ProtocolError` with the
/// `ref` to answer (or `nil` when the message had no usable `ref`).
enum ClientMessage: Sendable {
  case hello(session: String, resume: [String: Int])
  case join(topic: String, params: JSON, events: Bool = false)
  /// `key`: the client's idempotency key for the action, if it sent one.
  case action(topic: String, action: JSON, key: String?)
  case leave(topic: String)
  case presence(topic: String, meta: JSON)
  /// Live navigation: the page at `path` rendered in this socket's session, its topics
  /// joined (see docs/FIRST_PAINT.md).
  case navigate(path: String)

  /// The longest path a `navigate` may name.
  static let maxNavigatePath = 2_048
  case upload(topic: String, name: String, size: Int, type: String)
  case uploadResume(id: String)
  case uploadCancel(id: String)

  /// The largest `ref` a client may use: below 2^53, so it survives a JavaScript number.
  static let maxRef: Int64 = 1 << 53

  /// Parses one text frame into a message and its `ref`.
  ///
  /// - Returns: the message, or the error to answer together with the `ref` to echo.
  static func parse(_ bytes: [UInt8], maxDepth: Int) -> (
    ref: Int64?, result: Result<ClientMessage, ProtocolError>
  ) {
    let document: JSON
    do {
      document = try JSON(parsing: bytes, maxDepth: maxDepth)
    } catch {
      return (nil, .failure(ProtocolError(.badJSON, "the message is not valid JSON: \(error)")))
    }
    guard case .object(let fields) = document else {
      return (nil, .failure(ProtocolError(.badJSON, "the message is not a JSON object")))
    }
    let ref: Int64
    switch usableRef(fields["ref"]) {
    case .some(let value): ref = value
    case .none:
      let problem =
        fields["ref"] == nil ? "the message has no \"ref\"" : "\"ref\" must be an integer from 0 to 2^53 - 1"
      return (nil, .failure(ProtocolError(.badMessage, problem)))
    }
    return (ref, message(from: fields))
  }

  private static func message(from fields: JSONObject) -> Result<ClientMessage, ProtocolError> {
    guard case .string(let op)? = fields["op"] else {
      return .failure(ProtocolError(.badMessage, "the message has no string \"op\""))
    }
    switch op {
    case "hello":
      guard case .string(let session)? = fields["session"] else {
        return .failure(ProtocolError(.badMessage, "hello needs a string \"session\""))
      }
      var resume: [String: Int] = [:]
      switch fields["resume"] {
      case nil, .null?:
        break
      case .object(let revisions)?:
        for (topic, value) in revisions {
          guard let rev = integer(value), rev >= 0 else {
            return .failure(ProtocolError(.badMessage, "resume[\"\(topic)\"] must be a non-negative integer"))
          }
          resume[topic] = Int(rev)
        }
      default:
        return .failure(ProtocolError(.badMessage, "\"resume\" must be an object of topic → rev"))
      }
      return .success(.hello(session: session, resume: resume))
    case "join":
      guard case .string(let topic)? = fields["topic"] else {
        return .failure(ProtocolError(.badMessage, "join needs a string \"topic\""))
      }
      if let problem = TopicName.problem(with: topic) {
        return .failure(ProtocolError(.badMessage, problem))
      }
      let params = fields["params"] ?? .object(JSONObject())
      let events: Bool
      switch fields["events"] {
      case nil, .null?, .bool(false)?: events = false
      case .bool(true)?: events = true
      default: return .failure(ProtocolError(.badMessage, "\"events\" must be a boolean"))
      }
      switch params {
      case .object: return .success(.join(topic: topic, params: params, events: events))
      case .null: return .success(.join(topic: topic, params: .object(JSONObject()), events: events))
      default: return .failure(ProtocolError(.badMessage, "\"params\" must be an object"))
      }
    case "action":
      guard case .string(let topic)? = fields["topic"] else {
        return .failure(ProtocolError(.badMessage, "action needs a string \"topic\""))
      }
      guard let action = fields["action"] else {
        return .failure(ProtocolError(.badMessage, "action needs an \"action\""))
      }
      switch fields["key"] {
      case nil, .null?:
        return .success(.action(topic: topic, action: action, key: nil))
      case .string(let key)?:
        if let problem = AppliedKeys.problem(with: key) {
          return .failure(ProtocolError(.badMessage, problem))
        }
        return .success(.action(topic: topic, action: action, key: key))
      default:
        return .failure(ProtocolError(.badMessage, "\"key\" must be a string"))
      }
    case "leave":
      guard case .string(let topic)? = fields["topic"] else {
        return .failure(ProtocolError(.badMessage, "leave needs a string \"topic\""))
      }
      return .success(.leave(topic: topic))
    case "presence":
      guard case .string(let topic)? = fields["topic"] else {
        return .failure(ProtocolError(.badMessage, "presence needs a string \"topic\""))
      }
      guard case .object? = fields["meta"], let meta = fields["meta"] else {
        return .failure(ProtocolError(.badMessage, "presence needs an object \"meta\""))
      }
      guard meta.serialized().count <= Presence.maxMetaBytes else {
        return .failure(ProtocolError(.badMessage, "presence meta is over \(Presence.maxMetaBytes) bytes"))
      }
      return .success(.presence(topic: topic, meta: meta))
    case "navigate":
      guard case .string(let path)? = fields["path"], path.hasPrefix("/"), !path.hasPrefix("//"),
        path.utf8.count <= maxNavigatePath
      else {
        return .failure(
          ProtocolError(
            .badMessage, "navigate needs a \"path\" of this origin (/…, at most \(maxNavigatePath) bytes)"))
      }
      return .success(.navigate(path: path))
    case "upload", "upload_resume", "upload_cancel":
      return uploadMessage(op, from: fields)
    default:
      return .failure(ProtocolError(.badMessage, "unknown op \"\(op)\""))
    }
  }

  private static func usableRef(_ value: JSON?) -> Int64? {
    guard let value, let ref = integer(value), ref >= 0, ref < maxRef else { return nil }
    return ref
  }

  /// An integral JSON number as an `Int64` (`3` and `3.0` alike), otherwise `nil`.
  static func integer(_ value: JSON) -> Int64? {
    switch value {
    case .int(let integer): return integer
    case .double(let double):
      guard double.isFinite, double.rounded() == double, abs(double) < 9.2e18 else { return nil }
      return Int64(double)
    default: return nil
    }
  }
}

extension ClientMessage {
  /// The topic the message is about, if any.
  var topic: String? {
    switch self {
    case .hello, .navigate, .uploadResume, .uploadCancel: nil
    case .join(let topic, _, _), .action(let topic, _, _), .leave(let topic), .presence(let topic, _),
      .upload(let topic, _, _, _):
      topic
    }
  }
}
