import StatecastJSON

extension ClientMessage {
  /// The longest file name (in UTF-8 bytes) and media type an upload may announce.
  static let maxUploadNameBytes = 255
  static let maxUploadTypeBytes = 127

  /// Parses `upload`, `upload_resume` and `upload_cancel` (docs/PROTOCOL.md, "Uploads").
  static func uploadMessage(_ op: String, from fields: JSONObject) -> Result<ClientMessage, ProtocolError> {
    if op != "upload" {
      guard case .string(let id)? = fields["upload"], id.utf8.count == 32,
        id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
      else {
        return .failure(ProtocolError(.badMessage, "\(op) needs \"upload\": the upload's 32 hex digits"))
      }
      return .success(op == "upload_resume" ? .uploadResume(id: id) : .uploadCancel(id: id))
    }
    guard case .string(let topic)? = fields["topic"] else {
      return .failure(ProtocolError(.badMessage, "upload needs a string \"topic\""))
    }
    guard case .string(let name)? = fields["name"], !name.isEmpty, name.utf8.count <= maxUploadNameBytes,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      return .failure(
        ProtocolError(
          .badMessage, "upload needs a \"name\" of 1 to \(maxUploadNameBytes) bytes, no control characters"))
    }
    guard let sizeValue = fields["size"], let size = integer(sizeValue), size >= 0, size < maxRef else {
      return .failure(ProtocolError(.badMessage, "upload needs a \"size\": a non-negative integer of bytes"))
    }
    var type = ""
    switch fields["type"] {
    case nil, .null?: break
    case .string(let value)?
    where value.utf8.count <= maxUploadTypeBytes && value.utf8.allSatisfy({ $0 > 32 && $0 < 127 }):
      type = value
    default:
      return .failure(
        ProtocolError(.badMessage, "\"type\" must be a media type of at most \(maxUploadTypeBytes) bytes"))
    }
    return .success(.upload(topic: topic, name: name, size: Int(size), type: type))
  }
}
