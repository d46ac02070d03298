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
