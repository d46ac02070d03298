import Foundation

/// Finds an app's public directory the way its author expects: an absolute path is
/// taken as it is; a relative one is looked for in the working directory, then in the
/// package the executable was built in (the nearest folder above it that holds a
/// `Package.swift`, as under `swift run`), so `"Public"` means the package's `Public/`
/// wherever the app is started from.
enum PublicDirectory {
  /// The directory `path` names: the first candidate that exists, else the one under
  /// the working directory (the server then refuses to start, naming it).
  static func resolve(
    _ path: String,
    workingDirectory: String = FileManager.default.currentDirectoryPath,
    executable: String? = Bundle.main.executablePath
  ) -> String {
    candidates(path, workingDirectory: workingDirectory, executable: executable)
      .first { isDirectory($0) }
      ?? URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory)).path
  }

  /// Where `path` is looked for, in order.
  static func candidates(_ path: String, workingDirectory: String, executable: String?) -> [String] {
    if path.hasPrefix("/") { return [path] }
    var found = [URL(fileURLWithPath: workingDirectory).appendingPathComponent(path).standardizedFileURL.path]
    if let executable {
      var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
      while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
          found.append(folder.appendingPathComponent(path).standardizedFileURL.path)
          break
        }
        folder = folder.deletingLastPathComponent()
      }
    }
    return found
  }

  private static func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }
}
