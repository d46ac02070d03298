/// A feature that accepts files: its limits, and the action its store receives for each
/// file the server finished receiving.
///
/// The action is an internal one (a browser cannot send it): the file's size and hash
/// are the server's, so the reducer can trust them. Serve it like any feature; the
/// route then accepts uploads announced on its topic.
///
/// ```swift
/// extension Uploads: UploadingFeature {
///   static var uploadLimits: UploadLimits { UploadLimits(maxFileSize: 25 << 20) }
///   static func fileUploaded(_ file: UploadedFile) -> Action { .fileReceived(file) }
/// }
/// ```
public protocol UploadingFeature: Feature {
  /// What the topic accepts.
  static var uploadLimits: UploadLimits { get }
  /// The action that hands a finished file to the store.
  static func fileUploaded(_ file: UploadedFile) -> Action
}
