#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which request paths the public directory may answer: none with a segment that starts
/// with `.` (except a leading `/.well-known/`), and none whose file, once every symlink
/// is resolved, lies outside the directory.
///
/// Why it exists: lws' file mount refuses `..` but serves dotfiles (`/.env`, `/.git/…`)
/// and follows symlinks wherever they point; a link to `/etc` left in a public folder
/// would serve the machine's files. The rule is checked before the mount opens anything.
///
///     let rule = PublicFileRule(root: "/srv/app/Public")
///     rule.refuses("/.env")            // true
///     rule.refuses("/statecast.js")    // false
struct PublicFileRule: Sendable {
  /// The public directory, absolute, with its own symlinks resolved.
  let root: String
  /// The file lws serves for a directory.
  let indexFile: String

  init(root: String, indexFile: String = "index.html") {
    self.root = root
    self.indexFile = indexFile
  }

  /// Whether the request for `path` (decoded, without its query) must be answered 404.
  /// A path that names nothing on disk is not refused here: app pages and the 404 of
  /// the callback answer it.
  func refuses(_ path: String) -> Bool {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    for (index, segment) in segments.enumerated() where segment.hasPrefix(".") {
      if index == 0 && segment == ".well-known" { continue }
      return true
    }
    let candidate = root + "/" + segments.joined(separator: "/")
    guard let resolved = Self.realPath(candidate) else { return false }
    guard isInside(resolved) else { return true }
    var status = stat()
    if stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      let index = Self.realPath(candidate + "/" + indexFile)
    {
      return !isInside(index)
    }
    return false
  }

  private func isInside(_ resolved: String) -> Bool {
    resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/")
  }

  /// `path` with every symlink, `.` and `..` resolved, or `nil` if it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
