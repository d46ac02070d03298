import Statecast

extension Viewer {
  /// A viewer for a browser that did not authenticate: a generated id (unguessable, so
  /// that one guest cannot pose as another) and a friendly name such as "Guest 4821".
  static func guest() -> Viewer {
    var generator = SystemRandomNumberGenerator()
    let number = Int.random(in: 1000...9999, using: &generator)
    return Viewer(id: "guest-" + SessionID.make(), name: "Guest \(number)", isAuthenticated: false)
  }
}
