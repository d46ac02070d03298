import Foundation
import Statecast

extension Signup {
  public struct Dependencies: Sendable {
    /// The clock of the name check's pause and the account's creation.
    public var clock: any Clock<Duration>
    /// Whether a name is taken (a directory lookup in a real app).
    public var isTaken: @Sendable (_ name: String) async -> Bool
    /// How long the name must stay unchanged before it is checked.
    public var checkDelay: Duration

    public init(
      clock: any Clock<Duration>, checkDelay: Duration = .milliseconds(300),
      isTaken: @escaping @Sendable (_ name: String) async -> Bool
    ) {
      self.clock = clock
      self.checkDelay = checkDelay
      self.isTaken = isTaken
    }

    /// The demo's: a few names are taken, whatever their case.
    public static func live() -> Self {
      Self(clock: ContinuousClock()) { name in
        takenNames.contains(name.trimmingCharacters(in: .whitespaces).lowercased())
      }
    }

    public static let takenNames: Set<String> = ["admin", "ada", "root", "statecast"]
  }
}
