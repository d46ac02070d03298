/// A file a browser finished uploading, as the server received it.
///
/// The server computes `size` and `sha256` from the bytes it wrote, never from what the
/// browser claimed, and hands the file to the store as an action (see
/// ``UploadingFeature``). The file at `path` is the store's until its session ends: the
/// server then removes it, unless the store moved it somewhere else first.
public struct UploadedFile: Sendable, Hashable, Codable {
  /// The upload's id on the wire (32 hex digits).
  public var id: String
  /// The file's name as the browser gave it (untrusted: show it escaped, never use it as a path).
  public var name: String
  /// Bytes received and written.
  public var size: Int
  /// The media type the browser gave (untrusted), e.g. `image/png`; may be empty.
  public var type: String
  /// SHA-256 of the bytes, as 64 lowercase hex digits, computed by the server.
  public var sha256: String
  /// Where the bytes are: a temporary file owned by the server.
  public var path: String

  public init(id: String, name: String, size: Int, type: String, sha256: String, path: String) {
    self.id = id
    self.name = name
    self.size = size
    self.type = type
    self.sha256 = sha256
    self.path = path
  }
}
