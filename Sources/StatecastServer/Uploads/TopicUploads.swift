import Statecast

/// What a topic accepts as uploads, and how a finished file reaches its store: set by
/// the route of an `UploadingFeature` on the topic's host.
struct TopicUploads: Sendable {
  let limits: UploadLimits
  /// Sends the feature's upload action to the topic's store.
  let deliver: @Sendable (UploadedFile) async -> Void
}
