public import Statecast

/// Demo: a sign-up form validated as people type. The reducer's state decides what is
/// valid (``FieldErrors`` from ``Validator`` rules), an effect checks after a pause
/// whether the name is taken (only the server can know), and the runtime shows each
/// error once the field was left or the form submitted. Page: `/signup.html`.
public enum Signup: Feature {
  public struct State: Equatable, Sendable {
    public var name = ""
    public var email = ""
    public var password = ""
    public var nameCheck = NameCheck.idle
    /// Errors only the server could find (a taken name).
    public var serverErrors = FieldErrors()
    /// A submit waits for the name check in flight.
    public var submitPending = false
    public var phase = Phase.editing

    public init() {}
  }

  public enum NameCheck: Equatable, Sendable {
    case idle
    case checking(String)
    case checked(String)
  }

  public enum Phase: Equatable, Sendable {
    case editing
    case creating
    case signedUp
  }

  public enum Action: Equatable, Sendable {
    case client(ClientAction)
    case nameChecked(name: String, taken: Bool)
    case accountCreated
  }

  public enum ClientAction: Codable, Equatable, Sendable {
    case nameChanged(text: String)
    case emailChanged(text: String)
    case passwordChanged(text: String)
    case submit
    case startOver
  }

  enum CancelID: Hashable, Sendable {
    case nameCheck
  }

  public static let maxNameLength = 40
  public static let minPasswordLength = 12

  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
