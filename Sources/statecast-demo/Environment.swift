import ArgumentParser
import Foundation

/// The process environment as a second source of options: every option of the demo
/// also reads a `STATECAST_…` variable, so that a container or a service manager can
/// configure the server without a command line. A flag given on the command line wins.
///
/// ```swift
/// let environment = Environment(["STATECAST_PORT": "9000"])
/// try environment.value(nil, "STATECAST_PORT", for: "--port") as Int?  // 9000
/// try environment.value(8081, "STATECAST_PORT", for: "--port")          // 8081: the flag wins
/// ```
struct Environment: Sendable {
  var variables: [String: String]

  init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
    self.variables = variables
  }

  /// The flag's value if it was given, else the variable's, parsed as the flag's would
  /// be; `nil` when neither is set (an empty variable counts as unset).
  /// - Parameters:
  ///   - rule: what a usable value is, for the error message (`"between 0 and 65535"`),
  ///     and the check itself.
  /// - Throws: `ValidationError` naming the flag or the variable the bad value came from.
  func value<Value: ExpressibleByArgument>(
    _ flag: Value?, _ name: String, for option: String,
    must rule: (description: String, check: (Value) -> Bool)? = nil
  ) throws -> Value? {
    let value: Value
    let source: String
    if let flag {
      (value, source) = (flag, option)
    } else if let text = variables[name], !text.isEmpty {
      guard let parsed = Value(argument: text) else {
        throw ValidationError("\(name)=\"\(text)\" is not a valid value for \(option)")
      }
      (value, source) = (parsed, "\(name) (\(option))")
    } else {
      return nil
    }
    if let rule, !rule.check(value) {
      throw ValidationError("\(source) must be \(rule.description), not \(value)")
    }
    return value
  }

  /// A repeatable option: the flags if any were given, else the variable's
  /// comma-separated values.
  func values(_ flags: [String], _ name: String) -> [String] {
    guard flags.isEmpty, let text = variables[name] else { return flags }
    return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// An on/off flag with a `--no-` form: the flag if given, else the variable
  /// (`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`).
  func switchValue(_ flag: Bool?, _ name: String, for option: String) throws -> Bool? {
    if let flag { return flag }
    guard let text = variables[name]?.lowercased(), !text.isEmpty else { return nil }
    switch text {
    case "1", "true", "yes", "on": return true
    case "0", "false", "no", "off": return false
    default:
      throw ValidationError("\(name)=\"\(text)\" is not a valid value for \(option): use true or false")
    }
  }
}
