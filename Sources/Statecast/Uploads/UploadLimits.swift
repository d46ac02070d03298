/// What a feature accepts as uploads; the server refuses the rest, per file, with a
/// message saying which limit the file broke.
///
/// ```swift
/// UploadLimits(maxFileSize: 25 << 20, maxFiles: 10, types: ["image/*", ".pdf"], sessionQuota: 100 << 20)
/// ```
public struct UploadLimits: Sendable, Hashable {
  /// The largest file, in bytes.
  public var maxFileSize: Int
  /// How many files one session may upload to the topic (finished and in progress).
  public var maxFiles: Int
  /// Accepted media types (`image/png`, `image/*`) or name endings (`.pdf`); empty
  /// accepts every file.
  public var types: [String]
  /// Bytes one session may upload in all, finished and in progress.
  public var sessionQuota: Int

  public init(
    maxFileSize: Int = 10 << 20, maxFiles: Int = 20, types: [String] = [], sessionQuota: Int = 100 << 20
  ) {
    self.maxFileSize = maxFileSize
    self.maxFiles = maxFiles
    self.types = types
    self.sessionQuota = sessionQuota
  }

  /// Why a file of `name`, `type` and `size` is refused, given what the session has
  /// already uploaded (`files`, `bytes`); `nil` if it is accepted.
  public func refusal(name: String, type: String, size: Int, files: Int, bytes: Int) -> String? {
    if size > maxFileSize {
      return "\(name) is \(Self.describe(size)); files may be at most \(Self.describe(maxFileSize))"
    }
    if !types.isEmpty, !types.contains(where: { Self.matches($0, name: name, type: type) }) {
      return "\(name) is not an accepted type (\(types.joined(separator: ", ")))"
    }
    if files >= maxFiles { return "at most \(maxFiles) files may be uploaded" }
    if bytes + size > sessionQuota {
      return "\(name) would pass this page's upload quota of \(Self.describe(sessionQuota))"
    }
    return nil
  }

  private static func matches(_ pattern: String, name: String, type: String) -> Bool {
    let pattern = pattern.lowercased()
    if pattern.hasPrefix(".") { return name.lowercased().hasSuffix(pattern) }
    if pattern.hasSuffix("/*") { return type.lowercased().hasPrefix(pattern.dropLast()) }
    return type.lowercased() == pattern
  }

  /// A size as people read it: `512 bytes`, `20 KB`, `1.5 MB`.
  public static func describe(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    if bytes < 1 << 20 { return "\(bytes >> 10) KB" }
    let megabytes = Double(bytes) / Double(1 << 20)
    return megabytes.rounded() == megabytes ? "\(Int(megabytes)) MB" : "\((megabytes * 10).rounded() / 10) MB"
  }
}
