import StatecastJSON
import StatecastTransport

/// The frames the server sends about an upload, outside any reply (docs/PROTOCOL.md,
/// "Uploads"): progress, completion and a refused chunk.
enum UploadMessage {
  /// Bytes `0..<offset` of the upload are on the server's disk.
  static func ack(_ id: String, offset: Int) -> OutboundFrame {
    frame(["op": "upload_ack", "upload": .string(id), "offset": .int(Int64(offset))])
  }

  /// The whole file is written and was handed to the store.
  static func done(_ id: String, size: Int, sha256: String) -> OutboundFrame {
    frame([
      "op": "upload_done", "upload": .string(id), "size": .int(Int64(size)), "sha256": .string(sha256),
    ])
  }

  /// A chunk was refused (nothing of it written) or the upload failed; `offset` is
  /// where the server expects the next chunk.
  static func error(_ id: String, offset: Int, code: String, message: String) -> OutboundFrame {
    frame([
      "op": "upload_error", "upload": .string(id), "offset": .int(Int64(offset)),
      "error": .object(["code": .string(code), "message": .string(message)]),
    ])
  }

  private static func frame(_ object: JSONObject) -> OutboundFrame {
    OutboundFrame(text: JSON.object(object).serialized())
  }
}
