public import Statecast

extension Signup {
  /// Every error of the form's current values: the rules each field follows, and what
  /// the server found (a taken name). Recomputed from the state, never stored apart
  /// from it, so it cannot go stale.
  public static func errors(of state: State) -> FieldErrors {
    var errors = FieldErrors()
    errors.check(
      "name", state.name, .required("Enter a name"),
      .maxLength(maxNameLength, "At most \(maxNameLength) characters"))
    errors.check("email", state.email, .required("Enter your email address"), .email())
    errors.check(
      "password", state.password, .minLength(minPasswordLength, "At least \(minPasswordLength) characters"))
    if errors["name"].isEmpty { errors.merge(state.serverErrors) }
    return errors
  }

  /// 0 (too short) to 4 (strong): length past the minimum, and letters of both cases,
  /// digits and symbols.
  public static func strength(of password: String) -> Int {
    guard password.count >= minPasswordLength else { return 0 }
    var score = 1
    if password.count >= 16 { score += 1 }
    if password.contains(where: \.isUppercase) && password.contains(where: \.isLowercase) { score += 1 }
    if password.contains(where: \.isNumber) { score += 1 }
    if password.contains(where: { !$0.isLetter && !$0.isNumber }) { score += 1 }
    return min(score, 4)
  }
}
