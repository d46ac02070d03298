import Foundation

/// The command line: `todomvc [--host ADDRESS] [--port N] [--data DIR] [--public DIR]`.
struct Options {
  var host = "127.0.0.1"
  /// 0 picks a free port.
  var port = 8080
  /// Where each browser's list is kept (SQLite).
  var data = FileManager.default.temporaryDirectory.appendingPathComponent("todomvc").path
  /// The app's page; by default the package's `Public/`.
  var publicDirectory = "Public"

  /// Reads `arguments` (without the program's name); a bad one throws a usage message.
  init(_ arguments: some Sequence<String>) throws {
    var rest = arguments.makeIterator()
    while let flag = rest.next() {
      guard let value = rest.next() else { throw Usage("\(flag) needs a value") }
      switch flag {
      case "--host": host = value
      case "--port":
        guard let number = Int(value), (0...65535).contains(number) else {
          throw Usage("bad --port \(value)")
        }
        port = number
      case "--data": data = value
      case "--public": publicDirectory = value
      default: throw Usage("unknown option \(flag)")
      }
    }
  }
}

/// A command line mistake, with the usage line.
struct Usage: Error, CustomStringConvertible {
  let description: String

  init(_ problem: String) {
    description = "\(problem)\nusage: todomvc [--host ADDRESS] [--port N] [--data DIR] [--public DIR]"
  }
}
