public import Statecast

extension Signup {
  /// What the page shows. The password itself never goes back to the browser: only its
  /// strength does.
  public struct ViewState: Encodable, Equatable, Sendable {
    public var name: String
    public var email: String
    /// The first error of each invalid field, by the input's `name`.
    public var errors: FieldErrors
    public var checkingName: Bool
    /// 0 (too short) to 4 (strong), and its word.
    public var strength: Int
    public var strengthLabel: String
    public var creating: Bool
    public var signedUp: Bool
  }

  static let strengthLabels = ["too short", "weak", "fair", "good", "strong"]

  public static func viewState(_ state: State) -> ViewState {
    let strength = strength(of: state.password)
    let checking = if case .checking = state.nameCheck { true } else { false }
    return ViewState(
      name: state.name, email: state.email, errors: errors(of: state), checkingName: checking,
      strength: strength, strengthLabel: state.password.isEmpty ? "" : strengthLabels[strength],
      creating: state.phase == .creating, signedUp: state.phase == .signedUp)
  }
}
