import Statecast

/// A route's uploads before its store exists: the limits and the action a finished file
/// becomes, made into a ``TopicUploads`` for each store the route opens.
struct UploadAcceptance<Action: Sendable>: Sendable {
  let limits: UploadLimits
  let action: @Sendable (UploadedFile) -> Action

  func target<State: Sendable>(for store: Store<State, Action>) -> TopicUploads {
    let action = self.action
    return TopicUploads(limits: limits, deliver: { file in _ = await store.send(action(file)) })
  }
}

extension UploadAcceptance {
  /// What `feature` accepts when it is an `UploadingFeature`, `nil` otherwise: a route
  /// learns it from the feature's conformance, as it learns everything else.
  static func of<F: Feature>(_ feature: F.Type) -> UploadAcceptance? where F.Action == Action {
    guard let uploading = feature as? any UploadingFeature.Type else { return nil }
    return acceptance(of: uploading) as? UploadAcceptance
  }

  private static func acceptance<U: UploadingFeature>(of feature: U.Type) -> any Sendable {
    UploadAcceptance<U.Action>(limits: U.uploadLimits, action: { U.fileUploaded($0) })
  }
}
